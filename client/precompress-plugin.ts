import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { PluginOption } from 'vite';

/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to each built script and
 * stylesheet. The server's static files (koa-send) hand those to browsers
 * that accept them, so it no longer compresses the same megabyte of
 * JavaScript again for every visitor — work that, on a busy two-core server,
 * delayed the public viewer's first answers — and the copies are smaller
 * (brotli at its best quality, which is too slow to run per request).
 */
const COMPRESSIBLE = /\.(js|css|svg|json)$/;

export function precompressPlugin(): PluginOption {
  let outDir = '';
  return {
    name: 'sitewalk:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const file = path.join(outDir, fileName);
        const raw = fs.readFileSync(file);
        // Small files are not worth it (the server does not compress them either).
        if (raw.length < 1024) continue;
        const br = zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
        if (br.length < raw.length) fs.writeFileSync(`${file}.br`, br);
        const gz = zlib.gzipSync(raw, { level: 9 });
        if (gz.length < raw.length) fs.writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}
