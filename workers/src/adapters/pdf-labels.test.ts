import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { pageAreaLabels } from './pdf-labels.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sitewalk-pdf-labels-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** An A4 plan with two room names, a measure and a title-block sentence; optionally turned a quarter. */
async function plan(rotate = 0): Promise<{ file: string; kitchen: { x: number; width: number; size: number } }> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595.28, 841.89]);
  if (rotate) page.setRotation(degrees(rotate));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const size = 20;
  page.drawText('Kitchen', { x: 100, y: 700, size, font });
  page.drawText('Room B', { x: 400, y: 300, size, font });
  page.drawText('3.40', { x: 250, y: 500, size, font });
  page.drawText('Drawn by the architects of the building, revision C', { x: 40, y: 40, size: 8, font });
  const file = path.join(dir, `plan-${rotate}.pdf`);
  fs.writeFileSync(file, await pdf.save());
  return { file, kitchen: { x: 100, width: font.widthOfTextAtSize('Kitchen', size), size } };
}

describe('room names read from a PDF plan', () => {
  it('finds the names of the rooms at their centre in the pixels of the sheet, and skips measures and sentences', async () => {
    const { file, kitchen } = await plan();
    const dpi = 144; // two pixels a point
    const page = await pageAreaLabels(file, 1, dpi);
    expect(Math.round(page.width)).toBe(1191);
    expect(page.labels.map((l) => l.text).sort()).toEqual(['Kitchen', 'Room B']);
    const k = page.labels.find((l) => l.text === 'Kitchen')!;
    // Its middle, from the top-left of the drawn page (y down).
    expect(Math.abs(k.x - (kitchen.x + kitchen.width / 2) * 2)).toBeLessThan(4);
    expect(Math.abs(k.y - (841.89 - 700 - kitchen.size / 2) * 2)).toBeLessThan(kitchen.size);
  });

  it('follows the turn of a rotated page, as the sheet drawn from it', async () => {
    const { file } = await plan(90);
    const page = await pageAreaLabels(file, 1, 72);
    expect(Math.round(page.width)).toBe(842);
    const k = page.labels.find((l) => l.text === 'Kitchen')!;
    // Turned a quarter clockwise, the top-left of the page goes to the top-right: Kitchen (near the top left) is now near the top right.
    expect(k.x).toBeGreaterThan(page.width / 2);
    expect(k.y).toBeLessThan(page.height / 2);
  });
});
