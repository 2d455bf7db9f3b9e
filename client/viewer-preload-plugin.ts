import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformWithEsbuild, type PluginOption } from 'vite';

/**
 * Gives the public viewer (/viewer/…) a head start (see
 * src/pages/viewer/viewer-preload.ts):
 *
 * - the preload script goes inline into index.html's head, right after the
 *   charset, so it runs while the page is being read, before any file could
 *   arrive (as a file of its own it came after the app's script and
 *   stylesheet). The server's Content-Security-Policy allows exactly this
 *   script by its hash (api/src/http/inline-scripts.ts). In the dev server it
 *   is the module itself.
 * - a <meta name="sw-viewer-chunks"> lists the viewer screen's chunks and
 *   stylesheets (screen, Photo Sphere Viewer, three.js and what they import),
 *   which the script asks for at once on /viewer/… only; other screens
 *   never fetch them.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PRELOAD_SOURCE = path.join(HERE, 'src/pages/viewer/viewer-preload.ts');
/** Modules whose chunks the viewer screen needs before it can show the sphere. */
const VIEWER_MODULES = ['src/pages/viewer/viewer-page.tsx', 'src/components/panorama/panorama-viewer.tsx'].map((f) => path.join(HERE, f));

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/** The chunks (and their stylesheets) the given modules load, without the entry the page loads anyway. */
function viewerFiles(bundle: Record<string, { type: string }>): string[] {
  const chunks = Object.values(bundle).filter((c): c is ChunkLike => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const out = new Set<string>();
  const visit = (c: ChunkLike | undefined) => {
    if (!c || c.isEntry || out.has(c.fileName)) return;
    out.add(c.fileName);
    for (const css of c.viteMetadata?.importedCss ?? []) out.add(css);
    for (const dep of c.imports) visit(byName.get(dep));
  };
  for (const id of VIEWER_MODULES) visit(chunks.find((c) => c.facadeModuleId && path.resolve(c.facadeModuleId) === id));
  return [...out];
}

export function viewerPreloadPlugin(): PluginOption {
  let script = '';
  return {
    name: 'sitewalk:viewer-preload',
    async buildStart() {
      // The module with a call to its start, as one self-contained script.
      const source = `${fs.readFileSync(PRELOAD_SOURCE, 'utf8')}\nstartViewerPreload();\n`;
      script = (await transformWithEsbuild(source, PRELOAD_SOURCE, { loader: 'ts', format: 'iife', minify: true, target: 'es2020' })).code.trim();
      if (script.includes('</')) throw new Error('The viewer preload script cannot be inlined: it contains "</".');
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (ctx.server || !ctx.bundle) {
          return [{ tag: 'script', attrs: { type: 'module', src: '/src/pages/viewer/viewer-preload-entry.ts' }, injectTo: 'head-prepend' }];
        }
        const files = viewerFiles(ctx.bundle as unknown as Record<string, { type: string }>);
        // Right after the charset, ahead of the app's script and stylesheet. The list comes first: the script reads it.
        const tags = `\n    <meta name="sw-viewer-chunks" content="${files.map((f) => `/${f}`).join(' ')}" />\n    <script>${script}</script>`;
        return html.replace(/<meta charset="[^"]*"\s*\/?>/i, (m) => m + tags);
      },
    },
  };
}
