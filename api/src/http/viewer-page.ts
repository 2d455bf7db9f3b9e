import fs from 'node:fs';
import path from 'node:path';
import { logger } from '@sitewalk/core/logger.js';
import { viewerInMaintenance, viewerStartPanorama } from '@sitewalk/core/services/viewer.service.js';

/**
 * The public viewer's page (/viewer/{code}/{room?}/{poi?}) is index.html with
 * one more tag: `<meta name="sw-viewer-start">` naming the start room's
 * low-resolution sphere. The page's inline preload script
 * (client/src/pages/viewer/viewer-preload.ts) fetches it at once, in
 * parallel with GET /viewer-visit, instead of after its answer: the sphere
 * is on screen one round trip sooner (bench/viewer-perf.ts). Only what GET
 * /viewer-visit would give anyone holding the code; nothing during viewer
 * maintenance; any failure serves the plain page (the viewer asks itself).
 */

/** The address parts of a viewer path, as the client reads them (viewer-preload.ts, parseViewerPath). */
export function viewerAddress(pathname: string): { code: string; room: number | null; poi: number | null } | null {
  const m = /^\/viewer\/([^/]+)(?:\/([^/]*))?(?:\/([^/]*))?\/?$/.exec(pathname);
  if (!m) return null;
  const id = (s: string | undefined) => (s && /^[1-9]\d{0,9}$/.test(s) ? Number(s) : null);
  try {
    return { code: decodeURIComponent(m[1]!), room: id(m[2]), poi: id(m[3]) };
  } catch {
    return null;
  }
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

const APP_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
/** The early viewer's files, listed by the build (client/viewer-preload-plugin.ts). */
const BOOT_META = /<meta name="sw-viewer-boot" content="([^"]*)"/;

/**
 * index.html as the viewer's page: the start tag right after the charset
 * (before the preload script, which reads it); the early viewer's scripts
 * (Photo Sphere Viewer, three.js) asked for by the HTML itself, first and at
 * high priority, so the browser's preload scanner fetches them before the
 * inline preload script even runs (the sphere waits for them, and the browser
 * opens six connections at most); and the app's own script fetched at low
 * priority (a modulepreload) but run by the preload script once the sphere is
 * drawn (`sw-app-entry`): evaluating the app's modules on the one JavaScript
 * thread would otherwise come between Photo Sphere Viewer and its first frame.
 */
export function withViewerStart(html: string, baseUrl: string): string {
  const entry = APP_SCRIPT.exec(html)?.[1];
  const tags = [`<meta name="sw-viewer-start" content="${escapeAttr(baseUrl)}" />`];
  const bootScripts = (BOOT_META.exec(html)?.[1] ?? '').split(' ').filter((f) => f.endsWith('.js'));
  for (const file of bootScripts) tags.push(`<link rel="modulepreload" crossorigin href="${escapeAttr(file)}" fetchpriority="high" />`);
  if (entry) {
    tags.push(`<meta name="sw-app-entry" content="${escapeAttr(entry)}" />`);
    html = html.replace(APP_SCRIPT, () => `<link rel="modulepreload" crossorigin href="${escapeAttr(entry)}" fetchpriority="low" />`);
  }
  return html.replace(/<meta charset="[^"]*"\s*\/?>/i, (m) => [m, ...tags].join('\n    '));
}

let cached: { file: string; mtimeMs: number; html: string } | null = null;

function readIndex(file: string): string {
  const { mtimeMs } = fs.statSync(file);
  if (!cached || cached.file !== file || cached.mtimeMs !== mtimeMs) cached = { file, mtimeMs, html: fs.readFileSync(file, 'utf8') };
  return cached.html;
}

/** The viewer page for this path and address, or null to serve index.html as it is. */
export async function viewerPage(dist: string, pathname: string, ip: string): Promise<string | null> {
  const address = viewerAddress(pathname);
  if (!address) return null;
  try {
    if (await viewerInMaintenance(ip)) return null;
    const start = await viewerStartPanorama(address.code, address.room, address.poi);
    if (!start) return null;
    return withViewerStart(readIndex(path.join(dist, 'index.html')), start.base_url);
  } catch (err) {
    // An unknown code is the viewer's to say (404 from GET /viewer-visit); anything else is worth a line.
    if ((err as { status?: number }).status !== 404) logger.warn({ err, path: pathname }, 'viewer page served without its start sphere');
    return null;
  }
}
