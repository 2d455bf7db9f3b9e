import type { Context, Middleware, Next } from 'koa';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { KoaAdapter } from '@bull-board/koa';
import { QUEUES } from '@sitewalk/proto';
import { User } from '../core/db/index.js';
import { notFound } from '../core/errors.js';
import { queue } from '../core/queue/index.js';
import { hmac, safeEqual } from '../core/secrets.js';
import { isSuperAdmin } from '../core/services/access.service.js';
import { bearerToken, currentUser, requireAuth } from '../http/auth.js';
import { ok } from '../http/envelope.js';
import { resolveToken } from '../core/services/session.service.js';
import type { RouteModule } from './types.js';

/** Where the queue monitor lives (every queue of the registry: mail, notifications, sheets, rooms, video, reconstruction). */
export const BOARD_PATH = '/api/admin/queues';
const BOARD_COOKIE = 'sw_board';
const BOARD_TTL_SEC = 8 * 3600;

/**
 * The board is a page of its own, opened in a browser tab, so it cannot send
 * the bearer token the SPA holds. A super admin first calls
 * POST /admin/queues/session (bearer) and gets a signed, HttpOnly,
 * SameSite=Strict cookie limited to the board's path; the board accepts it
 * (or a bearer token) and checks again each time that the user is still a
 * super admin. Anyone else — signed in or not — gets a 404: the board does not exist for them.
 */
const signBoard = (userId: number, exp: number) => hmac(`board|${userId}|${exp}`);

async function boardUser(ctx: Context): Promise<User | null> {
  const token = bearerToken(ctx);
  if (token) return (await resolveToken(token))?.user ?? null;
  const raw = ctx.cookies.get(BOARD_COOKIE);
  const m = raw ? /^(\d+)\.(\d+)\.([A-Za-z0-9_-]+)$/.exec(raw) : null;
  if (!m || Number(m[2]) * 1000 < Date.now() || !safeEqual(signBoard(Number(m[1]), Number(m[2])), m[3])) return null;
  return (await User.query().findById(Number(m[1]))) ?? null;
}

let board: Middleware | null = null;
/** Built on first use: it opens the queues (Redis) only when an administrator looks. */
function boardMiddleware(): Middleware {
  if (board) return board;
  const adapter = new KoaAdapter();
  adapter.setBasePath(BOARD_PATH);
  createBullBoard({ queues: QUEUES.map((q) => new BullMQAdapter(queue(q))), serverAdapter: adapter, options: { uiConfig: { boardTitle: 'SiteWalk queues' } } });
  board = adapter.registerPlugin({ mount: BOARD_PATH }) as unknown as Middleware;
  return board;
}

async function onlySuperAdmins(ctx: Context, next: Next) {
  const user = await boardUser(ctx);
  if (!user || !user.active || !isSuperAdmin(user)) throw notFound('Not found.');
  await next();
}

const adminQueuesRoutes: RouteModule = (r) => {
  r.post('/admin/queues/session', requireAuth, async (ctx) => {
    const user = currentUser(ctx);
    if (!isSuperAdmin(user)) throw notFound('Not found.');
    const exp = Math.floor(Date.now() / 1000) + BOARD_TTL_SEC;
    ctx.cookies.set(BOARD_COOKIE, `${user.id}.${exp}.${signBoard(user.id, exp)}`, { httpOnly: true, sameSite: 'strict', path: BOARD_PATH, maxAge: BOARD_TTL_SEC * 1000, overwrite: true });
    ok(ctx, { url: `${BOARD_PATH}/` }, 'Open the queue monitor.');
  });
  // The methods the board's page and API use (not r.all: nothing else should reach it).
  const paths = ['/admin/queues', '/admin/queues/{*rest}'];
  const serve: Middleware = (ctx, next) => boardMiddleware()(ctx, next);
  r.get(paths, onlySuperAdmins, serve);
  r.post(paths, onlySuperAdmins, serve);
  r.put(paths, onlySuperAdmins, serve);
  r.patch(paths, onlySuperAdmins, serve);
  r.delete(paths, onlySuperAdmins, serve);
};

export default adminQueuesRoutes;
