import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { SHEET_RENDERING } from '@sitewalk/proto';
import { diesWithParent } from '@sitewalk/core/tools/dies-with-parent.js';
import { PdfRejected } from './pdf-inspect.js';
import { isGreyscale, type RawImage } from './raw-image.js';


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

/** How a run of pages is drawn: at `dpi`, or scaled so the longer side is `scaleTo` pixels; in grey or colour. */
export interface DrawOptions {
  dpi?: number;
  scaleTo?: number;
  grey?: boolean;
  signal?: AbortSignal;
  /** The buffer each page is drawn into when large enough (see drawPages). */
  reuse?: Buffer;
}

/**
 * Draws pages `first` to `last` with one run of Debian's pdftoppm (poppler,
 * GPL, a separate program), using the crop box as PDF viewers do, and yields
 * each page's pixels in order. One program for several pages, not one per
 * page: each start reads the PDF, the fonts and the font configuration again
 * and touches fresh memory, which on the virtual machines SiteWalk is run on
 * cost more than drawing a page (bench/RESULTS.md, PDF plans to sheets).
 *
 * Pixels stream from its output straight into one buffer of the final size
 * (no file in between, no copy of each chunk). The output is read only while
 * a page is wanted: pdftoppm draws the next page meanwhile and waits until
 * the caller asks for it, so at most one page is held here and one there.
 * `reuse`, when large enough, is that buffer (a page is then a view of it,
 * valid until the next is asked for): memory stays the same page after page.
 */
export async function* drawPages(filePath: string, first: number, last: number, opts: DrawOptions = {}): AsyncGenerator<RawImage & { page: number }> {
  const { signal, reuse } = opts;
  signal?.throwIfAborted();
  // A page's header lands in `head`; once it is read, its pixels land in `out`. Bytes past
  // what pdftoppm should write (never, from a sound pdftoppm) go to `spill` and fail the run.
  const head = Buffer.allocUnsafe(4096);
  let headLength = 0;
  let header: PpmHeader | null = null;
  let out: Buffer | null = null;
  let written = 0;
  const spill = Buffer.allocUnsafe(64 * 1024);
  let page = first;
  let ready: RawImage | null = null;
  let failure: Error | null = null;
  let exit: { code: number | null; sig: NodeJS.Signals | null } | null = null;
  let readEnded = false;
  let stderr = '';
  let child: ChildProcess | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const fail = (err: Error) => {
    failure ??= err;
    child?.kill('SIGKILL');
    notify();
  };
  /** Reads a header from `head` and moves the pixels after it into the page's buffer; true when the page is complete. */
  const takeHeader = (): boolean => {
    header = parsePpmHeader(head.subarray(0, headLength));
    if (!header) {
      if (headLength === head.length) throw new Error('pdftoppm wrote no image header');
      return false;
    }
    const expected = header.width * header.height * header.channels;
    if (expected > SHEET_RENDERING.pixelBudget * 3 * 1.05) throw new Error(`pdftoppm drew ${header.width}×${header.height} pixels, more than the budget`);
    if (page > last) throw new PdfRejected('This PDF could not be drawn as expected.');
    out = reuse && reuse.length >= expected ? reuse.subarray(0, expected) : Buffer.allocUnsafe(expected);
    const n = Math.min(headLength - header.offset, expected);
    written = head.copy(out, 0, header.offset, header.offset + n);
    // What came after a small page is the start of the next one.
    headLength = head.copy(head, 0, header.offset + n, headLength);
    return written === out.length;
  };
  const complete = () => {
    const h = header!;
    ready = { data: out!, width: h.width, height: h.height, channels: h.channels };
    out = null;
    header = null;
    written = 0;
    notify();
  };
  const { reader, writer } = await socketPair({
    buffer: () => (failure ? spill : !out ? head.subarray(headLength) : out.subarray(written)),
    callback: (n) => {
      if (failure) return true;
      try {
        if (!out) headLength += n;
        else written += n;
        if (out ? written === out.length : takeHeader()) {
          complete();
          return false; // pause: nothing more is read until the caller asks for the next page
        }
      } catch (err) {
        fail(err as Error);
      }
      return true;
    },
  });
  const sizing = opts.dpi ? ['-r', String(opts.dpi)] : ['-scale-to', String(opts.scaleTo ?? 1000)];
  try {
    const cmd = diesWithParent('pdftoppm', [...sizing, '-f', String(first), '-l', String(last), '-cropbox', ...(opts.grey ? ['-gray'] : []), filePath]);
    child = spawn(cmd.command, cmd.args, {
      stdio: ['ignore', writer, 'pipe'],
      signal,
    });
  } catch (err) {
    reader.destroy();
    writer.destroy();
    throw err;
  }
  // The child has its own copy of the writing end: the reader sees the end when pdftoppm exits.
  writer.destroy();
  child.stderr!.on('data', (d: Buffer) => {
    if (stderr.length < 4000) stderr += d.toString();
  });
  child.once('error', (err: NodeJS.ErrnoException) => fail(err.code === 'ENOENT' ? new Error('pdftoppm is not installed (Debian package poppler-utils)') : err));
  child.once('close', (code, sig) => {
    exit = { code, sig };
    notify();
  });
  reader.once('end', () => ((readEnded = true), notify())).once('close', () => ((readEnded = true), notify())).once('error', fail);
  let timer: NodeJS.Timeout | undefined;
  const startClock = () => {
    clearTimeout(timer);
    timer = setTimeout(() => fail(new PdfRejected(`Page ${page} takes too long to draw. The PDF may be damaged or far too complex.`)), PAGE_TIMEOUT_MS);
  };
  startClock();
  try {
    for (;;) {
      while (!ready && !failure && !(exit && readEnded)) await new Promise<void>((resolve) => (wake = resolve));
      if (failure) throw failure;
      if (ready) {
        const image: RawImage = ready;
        ready = null;
        yield { ...image, page: page++ };
        startClock();
        // The next page may have begun in what was read with the last one.
        if (headLength && takeHeader()) complete();
        else reader.resume();
        continue;
      }
      const { code, sig } = exit!;
      // Exit 1: the PDF could not be opened; 3: its permissions forbid drawing. Both are the file's fault.
      if (code === 1 || code === 3) throw new PdfRejected(`Page ${page} of this PDF is damaged and cannot be drawn. Export the PDF again and upload the new file.`);
      if (code !== 0) throw new Error(`pdftoppm ended with ${sig ?? `code ${code}`} on page ${page}: ${stderr.trim().slice(0, 500)}`);
      if (out || page !== last + 1) throw new PdfRejected(`Page ${page} of this PDF could not be drawn completely.`);
      return;
    }
  } finally {
    clearTimeout(timer);
    if (!exit) child.kill('SIGKILL');
    reader.destroy();
  }
}

