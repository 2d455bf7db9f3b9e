import fsp from 'node:fs/promises';

const MiB = 1024 * 1024;
/** Bytes read at a time. */
export const GROWING_FILE_CHUNK = 4 * MiB;
/** How often the growing file is looked at while no bytes are new. */
const POLL_MS = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The bytes of a file that only grows (an upload being received), read as
 * they arrive, until `total` bytes were read. Fails when `cancelled()` turns
 * true or when no byte came for `idleLimitMs`.
 */
export async function* growingFile(filePath: string, total: number, opts: { cancelled: () => boolean; idleLimitMs: number }): AsyncGenerator<Buffer> {
  let handle: fsp.FileHandle | null = null;
  let position = 0;
  let lastGrowth = Date.now();
  try {
    while (position < total) {
      if (opts.cancelled()) throw new Error('upload cancelled');
      handle ??= await fsp.open(filePath, 'r').catch(() => null);
      const size = handle ? (await handle.stat()).size : 0;
      if (size <= position) {
        if (Date.now() - lastGrowth > opts.idleLimitMs) throw new Error('no new bytes for too long');
        await sleep(POLL_MS);
        continue;
      }
      lastGrowth = Date.now();
      const length = Math.min(GROWING_FILE_CHUNK, size - position);
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle!.read(buffer, 0, length, position);
      position += bytesRead;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle?.close();
  }
}
