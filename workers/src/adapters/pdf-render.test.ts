import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { colourNeeds, dpiFor, drawPages, renderPage } from './pdf-render.js';

const A1: [number, number] = [2383.94, 1683.78];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf-render-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An A1 plan in greys (walls, grid, text) with, on some pages, one small thing in colour. */
async function plan(extras: ((page: import('pdf-lib').PDFPage, font: import('pdf-lib').PDFFont) => void)[]): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const extra of extras) {
    const page = doc.addPage(A1);
    for (let x = 60; x < A1[0] - 60; x += 120) page.drawLine({ start: { x, y: 60 }, end: { x, y: A1[1] - 60 }, thickness: 0.3, color: rgb(0.5, 0.5, 0.5) });
    page.drawRectangle({ x: 200, y: 200, width: 600, height: 400, borderColor: rgb(0, 0, 0), borderWidth: 2.5 });
    page.drawText('LEVEL 1', { x: 220, y: 400, size: 18, font });
    extra(page, font);
  }
  const file = path.join(dir, `plan-${extras.length}-${Math.random().toString(36).slice(2)}.pdf`);
  fs.writeFileSync(file, await doc.save());
  return file;
}

describe('drawing PDF pages', () => {
  it('draws a page in colour whenever anything on it has colour, however small, and in grey otherwise', async () => {
    const red = rgb(0.85, 0, 0);
    const file = await plan([
      () => undefined,
      // A hairline markup far thinner than a pixel of the small drawing (0.1 pt; the probe's pixel is 2 pt).
      (p) => p.drawLine({ start: { x: 1000, y: 300 }, end: { x: 1400, y: 900 }, thickness: 0.1, color: red }),
      // A red dot of half a point.
      (p) => p.drawRectangle({ x: 1500.3, y: 700.3, width: 0.5, height: 0.5, color: red }),
      // A 3-point red note.
      (p, font) => p.drawText('rev B', { x: 1700, y: 500, size: 3, font, color: red }),
      // A pale blue fill.
      (p) => p.drawRectangle({ x: 900, y: 900, width: 20, height: 20, color: rgb(0.9, 0.93, 1) }),
    ]);
    const dpi = dpiFor(...A1);
    const answers = colourNeeds(file, [1, 2, 3, 4, 5].map((page) => ({ page, widthPt: A1[0], heightPt: A1[1], dpi })));
    expect(await Promise.all([1, 2, 3, 4, 5].map((page) => answers.get(page)))).toEqual([false, true, true, true, true]);
    // Pages asked for out of a run (a retry skips those already made) get their answers too.
    const some = colourNeeds(file, [2, 5].map((page) => ({ page, widthPt: A1[0], heightPt: A1[1], dpi })));
    expect(await Promise.all([some.get(2), some.get(5)])).toEqual([true, true]);
  });

  it('draws a page in grey as one band of the same pixels the colour drawing has in each of its three', async () => {
    const file = await plan([() => undefined]);
    const colour = await renderPage(file, 1, 72);
    const grey = await renderPage(file, 1, 72, undefined, undefined, { grey: true });
    expect(grey).toMatchObject({ width: colour.width, height: colour.height, channels: 1 });
    expect(colour.channels).toBe(3);
    expect(grey.data.length).toBe(colour.width * colour.height);
    let off = 0;
    for (let i = 0; i < grey.data.length; i++) off = Math.max(off, Math.abs(grey.data[i] - colour.data[i * 3]));
    expect(off).toBeLessThanOrEqual(1);
  });

  it('draws a run of pages with one pdftoppm, page after page into the same buffer', async () => {
    const file = await plan([() => undefined, (p) => p.drawRectangle({ x: 0, y: 0, width: A1[0], height: A1[1], color: rgb(0, 0, 0) }), () => undefined]);
    const reuse = Buffer.alloc(200 * 150 * 3 * 4);
    const seen: { page: number; width: number; mean: number; shared: boolean }[] = [];
    for await (const img of drawPages(file, 1, 3, { dpi: 6, grey: true, reuse })) {
      let sum = 0;
      for (const v of img.data) sum += v;
      seen.push({ page: img.page, width: img.width, mean: Math.round(sum / img.data.length), shared: img.data.buffer === reuse.buffer });
    }
    expect(seen.map((s) => s.page)).toEqual([1, 2, 3]);
    expect(seen.every((s) => s.width === Math.ceil((A1[0] / 72) * 6) && s.shared)).toBe(true);
    // The black page is black, the plans around it mostly white: each page's pixels, not the last one's.
    expect(seen[1].mean).toBeLessThan(10);
    expect(seen[0].mean).toBeGreaterThan(200);
    expect(seen[2].mean).toBeGreaterThan(200);
  });

  it('fails a run on a damaged PDF with a message for the user, and stops pdftoppm when the caller stops early', async () => {
    const broken = path.join(dir, 'broken.pdf');
    fs.writeFileSync(broken, '%PDF-1.7\nnot really a PDF\n');
    await expect(renderPage(broken, 1, 72)).rejects.toThrow(/damaged and cannot be drawn/);
    const file = await plan([() => undefined, () => undefined, () => undefined]);
    const run = drawPages(file, 1, 3, { dpi: 36 });
    expect((await run.next()).value).toMatchObject({ page: 1 });
    await run.return(undefined);
    expect((await run.next()).done).toBe(true);
  });
});
