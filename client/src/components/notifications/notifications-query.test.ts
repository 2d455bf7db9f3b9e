import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { finished } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { Notification, NotificationListResponse } from '@sitewalk/proto';
import { http as apiHttp } from '../../lib/api-client';
import { refreshReads } from '../../realtime/query-invalidation';
import { NOTIFICATION_READS, notificationActions, notificationListQuery } from './use-notifications-query';

/**
 * A real HTTP server stands in for the API: it holds the user's
 * notifications, and can hold a list's answer back (a slow machine) while
 * the test changes what the server holds, as a live event would report.
 */
let held: Notification[] = [];
let holdNextList: ((release: () => Promise<void>) => void) | null = null;
let server: http.Server;
let baseBefore: string | undefined;

const notice = (id: number, is_read = false): Notification => ({ id, title: `N${id}`, message: '', type: 'info', is_read, created_at: `2026-11-29T07:0${id}:00Z` });
const listAnswer = (): NotificationListResponse => ({ items: held.map((n) => ({ ...n })), total: held.length, page: 1, per_page: 20, unread: held.filter((n) => !n.is_read).length });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (data: unknown) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ status: 'success', message: 'OK', data }));
    };
    if (req.method === 'GET' && path === '/api/notifications') {
      // The answer is what the server held when the request arrived, however late it leaves.
      const answer = listAnswer();
      const hold = holdNextList;
      holdNextList = null;
      // A held answer is released by the test, which learns when it has left (or its request was abandoned).
      if (hold) hold(() => new Promise<void>((resolve) => {
        send(answer);
        finished(res, () => resolve());
      }));
      else send(answer);
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (path === '/api/notifications/mark-read') {
        const { notification_id } = JSON.parse(body) as { notification_id: number };
        held = held.map((n) => (n.id === notification_id ? { ...n, is_read: true } : n));
      }
      send({ unread: held.filter((n) => !n.is_read).length });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseBefore = apiHttp.defaults.baseURL;
  apiHttp.defaults.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(async () => {
  apiHttp.defaults.baseURL = baseBefore;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  held = [];
  holdNextList = null;
});

/** Every unread count the bell would show, in order, for the first page. */
function watchBell(queryClient: QueryClient) {
  const shown: number[] = [];
  const observer = new QueryObserver(queryClient, notificationListQuery(1));
  const stop = observer.subscribe((r) => {
    if (r.data && shown.at(-1) !== r.data.unread) shown.push(r.data.unread);
  });
  // Waits for the reads under way to end; the bound only guards against a hang (a busy machine can take seconds).
  const settled = async () => {
    for (let i = 0; i < 6000 && (observer.getCurrentResult().isFetching || !observer.getCurrentResult().data); i++) await new Promise((r) => setTimeout(r, 10));
    return observer.getCurrentResult().data!;
  };
  return { shown, stop, settled };
}

describe('the notification bell', () => {
  it('shows the server\u2019s count when a list that left before a new notification arrives after it (never one too many, never one too few)', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    held = [notice(1, true)];
    let releaseStale: () => Promise<void> = async () => undefined;
    const staleAsked = new Promise<void>((resolve) => {
      holdNextList = (release) => {
        releaseStale = release;
        resolve();
      };
    });
    const bell = watchBell(queryClient);
    // The list asked at sign-in has reached the server; meanwhile a notification is made and announced live.
    await staleAsked;
    held = [notice(2), ...held];
    await refreshReads(queryClient, NOTIFICATION_READS);
    // The stale answer (no unread notification) comes last.
    await releaseStale();
    await new Promise((r) => setTimeout(r, 50));
    const list = await bell.settled();
    expect(list.unread).toBe(1);
    expect(list.items.map((n) => n.id)).toEqual([2, 1]);
    expect(bell.shown).toEqual([1]);
    bell.stop();
  });

  it('marks a notification read at once, then shows what the server holds', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    held = [notice(2), notice(1)];
    const bell = watchBell(queryClient);
    expect((await bell.settled()).unread).toBe(2);
    const marking = notificationActions(queryClient).markRead(held[0]);
    // Before the server has answered, the item reads as read and the count is one less.
    await new Promise((r) => setTimeout(r, 0));
    const shownAtOnce = queryClient.getQueryData<NotificationListResponse>(notificationListQuery(1).queryKey)!;
    expect(shownAtOnce.unread).toBe(1);
    expect(shownAtOnce.items.find((n) => n.id === 2)?.is_read).toBe(true);
    await marking;
    const list = await bell.settled();
    expect(list.unread).toBe(1);
    expect(held.find((n) => n.id === 2)?.is_read).toBe(true);
    expect(bell.shown).toEqual([2, 1]);
    bell.stop();
  });
});
