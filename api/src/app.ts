import fs from 'node:fs';
import path from 'node:path';
import Koa from 'koa';
import { koaBody, HttpMethodEnum } from 'koa-body';
import cors from '@koa/cors';
import compress from 'koa-compress';
import zlib from 'node:zlib';
import serve from 'koa-static';
import send from 'koa-send';
import { UPLOAD_LIMITS } from '@sitewalk/proto';
import { config } from '@sitewalk/core/config.js';
import { errorMiddleware } from './http/error-middleware.js';
import { noStoreForApi } from './http/no-store.js';
import { csrfProtection, requestContext, requestTimeout, serializeJsonOnce } from './http/middleware.js';
import { securityHeaders } from './http/security-headers.js';
import { clientInlineScriptHashes } from './http/inline-scripts.js';
import { viewerPage } from './http/viewer-page.js';
import { isUploadRequest } from './http/upload.js';
import { indexRoutesByFirstSegment } from './http/route-index.js';
import { rejectUnreadableText } from './http/validate.js';
import { PAYPAL_WEBHOOK_PATH } from './routes/billing.routes.js';
import { apiRouter } from './routes/index.js';
import { carriesApiKey } from './http/api-key-auth.js';
import { maintenanceGuard, maintenancePage, MAINTENANCE_RETRY_AFTER } from './http/maintenance.js';
import { db } from '@sitewalk/core/db';
import { logger } from '@sitewalk/core/logger.js';

/** Builds the Koa application: API under /api, the built client everywhere else. */
export function createApp(opts: { serveClient?: boolean } = {}): Koa {
  db(); // binds Objection models to the shared knex instance
  const app = new Koa();
  app.proxy = config.trustProxy;
  app.on('error', (err: NodeJS.ErrnoException, ctx?: Koa.Context) => {
    // The browser went away mid-answer (Leaflet cancels tiles while panning): nothing to report.
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET' || err.code === 'EPIPE') return;
    // A resumable upload whose connection dropped mid-request: the client resumes it.
    if (err.code === 'HPE_INVALID_EOF_STATE') return;
    logger.error({ err, path: ctx?.path }, 'server error');
  });

  app.use(requestContext);
  app.use(errorMiddleware);
  app.use(noStoreForApi);
  // Text (JSON, scripts, stylesheets, fonts) shrinks several-fold; images and tiles are already compressed.
  const compression = compress({ threshold: 1024, br: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }, deflate: false });
  // A client that accepts no encoding gets none: skip koa-compress's per-answer checks (it would only add Vary).
  app.use((ctx, next) => (ctx.get('accept-encoding') ? compression(ctx, next) : (ctx.vary('Accept-Encoding'), next())));
  app.use(serializeJsonOnce);
  app.use(
    securityHeaders({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: {
          // The client's own inline script (the public viewer's preload), by its hash; no other inline script.
          'script-src': ["'self'", ...(opts.serveClient !== false ? clientInlineScriptHashes(config.clientDist) : [])],
          'img-src': ["'self'", 'data:', 'blob:', 'https:'],
          'connect-src': ["'self'", 'ws:', 'wss:'],
          'style-src': ["'self'", "'unsafe-inline'", 'https:'],
          'font-src': ["'self'", 'data:', 'https:'],
          'upgrade-insecure-requests': null,
        },
      },
      crossOriginEmbedderPolicy: false,
    }),
  );
  if (config.corsOrigins.length) {
    const allowed = new Set(config.corsOrigins);
    app.use(cors({ origin: (ctx) => (allowed.has(ctx.get('origin')) ? ctx.get('origin') : ''), credentials: true }));
  }
  app.use(requestTimeout(config.requestTimeoutMs, isUploadRequest));
  // The queue monitor (routes/admin-queues.routes.ts) is its own page with a SameSite=Strict cookie of its own path: no cross-site request carries it.
  // Requests with an API key come from programs, which another site cannot make a browser send (api-key-auth.ts).
  app.use((ctx, next) => (ctx.path.startsWith('/api') && !ctx.path.startsWith('/api/admin/queues') && !carriesApiKey(ctx) ? csrfProtection(ctx, next) : next()));
  const parsedMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
  const bodyParser = koaBody({
    multipart: false,
    jsonLimit: UPLOAD_LIMITS.jsonBytes,
    formLimit: UPLOAD_LIMITS.jsonBytes,
    textLimit: UPLOAD_LIMITS.jsonBytes,
    parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
    onError: (err: Error) => {
      throw Object.assign(new Error(err.message), { status: /too large/i.test(err.message) ? 413 : 400 });
    },
  }) as unknown as Koa.Middleware;
  // koa-body would work out the body's type on every GET only to parse nothing.
  // PayPal's webhook is verified on its raw body, so it is read unparsed (routes/billing.routes.ts).
  app.use((ctx, next) => (parsedMethods.has(ctx.method) && ctx.path !== PAYPAL_WEBHOOK_PATH ? bodyParser(ctx, next) : next()));
  app.use(rejectUnreadableText);
  app.use(maintenanceGuard);
  const router = indexRoutesByFirstSegment(apiRouter());
  app.use(router.routes());
  app.use(router.allowedMethods());

  if (opts.serveClient !== false) serveClient(app);
  return app;
}

/** Serves client/dist with a single-page fallback to index.html. */
function serveClient(app: Koa): void {
  const dist = config.clientDist;
  app.use(serve(dist, { index: false, maxage: 0, setHeaders: (res, p) => {
    if (p.includes(`${path.sep}assets${path.sep}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    // The build writes .br and .gz copies of scripts and stylesheets (client/precompress-plugin.ts), served by what the browser accepts.
    if (/\.(br|gz)$/.test(p)) res.setHeader('Vary', 'Accept-Encoding');
  } }));
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.path.startsWith('/api') || ctx.path.startsWith('/socket.io')) return next();
    if (!fs.existsSync(path.join(dist, 'index.html'))) {
      ctx.status = 503;
      ctx.type = 'text/plain';
      ctx.body = 'The SiteWalk client is not built yet. Run "make start" (it builds it) or "npm run build -w client".';
      return;
    }
    ctx.set('Cache-Control', 'no-cache');
    const viewer = await viewerPage(dist, ctx.path, ctx.ip);
    if (viewer !== null) {
      ctx.type = 'html';
      ctx.body = viewer;
      return;
    }
    const closed = await maintenancePage(ctx);
    if (closed !== null) {
      ctx.status = 503;
      ctx.set('Retry-After', String(MAINTENANCE_RETRY_AFTER));
      ctx.type = 'html';
      ctx.body = closed;
      return;
    }
    await send(ctx, 'index.html', { root: dist });
  });
}
