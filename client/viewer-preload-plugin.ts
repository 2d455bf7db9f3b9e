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
 * - a <meta name="sw-viewer-boot"> lists the early viewer's chunk
 *   (src/components/panorama/panorama-boot.ts, emitted as a chunk of its own)
 *   and what it imports (Photo Sphere Viewer, three.js), and a
 *   <meta name="sw-viewer-chunks"> the rest of the viewer screen's chunks and
 *   stylesheets. The script asks for both at once on /viewer/… only (the
 *   first at high priority) and imports the early viewer; other screens never
 *   fetch them. The build fails if the early viewer's chunk would import the
 *   app's entry (it would then wait for the whole app).
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PRELOAD_SOURCE = path.join(HERE, 'src/pages/viewer/viewer-preload.ts');
/** The early viewer (src/components/panorama/panorama-boot.ts): a chunk of its own, imported by the preload script. */
const BOOT_MODULE = path.join(HERE, 'src/components/panorama/panorama-boot.ts');
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
function viewerFiles(bundle: Record<string, { type: string }>, modules: string[]): string[] {
  const chunks = Object.values(bundle).filter((c): c is ChunkLike => c.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const out = new Set<string>();
  const visit = (c: ChunkLike | undefined, root = false) => {
    // The app's entry is loaded by the page anyway; the boot chunk is an entry of its own, listed as a root.
    if (!c || (c.isEntry && !root) || out.has(c.fileName)) return;
    out.add(c.fileName);
    for (const css of c.viteMetadata?.importedCss ?? []) out.add(css);
    for (const dep of c.imports) visit(byName.get(dep));
  };
  for (const id of modules) visit(chunkOf(chunks, id), id === BOOT_MODULE);
  return [...out];
}

function chunkOf(chunks: ChunkLike[], id: string): ChunkLike | undefined {
  return chunks.find((c) => c.facadeModuleId && path.resolve(c.facadeModuleId) === id);
}

export function viewerPreloadPlugin(): PluginOption {
  let script = '';
  let building = false;
  return {
    name: 'sitewalk:viewer-preload',
    configResolved(config) {
      building = config.command === 'build';
    },
    async buildStart() {
      // The early viewer as a chunk of its own (nothing in the app imports it): its own entry, so
      // it shares only Photo Sphere Viewer's chunks with the screens, never the app's entry.
      if (building) this.emitFile({ type: 'chunk', id: BOOT_MODULE, name: 'panorama-boot' });
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
        const bundle = ctx.bundle as unknown as Record<string, { type: string }>;
        // The early viewer's files (its chunk first), then the rest of the screen's.
        const bootFiles = viewerFiles(bundle, [BOOT_MODULE]);
        const files = viewerFiles(bundle, VIEWER_MODULES).filter((f) => !bootFiles.includes(f));
        const boot = chunkOf(Object.values(bundle).filter((c): c is ChunkLike => c.type === 'chunk'), BOOT_MODULE);
        if (!boot || bootFiles[0] !== boot.fileName) throw new Error('The early viewer chunk (panorama-boot) is missing from the build.');
        if (boot.imports.some((f) => (bundle[f] as ChunkLike | undefined)?.isEntry)) throw new Error("The early viewer chunk imports the app's entry: it would wait for the whole app.");
        // Right after the charset, ahead of the app's script and stylesheet. The lists come first: the script reads them.
        const tags = `\n    <meta name="sw-viewer-chunks" content="${files.map((f) => `/${f}`).join(' ')}" />\n    <meta name="sw-viewer-boot" content="${bootFiles.map((f) => `/${f}`).join(' ')}" />\n    <script>${script}</script>`;
        return html.replace(/<meta charset="[^"]*"\s*\/?>/i, (m) => m + tags);
      },
    },
  };
}
