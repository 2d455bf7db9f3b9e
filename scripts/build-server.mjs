// The production build of the API and the workers: esbuild bundles each
// program's own code (api, workers and the workspaces core and proto, which
// export TypeScript sources) into plain ES modules in dist/server/, and
// leaves every npm package to node_modules (native modules such as sharp and
// argon2 cannot be bundled, and pdf.js is loaded on demand). `make start`
// runs the result with plain `node`: no TypeScript compiler in memory.
//
// Why esbuild: one dependency (already under Vite), about a second for the
// whole server, and its plugin API lets us bundle the workspace sources while
// keeping packages external. tsc would have to emit every workspace and
// rewrite their package exports from src/*.ts to compiled files; tsup is
// esbuild with a config file and declaration output we do not need.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Two levels below the root, like core/src/config.ts, so ROOT_DIR (two folders up from the code) is the same.
const OUT = path.join(ROOT, 'dist', 'server');

/** Bare imports of npm packages stay imports; @sitewalk/* workspaces and relative files are bundled. */
const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@sitewalk/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

fs.rmSync(OUT, { recursive: true, force: true });
const started = Date.now();
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: {
    server: 'api/src/server.ts',
    workers: 'workers/src/main.ts',
    setup: 'api/src/cli/setup.ts',
  },
  outdir: OUT,
  entryNames: '[name]',
  // Shared chunks in the same folder as the entries (see OUT).
  chunkNames: 'shared-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  // Names kept: error classes are told apart by name in logs and answers.
  keepNames: true,
  plugins: [externalPackages],
  logLevel: 'warning',
  metafile: true,
});
fs.writeFileSync(path.join(OUT, 'package.json'), '{ "type": "module" }\n');
const bytes = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js')).reduce((n, [, o]) => n + o.bytes, 0);
console.log(`dist/server: ${(bytes / 1024).toFixed(0)} KiB of JavaScript in ${Date.now() - started} ms`);
