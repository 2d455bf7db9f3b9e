import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { symbols } from 'pino';
import { Notification } from '@sitewalk/core/db';
import { logger } from '@sitewalk/core/logger.js';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { api, createUser } from './helpers.js';

/**
 * The per-request path of the API (what every answer pays for): security
 * headers, request id, JSON serialisation, compression and logging. These
 * keep what each answer carries while the work behind it got cheaper.
 */
afterAll(async () => {
  await closeEmitter();
});
afterEach(() => {
  vi.restoreAllMocks();
  logger.level = process.env.LOG_LEVEL ?? 'warn';
});

async function userWithNotifications(n: number) {
  const me = await createUser();
  await Notification.query().insert(
    Array.from({ length: n }, (_, i) => ({ user_id: me.user.id, kind: 'account', title: `Title ${i}`, message: 'Sheets are ready.', type: 'info' })),
  );
  return me;
}

describe('security headers', () => {
  it('are on every API answer, success and error alike, as helmet makes them', async () => {
    const me = await createUser();
    for (const res of [await api().get('/api/notifications').set(me.auth), await api().get('/api/notifications'), await api().get('/api/no-such-thing')]) {
      const csp = res.headers['content-security-policy'];
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("img-src 'self' data: blob: https:");
      expect(csp).toContain("connect-src 'self' ws: wss:");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
    }
  });
});

describe('JSON answers', () => {
  it('are serialised once, with their JSON type and exact length', async () => {
    const me = await userWithNotifications(3);
    const stringify = vi.spyOn(JSON, 'stringify');
    const res = await api().get('/api/notifications').set(me.auth);
    const envelopes = stringify.mock.calls.filter(([v]) => v !== null && typeof v === 'object' && 'status' in v && 'data' in v);
    stringify.mockRestore();
    expect(res.status).toBe(200);
    expect(envelopes).toHaveLength(1);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
    expect(res.body.data.total).toBe(3);
  });

  it('are not compressed when small, and still are when large', async () => {
    const small = await createUser();
    const s = await api().get('/api/notifications').set(small.auth).set('Accept-Encoding', 'gzip, br');
    expect(s.status).toBe(200);
    expect(s.headers['content-encoding']).toBeUndefined();
    const large = await userWithNotifications(20);
    const l = await api().get('/api/notifications').set(large.auth).set('Accept-Encoding', 'gzip');
    expect(l.status).toBe(200);
    expect(l.headers['content-encoding']).toBe('gzip');
    expect(l.body.data.items).toHaveLength(20);
  });
});

describe('request logging', () => {
  const captureLines = () => {
    const stream = (logger as unknown as Record<symbol, { write(s: string): unknown }>)[symbols.streamSym];
    const lines: Record<string, unknown>[] = [];
    vi.spyOn(stream, 'write').mockImplementation((s: string) => {
      lines.push(JSON.parse(s));
      return true;
    });
    return lines;
  };

  it('makes no child logger for an answer that logs nothing', async () => {
    const me = await userWithNotifications(2);
    const child = vi.spyOn(logger, 'child');
    const res = await api().get('/api/notifications').set(me.auth);
    expect(res.status).toBe(200);
    expect(child).not.toHaveBeenCalled();
  });

  it('still gives every line of a request its request id and, once signed in, the user id', async () => {
    const me = await createUser();
    logger.level = 'info';
    const lines = captureLines();
    const res = await api().get('/api/notifications?per_page=1000').set(me.auth).set('X-Request-Id', 'req-log-test-1');
    expect(res.status).toBe(400);
    const refused = lines.find((l) => l.msg === 'request refused');
    const request = lines.find((l) => l.msg === 'request');
    expect(refused).toMatchObject({ req_id: 'req-log-test-1', user_id: me.user.id, status: 400 });
    expect(request).toMatchObject({ req_id: 'req-log-test-1', user_id: me.user.id, method: 'GET', path: '/api/notifications', status: 400 });
    expect(typeof request!.ms).toBe('number');

    lines.length = 0;
    const anonymous = await api().get('/api/notifications').set('X-Request-Id', 'req-log-test-2');
    expect(anonymous.status).toBe(401);
    expect(lines.find((l) => l.msg === 'request')).toMatchObject({ req_id: 'req-log-test-2', status: 401 });
    expect(lines.every((l) => !('user_id' in l))).toBe(true);
  });
});

describe('GET /api/notifications in one statement', () => {
  it('gives the page and both counts, an empty page past the end with the counts, and nothing for a user without notifications', async () => {
    const me = await userWithNotifications(5);
    await Notification.query().patch({ is_read: true }).where({ user_id: me.user.id }).whereIn('title', ['Title 0', 'Title 1']);
    const first = await api().get('/api/notifications?per_page=2').set(me.auth);
    expect(first.body.data).toMatchObject({ total: 5, unread: 3, page: 1, per_page: 2 });
    expect(first.body.data.items).toHaveLength(2);
    const ids = (await api().get('/api/notifications?per_page=100').set(me.auth)).body.data.items.map((n: { id: number }) => n.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const past = await api().get('/api/notifications?page=9&per_page=2').set(me.auth);
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual({ items: [], total: 5, unread: 3, page: 9, per_page: 2 });
    const none = await createUser();
    expect((await api().get('/api/notifications').set(none.auth)).body.data).toEqual({ items: [], total: 0, unread: 0, page: 1, per_page: 20 });
  });
});
