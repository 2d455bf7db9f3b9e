import { afterAll, describe, expect, it } from 'vitest';
import { JOIN_REQUEST_COOLDOWN_MS } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { useOwnRedisPrefix } from '../../workers/test/helpers.js';
import { api, createUser } from './helpers.js';
import { addMember, newProject } from './project-helpers.js';

useOwnRedisPrefix('teams');
afterAll(async () => {
  await closeQueues();
  await closeEmitter();
});

const team = async (auth: Record<string, string>, id: number) => (await api().get('/api/team-members').set(auth).query({ id_project: id })).body.data;

describe('team members and permissions', () => {
  it('the owner can be neither removed nor leave without handing over; after handing over they stay as project admin and may leave', async () => {
    const owner = await createUser();
    const admin = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, admin, 'project_admin');
    const remove = await api().post('/api/team-members/remove-team-member').set(admin.auth).send({ id_project: p.id, id_user: owner.user.id });
    expect(remove.status).toBe(400);
    expect(remove.body.message).toBe('The project owner cannot be removed.');
    const leave = await api().post('/api/team-members/leave-project').set(owner.auth).send({ id_project: p.id });
    expect(leave.status).toBe(400);
    expect(leave.body.message).toBe('As the owner you cannot leave this project. Hand it over to another member first.');

    // A project admin manages the team but cannot hand the project over.
    expect((await api().post('/api/team-members/transfer-ownership').set(admin.auth).send({ id_project: p.id, id_user: admin.user.id })).status).toBe(403);
    const handed = await api().post('/api/team-members/transfer-ownership').set(owner.auth).send({ id_project: p.id, id_user: admin.user.id });
    expect(handed.status).toBe(200);
    expect(handed.body.data.owner.user.id).toBe(admin.user.id);
    expect(handed.body.data.members.map((m: { user: { id: number }; role: string }) => [m.user.id, m.role])).toEqual([[owner.user.id, 'project_admin']]);
    expect((await api().get(`/api/projects/${p.id}`).set(admin.auth)).body.data.role).toBe('owner');
    expect((await api().post('/api/team-members/leave-project').set(owner.auth).send({ id_project: p.id })).status).toBe(200);
    expect((await api().get(`/api/projects/${p.id}`).set(owner.auth)).status).toBe(404);
  });

  it('per-member permissions: the owner toggles them, a guest stays read-only, and a team manager cannot hand out what only the owner grants', async () => {
    const owner = await createUser();
    const manager = await createUser();
    const viewer = await createUser();
    const guest = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, manager, 'viewer', { manage_team: true });
    await addMember(p.id, viewer, 'viewer');
    await addMember(p.id, guest, 'guest');

    const own = await api().get('/api/team-members/permissions').set(viewer.auth).query({ id_project: p.id });
    expect(own.body.data).toEqual({ id_project: p.id, id_user: viewer.user.id, role: 'viewer', permissions: { view: true, upload: false, edit: false, manage_snags: false, manage_team: false } });
    expect((await api().post(`/api/projects/${p.id}/pdf-sheet`).set(viewer.auth)).status).toBe(403);

    const up = await api().put('/api/team-members/update-permissions').set(owner.auth).send({ id_project: p.id, id_user: viewer.user.id, permissions: { upload: true, edit: true } });
    expect(up.status).toBe(200);
    expect(up.body.data.permissions).toMatchObject({ upload: true, edit: true, manage_snags: false });
    expect((await api().get(`/api/projects/${p.id}`).set(viewer.auth)).body.data).toMatchObject({ can_edit_sheets: true, permissions: { upload: true } });
    // Changing one toggle keeps the others.
    const off = await api().put('/api/team-members/update-permissions').set(owner.auth).send({ id_project: p.id, id_user: viewer.user.id, permissions: { upload: false } });
    expect(off.body.data.permissions).toMatchObject({ upload: false, edit: true });

    const guestToggle = await api().put('/api/team-members/update-permissions').set(owner.auth).send({ id_project: p.id, id_user: guest.user.id, permissions: { edit: true } });
    expect(guestToggle.status).toBe(400);
    expect(guestToggle.body.message).toBe('A guest has the permissions of the role. Choose the editor or viewer role to set them one by one.');
    const noView = await api().put('/api/team-members/update-permissions').set(owner.auth).send({ id_project: p.id, id_user: viewer.user.id, permissions: { view: false } });
    expect(noView.status).toBe(400);

    const grant = await api().put('/api/team-members/update-permissions').set(manager.auth).send({ id_project: p.id, id_user: viewer.user.id, permissions: { manage_team: true } });
    expect(grant.status).toBe(403);
    const promote = await api().put('/api/team-members/update-permissions').set(manager.auth).send({ id_project: p.id, id_user: viewer.user.id, role: 'project_admin' });
    expect(promote.status).toBe(403);
    const self = await api().put('/api/team-members/update-permissions').set(manager.auth).send({ id_project: p.id, id_user: manager.user.id, permissions: { edit: true } });
    expect(self.status).toBe(400);
    // But it may make the viewer an editor, which starts from the editor's defaults.
    const editor = await api().put('/api/team-members/update-permissions').set(manager.auth).send({ id_project: p.id, id_user: viewer.user.id, role: 'editor' });
    expect(editor.body.data).toMatchObject({ role: 'editor', permissions: { upload: true, edit: true, manage_snags: true, manage_team: false } });

    const bad = await api().put('/api/team-members/update-permissions').set(owner.auth).send({ id_project: p.id, id_user: viewer.user.id, permissions: { fly: true } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/fly/);
  });

  it('a removed member loses the project at once; the team list hides invitations and requests from those who do not manage it', async () => {
    const owner = await createUser();
    const member = await createUser();
    const p = await newProject(owner);
    await addMember(p.id, member, 'editor');
    const seenByMember = await team(member.auth, p.id);
    expect(seenByMember).toMatchObject({ can_manage_team: false, can_leave: true, invitations: [], join_requests: [] });
    const { id_member } = seenByMember.members[0];
    const removed = await api().post('/api/team-members/remove-team-member').set(owner.auth).send({ id_member });
    expect(removed.status).toBe(200);
    expect((await api().get(`/api/projects/${p.id}`).set(member.auth)).status).toBe(404);
    expect((await api().post('/api/team-members/remove-team-member').set(owner.auth).send({ id_member })).status).toBe(404);
  });
});

