import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSheetImages } from './pdf-page-tiles.js';
import { isGreyscale } from './raw-image.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A white page of w × h with a dark square and, optionally, a red one. */
function page(w: number, h: number, red: boolean) {
  const data = Buffer.alloc(w * h * 3, 255);
  const paint = (x0: number, y0: number, size: number, rgb: [number, number, number]) => {
    for (let y = y0; y < y0 + size; y++) for (let x = x0; x < x0 + size; x++) data.set(rgb, (y * w + x) * 3);
  };
  paint(10, 10, Math.min(100, w - 20, h - 20), [40, 40, 40]);
  if (red) paint(600, 300, 100, [220, 0, 0]);
  return { data, width: w, height: h };
}

describe('sheet tiles', () => {
  it('tells a page without colour from one with a single coloured pixel', () => {
    expect(isGreyscale(page(64, 64, false).data)).toBe(true);
    const one = page(64, 64, false).data;
    one[3 * 2000 + 2] = 254; // one pixel a shade off grey
    expect(isGreyscale(one)).toBe(false);
  });

  it('finds any one byte off grey, wherever it is, in buffers of any length and alignment', () => {
    // The check reads whole words where it can: every position within them, the tail after them, and
    // buffers that do not start on a word boundary must all be seen.
    for (let pixels = 1; pixels <= 40; pixels++) {
      for (const offset of [0, 1, 4]) {
        const backing = Buffer.alloc(offset + pixels * 3 + 8);
        const rgb = backing.subarray(offset, offset + pixels * 3);
        for (let p = 0; p < pixels; p++) rgb.fill((p * 37) % 256, p * 3, p * 3 + 3);
        expect(isGreyscale(rgb)).toBe(true);
        for (let at = 0; at < rgb.length; at++) {
          rgb[at] ^= 0x40;
          expect(isGreyscale(rgb), `${pixels} pixels, offset ${offset}, byte ${at}`).toBe(false);
          rgb[at] ^= 0x40;
        }
        // Bytes past the pixels asked about are not read.
        backing[offset + pixels * 3] = 1;
        expect(isGreyscale(backing.subarray(offset), pixels)).toBe(true);
      }
    }
  });

  it('cuts a page drawn in grey (one band) into the same tiles and thumbnail as the page drawn in colour', async () => {
    const rgbPage = page(1100, 700, false);
    const grey = Buffer.alloc(1100 * 700);
    for (let i = 0; i < grey.length; i++) grey[i] = rgbPage.data[i * 3];
    const [a, b] = [fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-tiles-')), fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-tiles-'))];
    dirs.push(a, b);
    const fromRgb = await writeSheetImages(rgbPage, a);
    const fromGrey = await writeSheetImages({ data: grey, width: 1100, height: 700, channels: 1 }, b);
    expect(fromGrey).toEqual(fromRgb);
    for (const file of ['tiles/2/0/0.jpg', 'tiles/2/1/2.jpg', 'tiles/0/0/0.jpg', 'thumbnail.jpg']) {
      const [x, y] = await Promise.all([a, b].map((d) => sharp(path.join(d, file)).raw().toBuffer({ resolveWithObject: true })));
      expect(y.info).toEqual(x.info);
      expect(y.data.equals(x.data)).toBe(true);
      expect((await sharp(path.join(b, file)).metadata()).channels).toBe(1);
    }
  });

  it('writes a grey page as one-channel tiles and keeps a colour page in colour', async () => {
    for (const red of [false, true]) {
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-tiles-'));
      dirs.push(out);
      const images = await writeSheetImages(page(1100, 700, red), out);
      expect(images.maxZoom).toBe(2);
      const tile = path.join(out, images.tilesDir, '2', '0', '1.jpg');
      expect((await sharp(tile).metadata()).channels).toBe(red ? 3 : 1);
      // The dark square is still dark, and the red one still red, at full resolution.
      // (stats() reads its input, not the pipeline: the region is cut out first.)
      const region = async (file: string, r: sharp.Region) => sharp(await sharp(file).extract(r).png().toBuffer()).stats();
      const dark = await region(path.join(out, images.tilesDir, '2', '0', '0.jpg'), { left: 30, top: 30, width: 40, height: 40 });
      expect(dark.channels[0].mean).toBeLessThan(60);
      // The thumbnail is the page scaled to fit 480 pixels, grey in one band, and looks as the page shrunk in colour does.
      const thumb = sharp(path.join(out, images.thumbnail));
      expect(await thumb.metadata()).toMatchObject({ width: 480, height: 305, channels: red ? 3 : 1 });
      const seen = await thumb.clone().toColourspace('srgb').removeAlpha().raw().toBuffer();
      const p = page(1100, 700, red);
      const expected = await sharp(p.data, { raw: { width: p.width, height: p.height, channels: 3 } }).resize(480, 305, { fit: 'fill' }).raw().toBuffer();
      expect(seen.length).toBe(expected.length);
      let diff = 0;
      for (let i = 0; i < seen.length; i++) diff += Math.abs(seen[i] - expected[i]);
      expect(diff / seen.length).toBeLessThan(3);
      if (red) {
        const r = await region(tile, { left: 600 - 512 + 20, top: 320, width: 40, height: 40 });
        expect(r.channels[0].mean).toBeGreaterThan(180);
        expect(r.channels[1].mean).toBeLessThan(60);
      }
    }
  });
});
