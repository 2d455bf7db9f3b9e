import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { SHEET_RENDERING } from '@sitewalk/proto';
import type { RawImage } from './pdf-render.js';

export interface SheetImages {
  width: number;
  height: number;
  tileSize: number;
  maxZoom: number;
  /** Paths relative to the output folder. */
  tilesDir: string;
  thumbnail: string;
}

// One libvips thread per pipeline (sharp's own default on glibc Linux, which
// also limits heap fragmentation): the job runs pages side by side, one per
// core, instead. Measured on 2 cores, cutting one A1 page with two libvips
// threads took the same time as with one (1.11 s) for 35 % more CPU: the
// pyramid writer hardly scales past one thread.
sharp.concurrency(1);

/**
 * Tiles are JPEG: a plan is mostly lines on white, and JPEG encodes several
 * times faster than WebP at a similar size. Colour keeps its full resolution
 * (4:4:4): with 4:2:0 a thin red markup line washes out to pink once the
 * sheet is zoomed out (tried: the sheet test's red title block then fails),
 * for only a tenth less encoding work. A page with no colour at all (most
 * plan sets) is encoded as one grey channel instead, which loses nothing and
 * saves about a quarter of the encoding work.
 */
export const TILE_FORMAT = { ext: 'jpg', quality: 85, chromaSubsampling: '4:4:4' } as const;

/** Whether every pixel of packed RGB is grey (R = G = B): such a page needs one channel, not three. */
export function isGreyscale(rgb: Uint8Array, pixels: number = Math.floor(rgb.length / 3)): boolean {
  const end = pixels * 3;
  for (let i = 0; i < end; i += 3) {
    const r = rgb[i];
    if (r !== rgb[i + 1] || r !== rgb[i + 2]) return false;
  }
  return true;
}

/** The deepest zoom of a sheet's pyramid: zoom 0 is one tile holding the whole sheet, each level doubles. */
export function maxZoomFor(width: number, height: number, tileSize: number = SHEET_RENDERING.tileSize): number {
  return Math.max(0, Math.ceil(Math.log2(Math.max(width, height) / tileSize)));
}

/**
 * Writes what the sheet viewer loads: a tile pyramid for Leaflet's CRS.Simple
 * ("google" layout: tiles/{z}/{y}/{x}.jpg, zoom 0 is one tile holding the
 * whole sheet, the image anchored top-left, edges padded white) and a small
 * thumbnail. libvips cuts the whole pyramid in one pass over the image
 * (dzsave), strip by strip, shrinking as it goes. Every tile is written,
 * blank ones included, so the viewer never asks for a missing tile.
 */
export async function writeSheetImages(image: RawImage, outDir: string): Promise<SheetImages> {
  const tileSize = SHEET_RENDERING.tileSize;
  const source = () => sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 }, limitInputPixels: false });
  await fsp.mkdir(outDir, { recursive: true });
  const tilesDir = 'tiles';
  const thumbnail = 'thumbnail.jpg';
  const grey = isGreyscale(image.data, image.width * image.height);
  await Promise.all([
    (grey ? source().extractChannel(0) : source())
      // Standard Huffman tables: optimising them per tile costs a second pass for a few per cent of bytes.
      .jpeg({ quality: TILE_FORMAT.quality, chromaSubsampling: TILE_FORMAT.chromaSubsampling, optimiseCoding: false })
      .tile({ size: tileSize, overlap: 0, layout: 'google', skipBlanks: -1, background: { r: 255, g: 255, b: 255, alpha: 1 } })
      .toFile(path.join(outDir, tilesDir)),
    source()
      .resize({ width: SHEET_RENDERING.thumbnailPx, height: SHEET_RENDERING.thumbnailPx, fit: 'inside' })
      .jpeg({ quality: 80 })
      .toFile(path.join(outDir, thumbnail)),
  ]);
  const levels = (await fsp.readdir(path.join(outDir, tilesDir))).filter((d) => /^\d+$/.test(d)).map(Number);
  const maxZoom = maxZoomFor(image.width, image.height, tileSize);
  if (!levels.length || Math.max(...levels) !== maxZoom) throw new Error(`sharp wrote tile levels ${levels.join(',')} instead of 0..${maxZoom}`);
  return { width: image.width, height: image.height, tileSize, maxZoom, tilesDir, thumbnail };
}
