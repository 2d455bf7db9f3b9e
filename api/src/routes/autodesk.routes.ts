import type { Context, Next } from 'koa';
import {
  ADSK_CALLBACK_PARAM,
  ADSK_COOKIE,
  adskIdSchema,
  adskManifestQuerySchema,
  adskProjectsQuerySchema,
  adskSyncHubSchema,
  adskSyncProjectSchema,
  type AdskAuthUrlResponse,
  type AdskCheckAuthResponse,
  type AdskFolderEntry,
  type AdskHub,
  type AdskManifest,
  type AdskProject,
  type AdskRefreshResponse,
  type AdskSheet,
  type AdskSyncRun,
  type AdskVersion,
} from '@sitewalk/proto';
import { z } from 'zod';
import { currentUser, requireAuth } from '../http/auth.js';
import { ok } from '../http/envelope.js';
import { body, idParam, parseWith, query } from '../http/validate.js';
import { disconnect, finishConnect, isLinked, refreshForBrowser, requireIntegration, startConnect } from '@sitewalk/core/adsk/link.service.js';
import { getManifest, listFolderContents, listHubs, listItemVersions, listProjects, listSheets, listTopFolders } from '@sitewalk/core/adsk/browse.service.js';
import { getSyncRun, recentSyncRuns, startSync } from '@sitewalk/core/adsk/sync.service.js';
import type { RouteModule } from './types.js';

/** Refuses clearly when an administrator has not switched the integration on (or not set it up). */
async function integrationOn(_ctx: Context, next: Next) {
  await requireIntegration();
  await next();
}

/** An Autodesk id from the path; a malformed one is a 400 naming the parameter. */
const adskParam = (ctx: Context, name: string): string => parseWith(adskIdSchema, (ctx.params as Record<string, string>)[name], 'path parameter');

/** Lifetime of the browser's link cookie: Autodesk's refresh tokens last 15 days. */
const COOKIE_MAX_AGE_MS = 14 * 24 * 3600_000;

function setLinkCookie(ctx: Context, handle: string | null) {
  // Readable by the page (SPEC §4: the client checks whether it exists); it is an opaque handle, never Autodesk's token.
  ctx.cookies.set(ADSK_COOKIE, handle, { httpOnly: false, sameSite: 'lax', secure: ctx.secure, path: '/', overwrite: true, ...(handle ? { maxAge: COOKIE_MAX_AGE_MS } : { expires: new Date(0) }) });
}

const callbackQuerySchema = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
}).passthrough();

/** The design-file cloud, `{design_cloud}` = autodesk (SPEC §7; contract in proto/src/autodesk.ts). */
const autodeskRoutes: RouteModule = (r) => {
  r.get('/autodesk/auth-url', requireAuth, async (ctx) => {
    ok<AdskAuthUrlResponse>(ctx, { authUrl: await startConnect(currentUser(ctx).id) });
  });

  // Autodesk sends the browser here; no session header comes with it: the one-time state names the user.
  r.get('/autodesk/callback', async (ctx) => {
    const q = parseWith(callbackQuerySchema, ctx.query, 'query parameter');
    const outcome = await finishConnect(q);
    if (outcome.handle) setLinkCookie(ctx, outcome.handle);
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`/profile?${ADSK_CALLBACK_PARAM}=${encodeURIComponent(JSON.stringify(outcome.result))}`);
  });

  r.get('/autodesk/check-auth', requireAuth, async (ctx) => {
    ok<AdskCheckAuthResponse>(ctx, { authenticated: await isLinked(currentUser(ctx).id) });
  });

  r.post('/autodesk/refresh', requireAuth, integrationOn, async (ctx) => {
    try {
      const { handle, expiresAt } = await refreshForBrowser(currentUser(ctx).id);
      setLinkCookie(ctx, handle);
      ok<AdskRefreshResponse>(ctx, { access_token: handle, expiresAt }, 'The Autodesk link is renewed.');
    } catch (err) {
      setLinkCookie(ctx, null);
      throw err;
    }
  });

  // Works with the integration off too: anyone may always cut their link.
  r.post('/autodesk/logout', requireAuth, async (ctx) => {
    await disconnect(currentUser(ctx).id);
    setLinkCookie(ctx, null);
    ok(ctx, null, 'Successfully disconnected from Autodesk');
  });

  r.get('/autodesk/hubs', requireAuth, integrationOn, async (ctx) => {
    ok<AdskHub[]>(ctx, await listHubs(currentUser(ctx).id));
  });
  r.get('/autodesk/hubs/:hubId/projects', requireAuth, integrationOn, async (ctx) => {
    const { exclude_existing } = query(ctx, adskProjectsQuerySchema);
    ok<AdskProject[]>(ctx, await listProjects(currentUser(ctx).id, adskParam(ctx, 'hubId'), exclude_existing));
  });
  r.get('/autodesk/hubs/:hub/projects/:project/folders', requireAuth, integrationOn, async (ctx) => {
    ok<AdskFolderEntry[]>(ctx, await listTopFolders(currentUser(ctx).id, adskParam(ctx, 'hub'), adskParam(ctx, 'project')));
  });
  r.get('/autodesk/hubs/:hub/projects/:project/folders/:folder/contents', requireAuth, integrationOn, async (ctx) => {
    adskParam(ctx, 'hub');
    const { entries } = await listFolderContents(currentUser(ctx).id, adskParam(ctx, 'project'), adskParam(ctx, 'folder'));
    ok<AdskFolderEntry[]>(ctx, entries);
  });
  r.get('/autodesk/projects/:id/sheets', requireAuth, integrationOn, async (ctx) => {
    ok<AdskSheet[]>(ctx, await listSheets(currentUser(ctx).id, adskParam(ctx, 'id')));
  });
  r.get('/autodesk/projects/:project/items/:item/versions', requireAuth, integrationOn, async (ctx) => {
    ok<AdskVersion[]>(ctx, await listItemVersions(currentUser(ctx).id, adskParam(ctx, 'project'), adskParam(ctx, 'item')));
  });
  r.get('/autodesk/models/manifest', requireAuth, integrationOn, async (ctx) => {
    const { urn } = query(ctx, adskManifestQuerySchema);
    ok<AdskManifest>(ctx, await getManifest(currentUser(ctx).id, urn));
  });

  r.post('/autodesk/sync-hub', requireAuth, integrationOn, async (ctx) => {
    const { hub_id } = body(ctx, adskSyncHubSchema);
    ok<AdskSyncRun>(ctx, await startSync(currentUser(ctx), { kind: 'hub', hub_id }), 'The hub is queued for syncing.', 202);
  });
  r.post('/autodesk/sync-project', requireAuth, integrationOn, async (ctx) => {
    const input = body(ctx, adskSyncProjectSchema);
    ok<AdskSyncRun>(ctx, await startSync(currentUser(ctx), { kind: 'project', ...input }), 'The project is queued for syncing.', 202);
  });
  r.get('/autodesk/sync-runs', requireAuth, async (ctx) => {
    ok<AdskSyncRun[]>(ctx, await recentSyncRuns(currentUser(ctx)));
  });
  r.get('/autodesk/sync-runs/:id', requireAuth, async (ctx) => {
    ok<AdskSyncRun>(ctx, await getSyncRun(currentUser(ctx), idParam(ctx)));
  });
};

export default autodeskRoutes;
