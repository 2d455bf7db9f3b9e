/**
 * A sheet's picture for snapping a walk to its walls: one level of the
 * sheet's tile pyramid (the "google" layout the sheet viewer reads, level
 * `maxZoom` being full size and each level below it half the one above),
 * stitched into one grey raster no longer than `maxSide` pixels.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { SheetRaster } from './wall-snap.js';

export interface SheetPyramid {
  width: number;
  height: number;
  tileSize: number;
  maxZoom: number;
  /** Folder holding {z}/{y}/{x}.jpg. */
  tilesDir: string;
  /** Reads one tile by its path under tilesDir (a stored folder: core storage's readBuffer); the disk when not given. */
  readTile?: (rel: string) => Promise<Buffer>;
}

/** Longest side of the raster: walls of a few pixels stay visible on an A1 sheet, work stays bounded. */
export const SHEET_RASTER_MAX_SIDE = 2048;

/** The pyramid level to read: the sharpest whose longest side is at most `maxSide`. */
export function rasterLevel(p: Pick<SheetPyramid, 'width' | 'height' | 'maxZoom'>, maxSide = SHEET_RASTER_MAX_SIDE): { zoom: number; scale: number } {
  const longest = Math.max(p.width, p.height);
  const down = Math.min(p.maxZoom, Math.max(0, Math.ceil(Math.log2(longest / maxSide))));
  return { zoom: p.maxZoom - down, scale: 2 ** -down };
}

/** The stitched level as grey pixels, or null when a tile is missing or unreadable (the sheet is then not used). */
export async function readSheetRaster(p: SheetPyramid, maxSide = SHEET_RASTER_MAX_SIDE): Promise<SheetRaster | null> {
  const { zoom, scale } = rasterLevel(p, maxSide);
  const width = Math.max(1, Math.ceil(p.width * scale));
  const height = Math.max(1, Math.ceil(p.height * scale));
  const nx = Math.ceil(width / p.tileSize);
  const ny = Math.ceil(height / p.tileSize);
  const tiles: sharp.OverlayOptions[] = [];
  try {
    for (let y = 0; y < ny; y++) {
      for (let x = 0; x < nx; x++) {
        const rel = `${zoom}/${y}/${x}.jpg`;
        tiles.push({ input: await (p.readTile ? p.readTile(rel) : fsp.readFile(path.join(p.tilesDir, rel))), left: x * p.tileSize, top: y * p.tileSize });
      }
    }
    // Two pipelines: sharp crops before it composites within one.
    const whole = await sharp({ create: { width: nx * p.tileSize, height: ny * p.tileSize, channels: 3, background: '#ffffff' } })
      .composite(tiles)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const { data, info } = await sharp(whole.data, { raw: { width: whole.info.width, height: whole.info.height, channels: whole.info.channels } })
      .extract({ left: 0, top: 0, width, height })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 1) throw new Error(`a grey raster came out with ${info.channels} channels`);
    return { width: info.width, height: info.height, grey: new Uint8Array(data.buffer, data.byteOffset, data.length), scale };
  } catch {
    return null;
  }
}
