import path from 'node:path';
import { createRequire } from 'node:module';
import send from 'koa-send';
import { notFound } from '@sitewalk/core/errors.js';
import type { RouteModule } from '../routes/types.js';
import { openApiDocument } from './document.js';

/** Swagger UI's files, from the npm package on this machine: the documentation page loads nothing from elsewhere. */
const swaggerUiDir = () => path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/absolute-path.js'));
const DOCS_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', 'favicon-16x16.png']);

// A script file, not inline: the Content-Security-Policy allows scripts from this origin only.
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    // The page never asks a third party to check the document.
    validatorUrl: null,
    persistAuthorization: false,
  });
});
`;

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>SiteWalk API</title>
  <link rel="stylesheet" href="/api/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <main id="swagger-ui"></main>
  <script src="/api/docs/swagger-ui-bundle.js"></script>
  <script src="/api/docs/swagger-ui-standalone-preset.js"></script>
  <script src="/api/docs/init.js"></script>
</body>
</html>
`;

/** The OpenAPI document (GET /api/openapi.json) and its documentation page (GET /api/docs), both public. */
const docsRoutes: RouteModule = (r) => {
  r.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = openApiDocument();
  });
  r.get('/docs', (ctx) => {
    ctx.type = 'html';
    ctx.body = DOCS_PAGE;
  });
  r.get('/docs/{*file}', async (ctx) => {
    const file = String(ctx.params.file ?? '');
    if (file === 'init.js') {
      ctx.type = 'application/javascript';
      ctx.body = INIT_SCRIPT;
      return;
    }
    if (!DOCS_FILES.has(file)) throw notFound('There is no such file of the documentation page.');
    await send(ctx, file, { root: swaggerUiDir() });
  });
};

export default docsRoutes;
