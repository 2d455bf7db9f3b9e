import { describe, expect, it } from 'vitest';
import { api, createUser, uniqueName } from './helpers.js';
import { newProject } from './project-helpers.js';

describe('GET /api/showcase', () => {
  it('shows an active, validated project to anyone by its code, without private fields', async () => {
    const owner = await createUser();
    const admin = await createUser({ super_admin: true });
    const typeName = uniqueName('Museum');
    const type = (await api().post('/api/project-types').set(admin.auth).send({ name: typeName })).body.data;
    const p = await newProject(owner, {
      name: 'City Museum',
      description: 'A new wing',
      street: '12 Private Lane',
      city: 'Amman',
      country: 'Jordan',
      client_name: 'Ministry of Culture',
      latitude: 31.9,
      longitude: 35.9,
      id_project_type: type.id,
    });
    await api().post('/api/maps').set(owner.auth).send({ id_project: p.id, name: 'Ground floor' });
    await api().post(`/api/projects/validate/${p.id}`).set(admin.auth).expect(200);

    const res = await api().get(`/api/showcase?project_code=${p.project_code}`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('success');
    expect(res.body.data).toEqual({
      project_code: p.project_code,
      name: 'City Museum',
      description: 'A new wing',
      project_type: typeName,
      city: 'Amman',
      country: 'Jordan',
      cover_url: null,
      sheets_count: 1,
      created_at: p.created_at,
    });
    const text = JSON.stringify(res.body);
    for (const secret of ['Private Lane', 'Ministry', owner.user.username, owner.user.email, '31.9', 'id_owner']) expect(text).not.toContain(secret);
    // Codes are case-insensitive when typed by hand.
    expect((await api().get(`/api/showcase?project_code=${p.project_code.toUpperCase()}`)).status).toBe(200);
  });

  it('answers 404, the same way, for projects awaiting approval, deactivated projects and unknown codes', async () => {
    const owner = await createUser();
    const admin = await createUser({ super_admin: true });
    const pending = await newProject(owner);
    const off = await newProject(owner);
    await api().post(`/api/projects/validate/${off.id}`).set(admin.auth).expect(200);
    await api().post(`/api/projects/deactivate/${off.id}`).set(admin.auth).expect(200);
    const answers = await Promise.all(
      [pending.project_code, off.project_code, 'nosuchcode23'].map((code) => api().get(`/api/showcase?project_code=${code}`)),
    );
    for (const a of answers) {
      expect(a.status).toBe(404);
      expect(a.body).toEqual({ status: 'error', message: 'No public project has this code.', data: null });
    }
  });

  it('answers 400 without a project_code', async () => {
    const res = await api().get('/api/showcase');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('project_code is required.');
  });

  it('answers 400, not 500, to a NUL byte or broken text in the code, and to unknown query parameters', async () => {
    for (const q of ['project_code=%00', 'project_code=ab%00cd', 'project_code=%ED%A0%80', 'project_code=abc&x%00=1']) {
      const res = await api().get(`/api/showcase?${q}`);
      expect(res.status, q).toBeGreaterThanOrEqual(400);
      expect(res.status, q).toBeLessThan(500);
    }
    const nul = await api().get('/api/showcase?project_code=%00');
    expect(nul.status).toBe(400);
    expect(nul.body.message).toBe('The query parameter "project_code" contains a character that cannot be stored (a NUL byte or a broken Unicode character). Remove it and try again.');
    const unknown = await api().get('/api/showcase?project_code=abc&utm_source=mail');
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Unknown query parameter: utm_source.');
  });
});
