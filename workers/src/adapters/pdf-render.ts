import { spawn } from 'node:child_process';
import { SHEET_RENDERING } from '@sitewalk/proto';
import { PdfRejected } from './pdf-inspect.js';

/** A rendered page: packed 8-bit RGB pixels, row by row. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
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

/** Reads the header of a binary PPM (P6): width, height, and where the pixels start. */
function parsePpmHeader(buf: Buffer): { width: number; height: number; offset: number } | null {
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
  if (magic !== 'P6' || max !== '255') throw new Error(`pdftoppm wrote an unexpected image header: ${fields.join(' ')}`);
  return { width: Number(w), height: Number(h), offset: i + 1 };
}

/**
 * Draws one page with Debian's pdftoppm (poppler, GPL, run as a separate
 * program) at `dpi`, using the crop box as PDF viewers do. Pixels stream into
 * one buffer of the final size, so a page costs its pixels once in memory.
 */
export function renderPage(filePath: string, page: number, dpi: number, signal?: AbortSignal): Promise<RawImage> {
  return new Promise((resolve, reject) => {
    const child = spawn('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), '-cropbox', filePath], {
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
    });
    let header: { width: number; height: number; offset: number } | null = null;
    let pending: Buffer[] = [];
    let out: Buffer | null = null;
    let written = 0;
    let stderr = '';
    let failure: Error | null = null;
    const timer = setTimeout(() => {
      failure = new PdfRejected(`Page ${page} takes too long to draw. The PDF may be damaged or far too complex.`);
      child.kill('SIGKILL');
    }, PAGE_TIMEOUT_MS);

    child.stdout.on('data', (chunk: Buffer) => {
      if (failure) return;
      if (!out) {
        pending.push(chunk);
        const joined = Buffer.concat(pending);
        try {
          header = parsePpmHeader(joined);
        } catch (err) {
          failure = err as Error;
          child.kill('SIGKILL');
          return;
        }
        if (!header) return;
        const expected = header.width * header.height * 3;
        if (expected > SHEET_RENDERING.pixelBudget * 3 * 1.05) {
          failure = new Error(`pdftoppm drew ${header.width}×${header.height} pixels, more than the budget`);
          child.kill('SIGKILL');
          return;
        }
        out = Buffer.allocUnsafe(expected);
        chunk = joined.subarray(header.offset);
        pending = [];
      }
      const n = Math.min(chunk.length, out.length - written);
      chunk.copy(out, written, 0, n);
      written += n;
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? new Error('pdftoppm is not installed (Debian package poppler-utils)') : err);
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      if (failure) return reject(failure);
      // Exit 1: the PDF could not be opened; 3: its permissions forbid drawing. Both are the file's fault.
      if (code === 1 || code === 3) {
        return reject(new PdfRejected(`Page ${page} of this PDF is damaged and cannot be drawn. Export the PDF again and upload the new file.`));
      }
      if (code !== 0) return reject(new Error(`pdftoppm ended with ${sig ?? `code ${code}`} on page ${page}: ${stderr.trim().slice(0, 500)}`));
      if (!out || !header || written !== out.length) {
        return reject(new PdfRejected(`Page ${page} of this PDF could not be drawn completely.`));
      }
      const h = header as { width: number; height: number };
      resolve({ data: out, width: h.width, height: h.height });
    });
  });
}
