import type { Context, Middleware, Next } from 'koa';
import { HTTP_DEFAULTS, QUEUES } from '@sitewalk/proto';
import { db, type Session, type User } from '@sitewalk/core/db';
import { liveSessionById } from '@sitewalk/core/repositories/sessions.repository.js';
import { userById } from '@sitewalk/core/repositories/users.repository.js';
import { HttpError, notFound } from '@sitewalk/core/errors.js';
import { queue } from '@sitewalk/core/queue';
import { hmac, safeEqual } from '@sitewalk/core/secrets.js';
import { isSuperAdmin } from '@sitewalk/core/services/access.service.js';
import { bearerToken, currentUser, requireAuth, type AuthState } from '../http/auth.js';
import { CSRF_COOKIE, CSRF_HEADER } from '../http/middleware.js';
import { ok } from '../http/envelope.js';
import { resolveToken } from '@sitewalk/core/services/session.service.js';
import type { RouteModule } from './types.js';

/** Where the queue monitor lives (every queue of the registry: mail, notifications, sheets, rooms, video, reconstruction). */
export const BOARD_PATH = '/api/admin/queues';
const BOARD_COOKIE = 'sw_board';
const BOARD_TTL_SEC = 8 * 3600;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The board is a page of its own, opened in a browser tab, so it cannot send
 * the bearer token the SPA holds. A super admin first calls
 * POST /admin/queues/session (bearer) and gets a signed, HttpOnly,
 * SameSite=Strict cookie limited to the board's path. The cookie names the
 * sign-in session it came from and is signed with that session's token
 * hash: signing out (or the session ending any other way) closes the board
 * too. The board checks each time that the user is still a super admin, and
 * its write calls must echo the X-XSRF-TOKEN the session call set (the
 * board's own axios sends it). Anyone else — signed in or not — gets a 404:
 * the board does not exist for them.
 */
const signBoard = (session: Session, exp: number) => hmac(`board|${session.id}|${session.token_hash}|${exp}`);
const boardCsrf = (session: Session) => hmac(`board-csrf|${session.id}|${session.token_hash}`);

interface BoardVisitor {
  user: User;
  /** The session of a cookie visit; null for a bearer call (nothing a browser sends on its own). */
  cookieSession: Session | null;
}

async function boardVisitor(ctx: Context): Promise<BoardVisitor | null> {
  const token = bearerToken(ctx);
  if (token) {
    const found = await resolveToken(token);
    return found ? { user: found.user, cookieSession: null } : null;
  }
  const raw = ctx.cookies.get(BOARD_COOKIE);
  const m = raw ? /^(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{1,100})$/.exec(raw) : null;
  if (!m || Number(m[2]) * 1000 < Date.now()) return null;
  const session = await liveSessionById(db(), Number(m[1]), new Date());
  if (!session || !safeEqual(signBoard(session, Number(m[2])), m[3])) return null;
  const user = await userById(db(), session.user_id);
  return user ? { user, cookieSession: session } : null;
}

let board: Promise<Middleware> | null = null;
/**
 * Built on first use: it opens the queues (Redis) only when an administrator
 * looks, and bull-board (its UI server and their dependencies, several MB) is
 * loaded only then, not in every idle API process.
 */
function boardMiddleware(): Promise<Middleware> {
  board ??= (async () => {
    const [{ createBullBoard }, { BullMQAdapter }, { KoaAdapter }] = await Promise.all([
      import('@bull-board/api'),
      import('@bull-board/api/bullMQAdapter'),
      import('@bull-board/koa'),
    ]);
    const adapter = new KoaAdapter();
    adapter.setBasePath(BOARD_PATH);
    createBullBoard({ queues: QUEUES.map((q) => new BullMQAdapter(queue(q))), serverAdapter: adapter, options: { uiConfig: { boardTitle: 'SiteWalk queues' } } });
    return adapter.registerPlugin({ mount: BOARD_PATH }) as unknown as Middleware;
  })();
  board.catch(() => (board = null));
  return board;
}

async function onlySuperAdmins(ctx: Context, next: Next) {
  const visitor = await boardVisitor(ctx);
  if (!visitor || !visitor.user.active || !isSuperAdmin(visitor.user)) throw notFound('Not found.');
  if (visitor.cookieSession && !SAFE_METHODS.has(ctx.method)) {
    const header = ctx.get(CSRF_HEADER);
    if (!header || !safeEqual(header, boardCsrf(visitor.cookieSession))) throw new HttpError(419, HTTP_DEFAULTS[419]);
  }
  await next();
}

const adminQueuesRoutes: RouteModule = (r) => {
  r.post('/admin/queues/session', requireAuth, async (ctx) => {
    const user = currentUser(ctx);
    if (!isSuperAdmin(user)) throw notFound('Not found.');
    const { session } = ctx.state.auth as AuthState;
    // Never longer than the sign-in session it belongs to.
    const exp = Math.min(Math.floor(Date.now() / 1000) + BOARD_TTL_SEC, Math.floor(session.expires_at.getTime() / 1000));
    const maxAge = Math.max(0, exp * 1000 - Date.now());
    const common = { sameSite: 'strict' as const, secure: ctx.secure, path: BOARD_PATH, maxAge, overwrite: true };
    ctx.cookies.set(BOARD_COOKIE, `${session.id}.${exp}.${signBoard(session, exp)}`, { ...common, httpOnly: true });
    // Readable by the board's page, whose axios echoes it in X-XSRF-TOKEN.
    ctx.cookies.set(CSRF_COOKIE, boardCsrf(session), { ...common, httpOnly: false });
    ok(ctx, { url: `${BOARD_PATH}/` }, 'Open the queue monitor.');
  });
  // The methods the board's page and API use (not r.all: nothing else should reach it).
  const paths = ['/admin/queues', '/admin/queues/{*rest}'];
  const serve: Middleware = async (ctx, next) => (await boardMiddleware())(ctx, next);
  r.get(paths, onlySuperAdmins, serve);
  r.post(paths, onlySuperAdmins, serve);
  r.put(paths, onlySuperAdmins, serve);
  r.patch(paths, onlySuperAdmins, serve);
  r.delete(paths, onlySuperAdmins, serve);
};

export default adminQueuesRoutes;
