import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, PDFName, PDFString, StandardFonts, rgb } from 'pdf-lib';

/** Paper sizes in PDF points (1/72 inch). */
export const PAPER = {
  A6: [297.64, 419.53],
  A4: [595.28, 841.89],
  A3: [841.89, 1190.55],
  A1: [1683.78, 2383.94],
} as const satisfies Record<string, readonly [number, number]>;

export interface FixturePage {
  size: readonly [number, number];
  landscape?: boolean;
}

/**
 * A plan set as a drawing program exports it: each page has a grid of walls,
 * a title block and text. `labels` sets the page labels (/PageLabels) the way
 * architects number sheets: a list of [first page index, {prefix, start}].
 */
export async function planPdf(pages: FixturePage[], labels?: [number, { prefix?: string; start?: number; decimal?: boolean }][]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  pages.forEach((p, i) => {
    const [w, h] = p.landscape ? [p.size[1], p.size[0]] : [p.size[0], p.size[1]];
    const page = doc.addPage([w, h]);
    const step = Math.min(w, h) / 12;
    for (let x = step; x < w; x += step) page.drawLine({ start: { x, y: step }, end: { x, y: h - step }, thickness: 0.8, color: rgb(0.1, 0.1, 0.1) });
    for (let y = step; y < h; y += step) page.drawLine({ start: { x: step, y }, end: { x: w - step, y }, thickness: 0.8, color: rgb(0.1, 0.1, 0.1) });
    page.drawRectangle({ x: w - 4 * step, y: step / 2, width: 3.5 * step, height: step, borderColor: rgb(0.8, 0, 0), borderWidth: 2 });
    page.drawText(`Plan ${i + 1}`, { x: w - 3.8 * step, y: step * 0.8, size: step / 3, font, color: rgb(0.8, 0, 0) });
  });
  if (labels) {
    const nums: unknown[] = [];
    for (const [index, l] of labels) {
      const dict: Record<string, unknown> = {};
      if (l.decimal !== false) dict.S = PDFName.of('D');
      if (l.prefix) dict.P = PDFString.of(l.prefix);
      if (l.start) dict.St = l.start;
      nums.push(index, dict);
    }
    doc.catalog.set(PDFName.of('PageLabels'), doc.context.obj({ Nums: doc.context.obj(nums as never) }));
  }
  return Buffer.from(await doc.save());
}

/** A PDF with no page at all (pdf-lib would add a blank one unless told not to). */
export async function emptyPdf(): Promise<Buffer> {
  return Buffer.from(await (await PDFDocument.create()).save({ addDefaultPage: false }));
}

/** The same PDF encrypted by qpdf (AES-256): with a password to open it, or only an owner password. */
export function encryptedPdf(pdf: Buffer, userPassword: string): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitewalk-pdf-'));
  try {
    const src = path.join(dir, 'in.pdf');
    const dst = path.join(dir, 'out.pdf');
    fs.writeFileSync(src, pdf);
    execFileSync('qpdf', ['--encrypt', userPassword, 'owner-secret', '256', '--', src, dst]);
    return fs.readFileSync(dst);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The first part of a file, as a broken transfer leaves it. */
export const truncated = (pdf: Buffer, fraction = 0.7) => pdf.subarray(0, Math.floor(pdf.length * fraction));
