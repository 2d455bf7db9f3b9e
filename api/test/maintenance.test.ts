import http from 'node:http';
import Koa from 'koa';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetMaintenanceState, maintenancePage } from '../src/http/maintenance.js';
import { api, createUser } from './helpers.js';
import { lockSettings, type SettingsLock } from './settings-lock.js';

let settings: SettingsLock;
const OTHER_TESTS = '127.0.0.0/8, ::1, 10.0.0.0/8, 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24';
/** An address outside every allowed one. */
const OUTSIDE = '100.64.7.1';
beforeAll(async () => {
  settings = await lockSettings();
  // The test files running beside this one call from loopback and the documentation ranges: they stay let in.
  await settings.set({ maintenance_backend: true, maintenance_ip: `${OTHER_TESTS}, 100.65.0.7, 100.66.0.0/16` });
  forgetMaintenanceState();
}, 180_000);
afterAll(async () => {
  await settings.set({ maintenance_backend: false, maintenance_ip: '' });
  forgetMaintenanceState();
  await settings.release();
});

describe('maintenance of the app (maintenance_backend)', () => {
  it('answers 503 with Retry-After and a sentence to a signed-in user and to anyone', async () => {
    const user = await createUser();
    for (const res of [await api().get('/api/projects').set(user.auth).set('X-Forwarded-For', OUTSIDE), await api().get('/api/notifications').set('X-Forwarded-For', OUTSIDE)]) {
      expect(res.status).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body).toMatchObject({ status: 'error', message: 'SiteWalk is down for maintenance. Please try again in a few minutes.', data: { maintenance: true } });
    }
  });

  it('lets signed-in super admins, the listed addresses and ranges (through the trusted proxy) and the sign-in page’s calls through', async () => {
    const admin = await createUser({ super_admin: true });
    const user = await createUser();
    expect((await api().get('/api/projects').set(admin.auth).set('X-Forwarded-For', OUTSIDE)).status).toBe(200);
    expect((await api().get('/api/projects').set(user.auth).set('X-Forwarded-For', '100.65.0.7')).status).toBe(200);
    expect((await api().get('/api/projects').set(user.auth).set('X-Forwarded-For', '100.66.3.42')).status).toBe(200);
    expect((await api().get('/api/projects').set(user.auth).set('X-Forwarded-For', '100.67.3.42')).status).toBe(503);
    expect((await api().get('/api/settings').set('X-Forwarded-For', OUTSIDE)).status).toBe(200);
    expect((await api().get('/api/health').set('X-Forwarded-For', OUTSIDE)).status).not.toBe(503);
    expect((await api().post('/api/login').set('X-Forwarded-For', '100.64.7.9').send({ username: admin.user.username, password: admin.password })).status).toBe(200);
  });

  it('gives browsers a maintenance page in both languages, the sign-in page and the allowed addresses the app', async () => {
    const app = new Koa();
    app.proxy = true;
    app.use(async (ctx) => {
      const page = await maintenancePage(ctx);
      ctx.status = page === null ? 200 : 503;
      ctx.body = page ?? 'the app';
    });
    const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
    try {
      const page = await request(server).get('/dashboard').set('X-Forwarded-For', OUTSIDE);
      expect(page.status).toBe(503);
      expect(page.text).toContain('SiteWalk is down for maintenance.');
      expect(page.text).toContain('للصيانة');
      expect(page.text).toContain('href="/login"');
      expect((await request(server).get('/login').set('X-Forwarded-For', OUTSIDE)).text).toBe('the app');
      expect((await request(server).get('/dashboard').set('X-Forwarded-For', '100.65.0.7')).text).toBe('the app');
    } finally {
      server.close();
    }
  });

  it('keeps the app’s pages for a signed-in super admin’s browser (a signed cookie of the session), not for others, and not after sign-out', async () => {
    const admin = await createUser({ super_admin: true });
    const user = await createUser();
    const cookieOf = (res: { headers: Record<string, unknown> }) =>
      ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('sw_maintenance_pass='))?.split(';')[0];
    const pass = cookieOf(await api().get('/api/projects').set(admin.auth).set('X-Forwarded-For', OUTSIDE));
    expect(pass).toBeDefined();
    expect(cookieOf(await api().get('/api/projects').set(user.auth).set('X-Forwarded-For', OUTSIDE))).toBeUndefined();

    const app = new Koa();
    app.proxy = true;
    app.use(async (ctx) => {
      const page = await maintenancePage(ctx);
      ctx.status = page === null ? 200 : 503;
      ctx.body = page ?? 'the app';
    });
    const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
    try {
      const page = (cookie?: string) => {
        const req = request(server).get('/projects').set('X-Forwarded-For', OUTSIDE);
        return cookie ? req.set('Cookie', cookie) : req;
      };
      expect((await page(pass)).text).toBe('the app');
      expect((await page()).status).toBe(503);
      const [id] = pass!.split('=')[1].split('.');
      expect((await page(`sw_maintenance_pass=${id}.forged-signature`)).status).toBe(503);
      expect((await page(`sw_maintenance_pass=${Number(id) + 1}.${pass!.split('.')[1]}`)).status).toBe(503);
      expect((await api().post('/api/logout').set(admin.auth).set('X-Forwarded-For', OUTSIDE)).status).toBe(200);
      expect((await page(pass)).status).toBe(503);
    } finally {
      server.close();
    }
  });
});
