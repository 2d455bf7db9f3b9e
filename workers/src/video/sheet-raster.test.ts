import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSheetImages } from '../adapters/pdf-page-tiles.js';
import { rasterLevel, readSheetRaster } from './sheet-raster.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await fsp.rm(d, { recursive: true, force: true });
});

describe('rasterLevel', () => {
  it('takes the sharpest level of the pyramid that fits the longest side', () => {
    expect(rasterLevel({ width: 1800, height: 1200, maxZoom: 3 }, 2048)).toEqual({ zoom: 3, scale: 1 });
    expect(rasterLevel({ width: 7000, height: 5000, maxZoom: 5 }, 2048)).toEqual({ zoom: 3, scale: 0.25 });
    expect(rasterLevel({ width: 4096, height: 100, maxZoom: 4 }, 2048)).toEqual({ zoom: 3, scale: 0.5 });
    // Never below the one-tile level.
    expect(rasterLevel({ width: 100_000, height: 100, maxZoom: 2 }, 2048)).toEqual({ zoom: 0, scale: 0.25 });
  });
});

describe('readSheetRaster', () => {
  it('stitches the tiles of a sheet back into its picture, in grey', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sheet-raster-'));
    dirs.push(dir);
    // A white sheet of 1300 × 700 with a black bar whose place is known.
    const width = 1300, height = 700;
    const data = Buffer.alloc(width * height * 3, 255);
    for (let y = 300; y < 320; y++) for (let x = 900; x < 1200; x++) data.fill(0, (y * width + x) * 3, (y * width + x) * 3 + 3);
    const images = await writeSheetImages({ data, width, height, channels: 3 }, dir);
    const full = await readSheetRaster({ width, height, tileSize: images.tileSize, maxZoom: images.maxZoom, tilesDir: path.join(dir, images.tilesDir) }, 2048);
    expect(full).not.toBeNull();
    expect(full!).toMatchObject({ width, height, scale: 1 });
    expect(full!.grey.length).toBe(width * height);
    const at = (x: number, y: number) => full!.grey[y * width + x];
    expect(at(1000, 310)).toBeLessThan(60);
    expect(at(1000, 290)).toBeGreaterThan(200);
    expect(at(100, 100)).toBeGreaterThan(200);
    const half = await readSheetRaster({ width, height, tileSize: images.tileSize, maxZoom: images.maxZoom, tilesDir: path.join(dir, images.tilesDir) }, 700);
    expect(half).toMatchObject({ width: 650, height: 350, scale: 0.5 });
    expect(half!.grey[155 * 650 + 500]).toBeLessThan(60);
  });

  it('answers null when the tiles are not there', async () => {
    expect(await readSheetRaster({ width: 600, height: 400, tileSize: 256, maxZoom: 2, tilesDir: path.join(os.tmpdir(), 'no-such-tiles') })).toBeNull();
  });
});
