import fsp from 'node:fs/promises';
import { SHEET_RENDERING } from '@sitewalk/proto';
import { loadPdfJs } from '@sitewalk/core/pdfjs.js';

/** A PDF that cannot become sheets; the message is for the user and retrying cannot help. */
export class PdfRejected extends Error {
  override name = 'PdfRejected';
}

export interface PdfPageInfo {
  /** 1-based page number. */
  page: number;
  /** Size as displayed (crop box, rotation applied), in PDF points (1/72 inch). */
  widthPt: number;
  heightPt: number;
  /** The page label the author gave ('A-101'), or null. */
  label: string | null;
}

export interface PdfInfo {
  pages: PdfPageInfo[];
}

const PT_PER_MM = 72 / 25.4;
const fmtSide = (mm: number) => (mm >= 1000 ? `${(mm / 1000).toFixed(1)} m` : `${Math.round(mm)} mm`);

/**
 * Whether the file is whole: a PDF starts with %PDF- and ends with %%EOF
 * (readers allow up to 1 KiB of trailing bytes). A file cut off in transfer
 * fails here even when a tolerant parser could rebuild part of it.
 */
async function checkEnvelope(filePath: string): Promise<void> {
  const fh = await fsp.open(filePath, 'r');
  try {
    const { size } = await fh.stat();
    if (size < 64) throw new PdfRejected('This file is too small to be a PDF plan.');
    const head = Buffer.alloc(1024);
    await fh.read(head, 0, head.length, 0);
    if (!head.includes('%PDF-')) throw new PdfRejected('This file is not a PDF.');
    const tailLength = Math.min(size, 2048);
    const tail = Buffer.alloc(tailLength);
    await fh.read(tail, 0, tailLength, size - tailLength);
    if (!tail.includes('%%EOF')) {
      throw new PdfRejected('This PDF is incomplete: the end of the file is missing. It was probably cut off while copying or uploading; upload the original again.');
    }
  } finally {
    await fh.close();
  }
}

/**
 * Reads what making sheets needs to know about a PDF — its pages, their
 * sizes and labels — and refuses files that cannot become sheets:
 * incomplete, damaged, encrypted, empty, too many pages, absurd page sizes.
 * pdf.js (Apache-2.0) reads the structure; it never draws here.
 */
export async function inspectPdf(filePath: string): Promise<PdfInfo> {
  await checkEnvelope(filePath);
  const data = new Uint8Array(await fsp.readFile(filePath));
  // Through the core's loader: pdf.js's polyfills would otherwise replace JSON and Array built-ins for the whole worker process.
  const { getDocument } = await loadPdfJs();
  let doc;
  try {
    doc = await getDocument({ data, isEvalSupported: false, disableFontFace: true, stopAtErrors: true, verbosity: 0 }).promise;
  } catch (err) {
    const name = (err as Error).name;
    if (name === 'PasswordException') {
      throw new PdfRejected('This PDF is protected by a password. Save a copy without the password and upload that.');
    }
    if (name === 'InvalidPDFException' || name === 'FormatError' || name === 'UnknownErrorException') {
      throw new PdfRejected('This PDF is damaged and cannot be read. Export it again from the drawing program and upload the new file.');
    }
    throw err;
  }
  try {
    const meta = await doc.getMetadata().catch(() => null);
    // Encrypted without a password to open it: the author restricted what may be done with it, copying included.
    if ((meta?.info as { EncryptFilterName?: string | null } | undefined)?.EncryptFilterName) {
      throw new PdfRejected('This PDF is encrypted: its author restricted what can be done with it. Save an unprotected copy and upload that.');
    }
    if (doc.numPages < 1) throw new PdfRejected('This PDF has no pages.');
    if (doc.numPages > SHEET_RENDERING.maxPages) {
      throw new PdfRejected(`This PDF has ${doc.numPages} pages; at most ${SHEET_RENDERING.maxPages} can become sheets at once. Split it and upload the parts.`);
    }
    const labels = await doc.getPageLabels().catch(() => null);
    const pages: PdfPageInfo[] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      let page;
      try {
        page = await doc.getPage(i);
      } catch {
        throw new PdfRejected(`Page ${i} of this PDF is damaged and cannot be read. Export the PDF again and upload the new file.`);
      }
      const [x0, y0, x1, y1] = page.view;
      const unit = (page as unknown as { userUnit?: number }).userUnit ?? 1;
      let w = Math.abs(x1 - x0) * unit;
      let h = Math.abs(y1 - y0) * unit;
      if (page.rotate % 180 !== 0) [w, h] = [h, w];
      const wMm = w / PT_PER_MM;
      const hMm = h / PT_PER_MM;
      if (!Number.isFinite(wMm) || !Number.isFinite(hMm) || wMm <= 0 || hMm <= 0) {
        throw new PdfRejected(`Page ${i} of this PDF has no valid size.`);
      }
      if (Math.max(wMm, hMm) > SHEET_RENDERING.maxSideMm || Math.min(wMm, hMm) < SHEET_RENDERING.minSideMm) {
        throw new PdfRejected(
          `Page ${i} is ${fmtSide(wMm)} × ${fmtSide(hMm)}. A sheet's sides must be between ${SHEET_RENDERING.minSideMm / 10} cm and ${SHEET_RENDERING.maxSideMm / 1000} m.`,
        );
      }
      const label = labels?.[i - 1]?.trim() || null;
      pages.push({ page: i, widthPt: w, heightPt: h, label });
      page.cleanup();
    }
    return { pages };
  } finally {
    await doc.destroy();
  }
}

/**
 * A sheet's name from its page: the author's page label ('A-101'), or
 * 'Sheet N' when the label is only the page number again.
 */
export function sheetName(page: PdfPageInfo): string {
  const label = page.label?.slice(0, 200);
  if (!label || label === String(page.page)) return `Sheet ${page.page}`;
  return /^\d+$/.test(label) ? `Sheet ${label}` : label;
}
