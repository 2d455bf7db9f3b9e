import type { Context, Next } from 'koa';

/**
 * API answers carry private data (a user's projects, notifications, the
 * people of a company): no browser cache or proxy may keep them. A route that
 * knows its answer may be cached says so itself (signed files, translations,
 * public settings) and keeps its own Cache-Control; the client's built
 * assets, outside /api, keep theirs.
 */
export async function noStoreForApi(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } finally {
    // Set after the route (and on errors too): only when the route chose nothing.
    if (ctx.path.startsWith('/api') && !ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
  }
}
