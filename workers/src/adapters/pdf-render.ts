import { spawn } from 'node:child_process';
import net from 'node:net';
import { SHEET_RENDERING } from '@sitewalk/proto';
import { PdfRejected } from './pdf-inspect.js';
import { isGreyscale } from './pdf-page-tiles.js';

/** A rendered page: packed 8-bit pixels, row by row, RGB (3 channels, the default) or grey (1). */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels?: 1 | 3;
}

/** Longest one page may take to draw before it counts as broken. */
const PAGE_TIMEOUT_MS = 5 * 60_000;

/**
 * The resolution a page is drawn at: as sharp as `maxDpi` allows while the
 * image stays within the pixel budget. An A1 plan gets about 215 dpi, an A0
 * 150 dpi, an A4 page 300 dpi.
 */
export function dpiFor(widthPt: number, heightPt: number, budget: number = SHEET_RENDERING.pixelBudget): number {
  const areaIn2 = (widthPt / 72) * (heightPt / 72);
  return Math.max(1, Math.min(SHEET_RENDERING.maxDpi, Math.floor(Math.sqrt(budget / areaIn2))));
}

/** Reads the header of a binary PPM (P6, RGB) or PGM (P5, grey): width, height, channels, and where the pixels start. */
function parsePpmHeader(buf: Buffer): PpmHeader | null {
  const fields: string[] = [];
  let i = 0;
  while (fields.length < 4) {
    while (i < buf.length && /\s/.test(String.fromCharCode(buf[i]))) i++;
    if (buf[i] === 0x23) {
      while (i < buf.length && buf[i] !== 0x0a) i++; // comment line
      continue;
    }
    const start = i;
    while (i < buf.length && !/\s/.test(String.fromCharCode(buf[i]))) i++;
    if (i >= buf.length) return null; // header not complete yet
    fields.push(buf.toString('latin1', start, i));
  }
  const [magic, w, h, max] = fields;
  if ((magic !== 'P6' && magic !== 'P5') || max !== '255') throw new Error(`pdftoppm wrote an unexpected image header: ${fields.join(' ')}`);
  return { width: Number(w), height: Number(h), channels: magic === 'P6' ? 3 : 1, offset: i + 1 };
}

interface PpmHeader {
  width: number;
  height: number;
  channels: 1 | 3;
  offset: number;
}

/** Bytes of the packed RGB image pdftoppm draws of a page at `dpi` (it rounds each side up), a little over to be safe. */
export function pageBytes(widthPt: number, heightPt: number, dpi: number): number {
  return (Math.ceil((widthPt / 72) * dpi) + 1) * (Math.ceil((heightPt / 72) * dpi) + 1) * 3;
}

/**
 * A connected pair of local sockets (Linux abstract namespace: no file), for
 * a child's output. Unlike a pipe, whose 64 KiB chunks Node copies into a new
 * Buffer each, the reading end here is read by libuv straight into memory the
 * caller chooses (`onread`), in larger chunks: for a 36-megapixel page that
 * halves the work this process does to receive the pixels.
 */
async function socketPair(onread: net.OnReadOpts): Promise<{ reader: net.Socket; writer: net.Socket }> {
  const server = net.createServer();
  const name = `\0sitewalk-pdftoppm-${process.pid}-${++pairs}`;
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(name, () => resolve()));
  try {
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    const reader = net.connect({ path: name, onread });
    await new Promise<void>((resolve, reject) => reader.once('error', reject).once('connect', () => resolve()));
    return { reader, writer: await accepted };
  } finally {
    server.close();
  }
}
let pairs = 0;

/**
 * Draws one page with Debian's pdftoppm (poppler, GPL, run as a separate
 * program) at `dpi`, using the crop box as PDF viewers do. Pixels stream
 * from its output straight into one buffer of the final size (no file in
 * between, no copy of each chunk), so a page costs its pixels once in this
 * process. `reuse`, when large enough, is that buffer: a caller drawing page
 * after page keeps one buffer instead of asking the system for fresh memory
 * every page; the image returned is then a view of it, valid until it is reused.
 */