/** One page drawn at `dpi` (see drawPages). */
export async function renderPage(filePath: string, page: number, dpi: number, signal?: AbortSignal, reuse?: Buffer, { grey = false }: { grey?: boolean } = {}): Promise<RawImage> {
  for await (const image of drawPages(filePath, page, page, { dpi, grey, signal, reuse })) return image;
  throw new PdfRejected(`Page ${page} of this PDF could not be drawn.`);
}

/** The longer side of the small drawing that tells whether a page has any colour (an A1 plan: 1200 × 848, a pixel of 2 pt). */
export const COLOUR_PROBE_SIDE = 1200;
/** A page of up to twice the small drawing's pixels is drawn in colour without one. */
export const COLOUR_PROBE_PIXELS = 1_000_000;

/**
 * Whether each page must be drawn in colour: whether it has any colour, told from a small drawing of it (about a megapixel,
 * some 50 ms of pdftoppm a page; one pdftoppm for all the pages, its answers coming page by page). A page without colour
 * (most plan sets) is then drawn in grey: one byte a pixel instead of three for pdftoppm to write, this process to receive
 * and libvips to read, and no full-size check of the colours. The small drawing misses no colour the sheet would show:
 * poppler draws a stroke thinner than a pixel one pixel wide in its own colour, and anti-aliasing tints the pixel under a
 * coloured fill or glyph smaller than a pixel. A page small enough (up to twice the probe) is simply drawn in colour and
 * checked in full by the tiler. A failed drawing fails the pages still waiting for their answer.
 */
export function colourNeeds(filePath: string, pages: { page: number; widthPt: number; heightPt: number; dpi: number }[], signal?: AbortSignal): Map<number, Promise<boolean>> {
  const answers = new Map<number, { promise: Promise<boolean>; resolve: (v: boolean) => void; reject: (e: unknown) => void }>();
  const probed: number[] = [];
  for (const p of pages) {
    let resolve!: (v: boolean) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<boolean>((res, rej) => ((resolve = res), (reject = rej)));
    // Answers nobody waits for any more (the job stopped) must not end the process as unhandled.
    promise.catch(() => undefined);
    answers.set(p.page, { promise, resolve, reject });
    const pixels = (p.widthPt / 72) * p.dpi * ((p.heightPt / 72) * p.dpi);
    if (pixels <= 2 * COLOUR_PROBE_PIXELS) resolve(true);
    else probed.push(p.page);
  }
  if (probed.length) {
    void (async () => {
      const first = Math.min(...probed);
      const last = Math.max(...probed);
      for await (const image of drawPages(filePath, first, last, { scaleTo: COLOUR_PROBE_SIDE, signal })) {
        if (probed.includes(image.page)) answers.get(image.page)!.resolve(!isGreyscale(image.data, image.width * image.height));
      }
    })().then(
      // Every page has its answer by now; one missing would fail its page rather than wait for ever.
      () => answers.forEach((a, page) => a.reject(new PdfRejected(`Page ${page} of this PDF could not be drawn.`))),
      (err) => answers.forEach((a) => a.reject(err)),
    );
  }
  return new Map([...answers].map(([page, a]) => [page, a.promise]));
}
