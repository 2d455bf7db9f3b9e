import * as vite from 'vite';
import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';
import { viewerPreloadPlugin } from './viewer-preload-plugin';
import { precompressPlugin } from './precompress-plugin';

/**
 * '@sitewalk/proto' builds its zod schemas at module level; the client uses
 * its constants, messages and types, rarely a schema. Marking every call in
 * the top-level initializers of proto modules as pure lets the bundler drop
 * the schemas the client does not use, and zod with them (about 25 KB gzip
 * off the sign-in screen). A value is only dropped when nothing uses it.
 */
type Node = { type: string; start: number; end: number; [k: string]: unknown };

function callStarts(node: unknown, out: Set<number>): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const n of node) callStarts(n, out);
    return;
  }
  const n = node as Node;
  // Calls inside functions do not run when the module loads.
  if (n.type === 'ArrowFunctionExpression' || n.type === 'FunctionExpression' || n.type === 'FunctionDeclaration') return;
  if (n.type === 'CallExpression' || n.type === 'NewExpression') out.add(n.start);
  for (const [k, v] of Object.entries(n)) if (k !== 'type' && k !== 'start' && k !== 'end' && v && typeof v === 'object') callStarts(v, out);
}

function pureProtoInitializers(): PluginOption {
  return {
    name: 'sitewalk:pure-proto-initializers',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (!/[\\/]proto[\\/]src[\\/][^\\/]+\.ts$/.test(id)) return null;
      const program = this.parse(code) as unknown as { body: Node[] };
      const starts = new Set<number>();
      for (const stmt of program.body) {
        const decl = stmt.type === 'ExportNamedDeclaration' ? (stmt.declaration as Node | null) : stmt;
        if (decl?.type === 'VariableDeclaration') callStarts((decl.declarations as Node[]).map((d) => d.init), starts);
      }
      let out = code;
      for (const at of [...starts].sort((a, b) => b - a)) out = `${out.slice(0, at)}/* @__PURE__ */ ${out.slice(at)}`;
      return { code: out, map: null };
    },
  };
}

/**
 * plugin-react resolves the repository root's newer, Rolldown-based vite
 * (the one vitest uses) and, in the dev server, would hand this vite 7 a
 * native Rolldown plugin for fast refresh that it cannot run. Without that
 * one plugin, `make dev` works and an edit reloads the page instead.
 */
function reactPlugins(): PluginOption {
  const plugins = react() as unknown as { name: string }[];
  const rolldownVite = 'rolldownVersion' in vite;
  return (rolldownVite ? plugins : plugins.filter((p) => p.name !== 'vite:react:refresh-wrapper')) as unknown as PluginOption;
}

const apiTarget = `http://localhost:${process.env.API_PORT || 8081}`;

export default defineConfig({
  plugins: [pureProtoInitializers(), reactPlugins(), viewerPreloadPlugin(), precompressPlugin()],
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/socket.io': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The bench reads the manifest to tell which chunks /login loads first.
    manifest: true,
    // Photo Sphere Viewer with three.js is one lazy chunk (about 850 kB, 230 kB gzip) that only the 360 screens load.
    chunkSizeWarningLimit: 900,
    rollupOptions: {
      // zod's own comments confuse Rollup's annotation parser; the warnings say nothing about our code.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('node_modules')) return;
        warn(warning);
      },
    },
  },
});