export async function renderPage(
  filePath: string,
  page: number,
  dpi: number,
  signal?: AbortSignal,
  reuse?: Buffer,
  { grey = false }: { grey?: boolean } = {},
): Promise<RawImage> {
  signal?.throwIfAborted();
  let header: PpmHeader | null = null;
  // The header lands in `head`; once it is read, the pixels land in `out`. Anything past
  // the expected size (never, from a sound pdftoppm) goes to `spill` and fails the page.
  const head = Buffer.allocUnsafe(4096);
  let headLength = 0;
  let out: Buffer | null = null;
  let written = 0;
  const spill = Buffer.allocUnsafe(64 * 1024);
  let failure: Error | null = null;
  let fail: (err: Error) => void = () => undefined;
  const { reader, writer } = await socketPair({
    buffer: () => (!out ? head.subarray(headLength) : written < out.length ? out.subarray(written) : spill),
    callback: (n) => {
      if (failure) return true;
      if (!out) {
        headLength += n;
        try {
          header = parsePpmHeader(head.subarray(0, headLength));
        } catch (err) {
          fail(err as Error);
          return true;
        }
        if (!header) {
          if (headLength === head.length) fail(new Error('pdftoppm wrote no image header'));
          return true;
        }
        const expected = header.width * header.height * header.channels;
        if (expected > SHEET_RENDERING.pixelBudget * 3 * 1.05) {
          fail(new Error(`pdftoppm drew ${header.width}×${header.height} pixels, more than the budget`));
          return true;
        }
        out = reuse && reuse.length >= expected ? reuse.subarray(0, expected) : Buffer.allocUnsafe(expected);
        written = head.copy(out, 0, header.offset, headLength);
        if (headLength - header.offset > out.length) fail(new PdfRejected(`Page ${page} of this PDF could not be drawn as expected.`));
        return true;
      }
      if (written >= out.length) fail(new PdfRejected(`Page ${page} of this PDF could not be drawn as expected.`));
      else written += n;
      return true;
    },
  });
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), '-cropbox', ...(grey ? ['-gray'] : []), filePath], {
        stdio: ['ignore', writer, 'pipe'],
        signal,
      });
    } catch (err) {
      reader.destroy();
      writer.destroy();
      return reject(err);
    }
    // The child has its own copy of the writing end: the reader sees the end when pdftoppm exits.
    writer.destroy();
    fail = (err) => {
      failure ??= err;
      child.kill('SIGKILL');
    };
    let stderr = '';
    const timer = setTimeout(() => fail(new PdfRejected(`Page ${page} takes too long to draw. The PDF may be damaged or far too complex.`)), PAGE_TIMEOUT_MS);
    child.stderr!.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    const readAll = new Promise<void>((done) => {
      reader.once('end', done).once('close', done).once('error', (err) => {
        failure ??= err;
        done();
      });
    });
    const exited = new Promise<{ code: number | null; sig: NodeJS.Signals | null }>((done, error) => {
      child.once('error', error).once('close', (code, sig) => done({ code, sig }));
    });
    Promise.all([exited, readAll]).then(
      ([{ code, sig }]) => {
        clearTimeout(timer);
        reader.destroy();
        if (failure) return reject(failure);
        // Exit 1: the PDF could not be opened; 3: its permissions forbid drawing. Both are the file's fault.
        if (code === 1 || code === 3) {
          return reject(new PdfRejected(`Page ${page} of this PDF is damaged and cannot be drawn. Export the PDF again and upload the new file.`));
        }
        if (code !== 0) return reject(new Error(`pdftoppm ended with ${sig ?? `code ${code}`} on page ${page}: ${stderr.trim().slice(0, 500)}`));
        if (!out || !header || written !== out.length) {
          return reject(new PdfRejected(`Page ${page} of this PDF could not be drawn completely.`));
        }
        const h = header as PpmHeader;
        resolve({ data: out, width: h.width, height: h.height, channels: h.channels });
      },
      (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reader.destroy();
        reject(err.code === 'ENOENT' ? new Error('pdftoppm is not installed (Debian package poppler-utils)') : err);
      },
    );
  });
}

/** Pixels of the small drawing that tells whether a page has any colour. */
export const COLOUR_PROBE_PIXELS = 1_000_000;

/**
 * Whether a page must be drawn in colour: whether it has any colour, told from a small drawing of it (about a megapixel; an A1 plan at
 * 36 dpi, some 50 ms of pdftoppm). A page without colour (most plan sets) is then drawn in grey:
 * one byte a pixel instead of three for pdftoppm to write, this process to receive and libvips to
 * read, and no full-size check of the colours. The small drawing misses no colour the sheet would
 * show: poppler draws a stroke thinner than a pixel one pixel wide in its own colour, and
 * anti-aliasing tints the pixel under a coloured fill or glyph smaller than a pixel. A page small
 * enough (up to twice the probe) is simply drawn in colour and checked in full by the tiler.
 */
export async function needsColour(filePath: string, page: number, widthPt: number, heightPt: number, dpi: number, signal?: AbortSignal): Promise<boolean> {
  const pixels = (widthPt / 72) * dpi * ((heightPt / 72) * dpi);
  if (pixels <= 2 * COLOUR_PROBE_PIXELS) return true;
  const probeDpi = Math.max(1, Math.floor(dpi * Math.sqrt(COLOUR_PROBE_PIXELS / pixels)));
  const probe = await renderPage(filePath, page, probeDpi, signal);
  return !isGreyscale(probe.data, probe.width * probe.height);
}
