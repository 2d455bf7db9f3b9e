import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, ApiError } from './api-client';

/**
 * A real HTTP server standing in for an API whose database is restarting:
 * each path answers 503 (Retry-After: 0, so the test does not wait) a given
 * number of times, then 200. It counts what it received.
 */
const received = new Map<string, number>();
const unavailableTimes = new Map<string, number>();
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const n = (received.get(`${req.method} ${path}`) ?? 0) + 1;
    received.set(`${req.method} ${path}`, n);
    res.setHeader('Content-Type', 'application/json');
    if (n <= (unavailableTimes.get(path) ?? 0)) {
      res.writeHead(503, { 'Retry-After': '0' });
      res.end(JSON.stringify({ status: 'error', message: 'The server is briefly unavailable while it reconnects. Please try again in a few seconds.', data: null }));
      return;
    }
    res.end(JSON.stringify({ status: 'success', message: 'OK', data: { path } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the API client after a 503', () => {
  it('reads again after Retry-After and returns the answer as if nothing happened', async () => {
    unavailableTimes.set('/notifications', 2);
    await expect(api.get(`${base}/notifications`, 'Failed to fetch notifications')).resolves.toEqual({ path: '/notifications' });
    expect(received.get('GET /notifications')).toBe(3);
  });

  it('gives up after 3 retries and shows the server message', async () => {
    unavailableTimes.set('/projects', 100);
    const err = await api.get(`${base}/projects`, 'Failed to fetch projects').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(503);
    expect((err as ApiError).message).toBe('The server is briefly unavailable while it reconnects. Please try again in a few seconds.');
    expect(received.get('GET /projects')).toBe(4);
  });

  it('never sends a write twice', async () => {
    unavailableTimes.set('/visits', 1);
    const err = await api.post(`${base}/visits`, { name: 'x' }, 'Failed to create Visit').catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(503);
    expect(received.get('POST /visits')).toBe(1);
    unavailableTimes.set('/visits/1', 1);
    await api.delete(`${base}/visits/1`, 'Failed to delete Visit').catch(() => undefined);
    expect(received.get('DELETE /visits/1')).toBe(1);
  });
});
