import type { Context, Next } from 'koa';
import { addressInList } from '@sitewalk/core/address-list.js';
import { SETTINGS_DEFAULTS } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { settingRowsOf } from '@sitewalk/core/repositories/settings.repository.js';
import { liveSessionUserRole } from '@sitewalk/core/repositories/sessions.repository.js';
import { siteName } from '@sitewalk/core/services/notice-text.js';
import { resolveToken } from '@sitewalk/core/services/session.service.js';
import { isSuperAdmin } from '@sitewalk/core/services/access.service.js';
import { hmac, safeEqual } from '@sitewalk/core/secrets.js';
import { bearerToken } from './auth.js';
import { envelope } from './envelope.js';

/** The sentence of maintenance, with the site called by its name (setting `name`). */
export const maintenanceMessage = (site: string) => `${site} is down for maintenance. Please try again in a few minutes.`;
/** Seconds a client is told to wait before trying again. */
export const MAINTENANCE_RETRY_AFTER = 300;

/**
 * What stays open during maintenance_backend: what the sign-in page needs
 * (so an administrator can sign in), health checks, the public viewer
 * (it has maintenance_viewer of its own), signed file links, and the queue
 * monitor (which lets in super admins only).
 */
const OPEN_API = [/^\/api\/health$/, /^\/api\/settings$/, /^\/api\/translations\//, /^\/api\/login$/, /^\/api\/logout$/, /^\/api\/auth\/refresh$/, /^\/api\/sanctum\/csrf-cookie$/, /^\/api\/auth\/social\//, /^\/api\/viewer-/, /^\/api\/files\//, /^\/api\/admin\/queues/];

interface MaintenanceState {
  on: boolean;
  allowed: string;
}
/** Read at most once a second per process: the check runs on every API request, and switching takes effect within that second. */
const STATE_TTL_MS = 1000;
let state: { value: MaintenanceState; at: number; pending: Promise<MaintenanceState> | null } | null = null;

async function readState(): Promise<MaintenanceState> {
  const rows = await settingRowsOf(db(), ['maintenance_backend', 'maintenance_ip']);
  const v = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  return { on: (v.maintenance_backend ?? SETTINGS_DEFAULTS.maintenance_backend) === true, allowed: String(v.maintenance_ip ?? SETTINGS_DEFAULTS.maintenance_ip) };
}

/** maintenance_backend and maintenance_ip, from a cache of one second. */
export async function maintenanceState(now = Date.now()): Promise<MaintenanceState> {
  if (state && now - state.at < STATE_TTL_MS) return state.value;
  if (state?.pending) return state.pending;
  const pending = readState();
  state = { value: state?.value ?? { on: false, allowed: '' }, at: state?.at ?? 0, pending };
  try {
    const value = await pending;
    state = { value, at: Date.now(), pending: null };
    return value;
  } catch (err) {
    state = { ...state, pending: null };
    throw err;
  }
}

/** Forgets the cached state (tests switch maintenance on and off). */
export function forgetMaintenanceState(): void {
  state = null;
}

/**
 * Page loads carry no bearer token (it lives in the browser's storage): a
 * super admin's API calls leave this cookie, naming the session and signed,
 * so that browser also gets the app's pages when it reloads during
 * maintenance. It is worth nothing once the session ends or the user is no
 * longer a super admin.
 */
const ADMIN_PASS_COOKIE = 'sw_maintenance_pass';
const ADMIN_PASS_MAX_AGE_MS = 12 * 3600_000;
const adminPass = (sessionId: number) => `${sessionId}.${hmac(`maintenance-pass:${sessionId}`)}`;

/**
 * Whether the request comes from a signed-in super admin; if so, their
 * browser gets the cookie above. Set whether or not maintenance is on, so an
 * administrator who switches it on keeps the app on the next reload. The
 * session cache answers the route's own lookup of the same token.
 */
async function superAdminRequest(ctx: Context): Promise<boolean> {
  const token = bearerToken(ctx);
  // Open calls (health, sign-in) must not fail here when the database does; the route says it if it matters.
  const found = token ? await resolveToken(token).catch(() => null) : null;
  if (!found || !isSuperAdmin(found.user)) return false;
  const pass = adminPass(found.session.id);
  if (ctx.cookies.get(ADMIN_PASS_COOKIE) !== pass) {
    ctx.cookies.set(ADMIN_PASS_COOKIE, pass, { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: '/', maxAge: ADMIN_PASS_MAX_AGE_MS, overwrite: true });
  }
  return true;
}

/** Whether a page load comes from the browser of a signed-in super admin (the cookie above, its session live). */
async function superAdminBrowser(ctx: Context): Promise<boolean> {
  const raw = ctx.cookies.get(ADMIN_PASS_COOKIE);
  const id = raw?.split('.')[0] ?? '';
  if (!raw || !/^\d{1,9}$/.test(id) || !safeEqual(raw, adminPass(Number(id)))) return false;
  const row = await liveSessionUserRole(db(), Number(id), new Date());
  return !!row && isSuperAdmin(row);
}

/**
 * maintenance_backend: every API call but the open ones answers 503 with
 * Retry-After and a sentence (data.maintenance for the client), except to
 * the maintenance_ip addresses (exact or CIDR; behind a proxy the client's
 * address comes from X-Forwarded-For only with TRUST_PROXY) and to signed-in
 * super admins. Pages are handled by `maintenancePage`.
 */
export async function maintenanceGuard(ctx: Context, next: Next): Promise<void> {
  if (!ctx.path.startsWith('/api')) return next();
  const superAdmin = await superAdminRequest(ctx);
  if (OPEN_API.some((re) => re.test(ctx.path))) return next();
  const m = await maintenanceState();
  if (!m.on || superAdmin || addressInList(ctx.ip, m.allowed)) return next();
  ctx.status = 503;
  ctx.set('Retry-After', String(MAINTENANCE_RETRY_AFTER));
  ctx.body = envelope('error', maintenanceMessage(await siteName()), { maintenance: true, retry_after: MAINTENANCE_RETRY_AFTER });
}

const escapeHtml = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The page a browser gets instead of the app during maintenance (null when
 * it may have the app): the sign-in page stays, so an administrator can
 * come in, and a signed-in super admin's browser keeps the app; no script,
 * both languages, light and dark.
 */
export async function maintenancePage(ctx: Context): Promise<string | null> {
  const m = await maintenanceState();
  if (!m.on || ctx.path === '/login' || addressInList(ctx.ip, m.allowed) || (await superAdminBrowser(ctx))) return null;
  const site = await siteName();
  const name = escapeHtml(site);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${MAINTENANCE_RETRY_AFTER}"><title>${name}: maintenance</title>
<style>:root{color-scheme:light dark}body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;background:Canvas;color:CanvasText}main{max-width:32rem;padding:2rem;text-align:center;line-height:1.5}a{color:LinkText}</style>
</head><body><main data-testid="maintenance-page">
<h1>${name}</h1>
<p>${escapeHtml(maintenanceMessage(site))}</p>
<p lang="ar" dir="rtl">${name} متوقف مؤقتًا للصيانة. يُرجى المحاولة مجددًا بعد بضع دقائق.</p>
<p><a href="/login">Administrator sign-in</a> · <a href="/login" lang="ar">دخول المسؤول</a></p>
</main></body></html>`;
}