describe('join requests', () => {
  it('send, see it in the team, decline, wait for the cool-down, ask again, accept', async () => {
    const owner = await createUser();
    const asker = await createUser({ first_name: 'Lina', last_name: 'Saleh' });
    const p = await newProject(owner, { name: 'Dabouq School' });

    const sent = await api().post('/api/join-requests/send').set(asker.auth).send({ project_code: p.project_code.toUpperCase() });
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ status: 'pending', project: { id: p.id, name: 'Dabouq School' } });
    expect((await api().post('/api/join-requests/send').set(asker.auth).send({ project_code: p.project_code })).status).toBe(409);
    const status = await api().get('/api/join-requests/check-join-status').set(asker.auth).query({ project_code: p.project_code });
    expect(status.body.data.status).toBe('pending');

    const seen = await team(owner.auth, p.id);
    expect(seen.join_requests.map((r: { user: { id: number } }) => r.user.id)).toEqual([asker.user.id]);

    const declined = await api().post('/api/join-requests/decline').set(owner.auth).send({ id_project: p.id, id_user: asker.user.id });
    expect(declined.status).toBe(200);
    const again = await api().post('/api/join-requests/send').set(asker.auth).send({ project_code: p.project_code });
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^Your request to join this project was declined\. You can ask again after /);
    const mine = await api().get('/api/join-requests/check-join-status').set(asker.auth);
    expect(mine.body.data[0]).toMatchObject({ status: 'declined', project: { id: p.id } });
    expect(mine.body.data[0].retry_after).not.toBeNull();

    // The cool-down has passed.
    await db()('project_join_requests').where({ id_project: p.id, id_user: asker.user.id }).update({ decided_at: new Date(Date.now() - JOIN_REQUEST_COOLDOWN_MS - 1000) });
    expect((await api().post('/api/join-requests/send').set(asker.auth).send({ project_code: p.project_code })).status).toBe(201);
    const accepted = await api().post('/api/join-requests/accept').set(owner.auth).send({ id_project: p.id, id_user: asker.user.id, role: 'editor' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ role: 'editor', user: { id: asker.user.id } });
    expect((await api().get(`/api/projects/${p.id}`).set(asker.auth)).body.data.role).toBe('editor');
    expect((await api().get('/api/join-requests/check-join-status').set(asker.auth).query({ project_code: p.project_code })).body.data.status).toBe('member');
  });

  it('answers the same for a code that does not exist and one of an inactive project; a cancelled request leaves the list', async () => {
    const owner = await createUser();
    const asker = await createUser();
    const admin = await createUser({ super_admin: true });
    const p = await newProject(owner);
    await api().post(`/api/projects/deactivate/${p.id}`).set(admin.auth);
    const inactive = await api().post('/api/join-requests/send').set(asker.auth).send({ project_code: p.project_code });
    const unknown = await api().post('/api/join-requests/send').set(asker.auth).send({ project_code: 'nosuchcode99' });
    expect(inactive.status).toBe(404);
    expect(inactive.body).toEqual(unknown.body);
    const s1 = await api().get('/api/join-requests/check-join-status').set(asker.auth).query({ project_code: p.project_code });
    const s2 = await api().get('/api/join-requests/check-join-status').set(asker.auth).query({ project_code: 'nosuchcode99' });
    expect(s1.body).toEqual(s2.body);
    expect(s1.body.data).toEqual({ status: 'none', request: null });

    await api().post(`/api/projects/activate/${p.id}`).set(admin.auth);
    expect((await api().post('/api/join-requests/send').set(asker.auth).send({ project_code: p.project_code })).status).toBe(201);
    expect((await api().post('/api/join-requests/cancel').set(asker.auth).send({ id_project: p.id })).status).toBe(200);
    expect((await team(owner.auth, p.id)).join_requests).toEqual([]);
    expect((await api().post('/api/join-requests/cancel').set(asker.auth).send({ id_project: p.id })).status).toBe(404);
    expect((await api().post('/api/join-requests/send').set(asker.auth).send({})).body.message).toBe('project_code is required.');
  });
});
