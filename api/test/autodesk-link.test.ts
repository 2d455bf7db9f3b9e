import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '@sitewalk/core/db';
import { closeRedis } from '@sitewalk/core/redis.js';
import type { AdskStandIn } from '../../test/support/adsk-stand-in.js';
import { api, createUser } from './helpers.js';
import { lockSettings, type SettingsLock } from './settings-lock.js';
import { authUrl, callback, captureLogs, connect, consent, enableAdsk, expectNoTokenIn, startStandIn } from './autodesk-helpers.js';

let settings: SettingsLock;
let standIn: AdskStandIn;

beforeAll(async () => {
  settings = await lockSettings();
  standIn = await startStandIn();
  await enableAdsk(settings);
});
afterAll(async () => {
  await settings?.release();
  await standIn?.close();
  await closeRedis();
});

const linkRow = (userId: number) => db()('adsk_links').where({ id_user: userId }).first();
const adskAuth = async (userId: number) => (await db()('users').where({ id: userId }).first('adsk_auth')).adsk_auth as boolean;

describe('switched off', () => {
  it('refuses every design-cloud call with a clear message, but disconnecting still works', async () => {
    await settings.set({ adsk_enable: false });
    try {
      const u = await createUser();
      for (const res of [
        await api().get('/api/autodesk/auth-url').set(u.auth),
        await api().get('/api/autodesk/check-auth').set(u.auth),
        await api().get('/api/autodesk/hubs').set(u.auth),
        await api().post('/api/autodesk/sync-hub').set(u.auth).send({ hub_id: 'b.hub' }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.message).toBe('The Autodesk integration is switched off. An administrator can turn it on in Settings.');
      }
      expect((await api().post('/api/autodesk/logout').set(u.auth)).status).toBe(200);
    } finally {
      await enableAdsk(settings);
    }
  });

  it('says when the client id and secret are missing', async () => {
    await settings.set({ adsk_secret: '' });
    try {
      const u = await createUser();
      const res = await api().get('/api/autodesk/auth-url').set(u.auth);
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(/client id and secret/);
    } finally {
      await enableAdsk(settings);
    }
  });

  it('needs a signed-in user', async () => {
    expect((await api().get('/api/autodesk/auth-url')).status).toBe(401);
    expect((await api().get('/api/autodesk/hubs')).status).toBe(401);
  });
});

describe('OAuth round trip', () => {
  it('connects with state and PKCE, seals the tokens, and sets the link cookie', async () => {
    const u = await createUser();
    const { url } = await authUrl(u);
    expect(url.pathname).toBe('/authentication/v2/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('redirect_uri')).toMatch(/\/api\/autodesk\/callback$/);
    const back = await consent(url);
    const { res, location, result } = await callback(back);
    expect(location.pathname).toBe('/profile');
    expect(result).toEqual({ status: 'success', message: 'Connected to Autodesk.' });
    expect(String(res.headers['set-cookie'])).toMatch(/adsk_access_token=[A-Za-z0-9_-]{20,}/);
    expect(await adskAuth(u.user.id)).toBe(true);
    const row = await linkRow(u.user.id);
    expect(row.access_token).toMatch(/^enc:v1:/);
    expect(row.refresh_token).toMatch(/^enc:v1:/);
    expectNoTokenIn(standIn, JSON.stringify(row));
    expect((await api().get('/api/autodesk/check-auth').set(u.auth)).body.data).toEqual({ authenticated: true });
  });

  it('refuses a replayed callback, and a state it never issued', async () => {
    const u = await createUser();
    const { url } = await authUrl(u);
    const back = await consent(url);
    expect((await callback(back)).result.status).toBe('success');
    const replay = await callback(back);
    expect(replay.result.status).toBe('error');
    expect(replay.result.message).toMatch(/does not match one started here/);
    const forged = new URL(back);
    forged.searchParams.set('state', 'made-up-state');
    expect((await callback(forged)).result.status).toBe('error');
  });

  it('refuses a code used twice (Autodesk says so; the link is not made)', async () => {
    const u = await createUser();
    const first = await authUrl(u);
    const back = await consent(first.url);
    expect((await callback(back)).result.status).toBe('success');
    await api().post('/api/autodesk/logout').set(u.auth);
    // A second sign-in of the same user, answered with the first code.
    const second = await authUrl(u);
    await consent(second.url);
    const reused = new URL(back);
    reused.searchParams.set('state', second.state);
    const out = await callback(reused);
    expect(out.result).toEqual({ status: 'error', message: 'Failed to connect to Autodesk: Autodesk did not accept the sign-in. Please try again.' });
    expect(standIn.events.some((e) => e.reason?.includes('already used'))).toBe(true);
    expect(await adskAuth(u.user.id)).toBe(false);
  });

  it('verifies PKCE: a code answered to another sign-in (another verifier) is refused', async () => {
    const u = await createUser();
    const a = await authUrl(u);
    const b = await authUrl(u);
    const backB = await consent(b.url);
    const crossed = new URL(backB);
    crossed.searchParams.set('state', a.state);
    const out = await callback(crossed);
    expect(out.result.status).toBe('error');
    expect(standIn.events.some((e) => e.reason?.includes('PKCE verification failed'))).toBe(true);
    expect(await adskAuth(u.user.id)).toBe(false);
  });

  it('reports a denied consent', async () => {
    const u = await createUser();
    const { url } = await authUrl(u);
    const out = await callback(await consent(url, 'deny'));
    expect(out.result).toEqual({ status: 'error', message: 'Failed to connect to Autodesk: access was not allowed.' });
  });
});

describe('refresh and disconnect', () => {
  it('rotates the tokens: the old refresh token is spent, a new handle comes back', async () => {
    const u = await createUser();
    await connect(u);
    const before = await linkRow(u.user.id);
    const liveBefore = standIn.liveTokens();
    const res = await api().post('/api/autodesk/refresh').set(u.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.access_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(res.body.data.expiresAt).toBeGreaterThan(Date.now());
    expect(String(res.headers['set-cookie'])).toContain(`adsk_access_token=${res.body.data.access_token}`);
    const after = await linkRow(u.user.id);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    // The refresh token that was live is no longer.
    const spent = liveBefore.filter((t) => t.startsWith('sr-') && !standIn.liveTokens().includes(t));
    expect(spent.length).toBeGreaterThan(0);
    // Browsing goes on with the new tokens.
    expect((await api().get('/api/autodesk/hubs').set(u.auth)).status).toBe(200);
  });

  it('an expired access token is refreshed on the way, unnoticed', async () => {
    const u = await createUser();
    await connect(u);
    standIn.expireAccessTokens();
    const res = await api().get('/api/autodesk/hubs').set(u.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBe(2);
  });

  it('a refused refresh means not connected', async () => {
    const u = await createUser();
    await connect(u);
    standIn.revokeAll();
    const res = await api().post('/api/autodesk/refresh').set(u.auth);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Your Autodesk link has expired. Please connect again.');
    expect(String(res.headers['set-cookie'])).toMatch(/adsk_access_token=;/);
    expect(await adskAuth(u.user.id)).toBe(false);
    expect((await api().get('/api/autodesk/check-auth').set(u.auth)).body.data).toEqual({ authenticated: false });
    const browse = await api().get('/api/autodesk/hubs').set(u.auth);
    expect(browse.status).toBe(409);
    expect(browse.body.message).toBe('Your account is not connected to Autodesk. Connect it from your profile first.');
  });

  it('disconnect revokes at Autodesk and clears the cookie, the tokens and the flag', async () => {
    const u = await createUser();
    await connect(u);
    const revokesBefore = standIn.events.filter((e) => e.path === '/authentication/v2/revoke').length;
    const res = await api().post('/api/autodesk/logout').set(u.auth);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Successfully disconnected from Autodesk');
    expect(String(res.headers['set-cookie'])).toMatch(/adsk_access_token=;/);
    expect(standIn.events.filter((e) => e.path === '/authentication/v2/revoke' && e.status === 200).length).toBe(revokesBefore + 2);
    expect(await linkRow(u.user.id)).toBeUndefined();
    expect(await adskAuth(u.user.id)).toBe(false);
  });
});

describe('browsing', () => {
  it('follows pagination to the end and hides projects already brought in', async () => {
    const u = await createUser();
    await connect(u);
    const hubs = await api().get('/api/autodesk/hubs').set(u.auth);
    expect(hubs.body.status).toBe('success');
    const acme = hubs.body.data.find((h: { name: string }) => h.name === 'Acme Construction');
    const all = await api().get(`/api/autodesk/hubs/${encodeURIComponent(acme.id)}/projects?exclude_existing=false`).set(u.auth);
    expect(all.body.data.map((p: { name: string }) => p.name)).toEqual(['Tower A', 'Tower B', 'Tower C']);
    // The stand-in pages by two: the third project came from links.next.
    expect(standIn.events.some((e) => e.path.endsWith('/projects') && e.status === 200)).toBe(true);
    const towerB = all.body.data[1];
    const project = await api().post('/api/projects').set(u.auth).send({ name: 'Tower B on site' });
    await db()('adsk_project_links').insert({ id_project: project.body.data.id, id_user: u.user.id, hub_id: acme.id, adsk_project_id: towerB.id });
    const fresh = await api().get(`/api/autodesk/hubs/${encodeURIComponent(acme.id)}/projects`).set(u.auth);
    expect(fresh.body.data.map((p: { name: string }) => p.name)).toEqual(['Tower A', 'Tower C']);

    const folders = await api().get(`/api/autodesk/hubs/${encodeURIComponent(acme.id)}/projects/${encodeURIComponent(towerB.id)}/folders`).set(u.auth);
    expect(folders.body.data).toEqual([expect.objectContaining({ type: 'folders', name: 'Project Files' })]);
    const contents = await api()
      .get(`/api/autodesk/hubs/${encodeURIComponent(acme.id)}/projects/${encodeURIComponent(towerB.id)}/folders/${encodeURIComponent(folders.body.data[0].id)}/contents`)
      .set(u.auth);
    expect(contents.body.data.map((e: { name: string; file_type: string }) => [e.name, e.file_type])).toEqual([
      ['B-1.pdf', 'pdf'],
      ['B-2.pdf', 'pdf'],
      ['B-3.pdf', 'pdf'],
    ]);
    const b3 = contents.body.data[2];
    expect(b3.version_number).toBe(2);
    const versions = await api().get(`/api/autodesk/projects/${encodeURIComponent(towerB.id)}/items/${encodeURIComponent(b3.id)}/versions`).set(u.auth);
    expect(versions.body.data.map((v: { version_number: number }) => v.version_number)).toEqual([2, 1]);

    const towerA = all.body.data[0];
    const sheets = await api().get(`/api/autodesk/projects/${encodeURIComponent(towerA.id)}/sheets`).set(u.auth);
    expect(sheets.body.data.map((s: { number: string }) => s.number)).toEqual(['A-101', 'A-102', 'A-103']);
  });

  it('reads a model manifest: its 2D views are the sheets', async () => {
    const u = await createUser();
    await connect(u);
    const acme = (await api().get('/api/autodesk/hubs').set(u.auth)).body.data[0];
    const towerA = (await api().get(`/api/autodesk/hubs/${encodeURIComponent(acme.id)}/projects`).set(u.auth)).body.data[0];
    const top = (await api().get(`/api/autodesk/hubs/${encodeURIComponent(acme.id)}/projects/${encodeURIComponent(towerA.id)}/folders`).set(u.auth)).body.data[0];
    const files = (await api().get(`/api/autodesk/hubs/${encodeURIComponent(acme.id)}/projects/${encodeURIComponent(towerA.id)}/folders/${encodeURIComponent(top.id)}/contents`).set(u.auth)).body.data;
    const models = files.find((f: { name: string }) => f.name === 'Models');
    const inModels = (await api().get(`/api/autodesk/hubs/${encodeURIComponent(acme.id)}/projects/${encodeURIComponent(towerA.id)}/folders/${encodeURIComponent(models.id)}/contents`).set(u.auth)).body.data;
    const res = await api().get('/api/autodesk/models/manifest').query({ urn: inModels[0].version_id }).set(u.auth);
    expect(res.body.status).toBe('success');
    expect(res.body.data.views_2d.map((v: { name: string }) => v.name)).toEqual(['A-201 Level 1', 'A-202 Level 2']);
    expect((await api().get('/api/autodesk/models/manifest').set(u.auth)).status).toBe(400);
    expect((await api().get('/api/autodesk/models/manifest').query({ urn: 'no/slashes' }).set(u.auth)).status).toBe(400);
  });

  it('refuses malformed ids with 400 and unknown ones with 404', async () => {
    const u = await createUser();
    await connect(u);
    expect((await api().get('/api/autodesk/hubs/b.nope/projects').set(u.auth)).status).toBe(404);
    expect((await api().get('/api/autodesk/hubs/b.x/projects?exclude_existing=maybe').set(u.auth)).status).toBe(400);
    expect((await api().get(`/api/autodesk/hubs/${encodeURIComponent('<script>')}/projects`).set(u.auth)).status).toBe(400);
  });

  it('survives a storm of 429s by waiting as Retry-After asks', async () => {
    const u = await createUser();
    await connect(u);
    const before = standIn.events.filter((e) => e.status === 429).length;
    standIn.throttle(3, 1);
    const res = await api().get('/api/autodesk/hubs').set(u.auth);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBe(2);
    expect(standIn.events.filter((e) => e.status === 429).length).toBe(before + 3);
  });
});

describe('secrecy', () => {
  it('no Autodesk token appears in any answer, header or log line', async () => {
    const u = await createUser();
    const { value: answers, lines } = await captureLogs(async () => {
      const out: string[] = [];
      const record = (r: { headers: unknown; body: unknown; text?: string }) => out.push(JSON.stringify(r.headers) + JSON.stringify(r.body) + (r.text ?? ''));
      const { res } = await connect(u);
      record(res);
      record(await api().get('/api/autodesk/check-auth').set(u.auth));
      record(await api().post('/api/autodesk/refresh').set(u.auth));
      standIn.expireAccessTokens();
      record(await api().get('/api/autodesk/hubs').set(u.auth));
      record(await api().get('/api/users/profile').set(u.auth));
      record(await api().post('/api/autodesk/logout').set(u.auth));
      return out;
    });
    expect(lines.length).toBeGreaterThan(0);
    expectNoTokenIn(standIn, answers.join('\n'));
    expectNoTokenIn(standIn, lines.join('\n'));
  });
});
