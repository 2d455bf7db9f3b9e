import fsp from 'node:fs/promises';
import os from 'node:os';
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

// sharp runs libvips on one thread on glibc Linux by default (to limit heap
// fragmentation); cutting a 36-megapixel pyramid is this process's main work,
// so it gets every core. Never lowered: another part of the process may want more.
sharp.concurrency(Math.max(sharp.concurrency(), os.availableParallelism()));

/** Tiles are JPEG: a plan is mostly lines on white, and JPEG encodes several times faster than WebP at a similar size. */
export const TILE_FORMAT = { ext: 'jpg', quality: 85 } as const;

/**
 * Writes what the sheet viewer loads: a tile pyramid for Leaflet's CRS.Simple
 * ("google" layout: tiles/{z}/{y}/{x}.jpg, zoom 0 is one tile holding the
 * whole sheet, the image anchored top-left, edges padded white) and a small
 * thumbnail. Every tile is written, blank ones included, so the viewer never
 * asks for a missing tile.
 */
export async function writeSheetImages(image: RawImage, outDir: string): Promise<SheetImages> {
  const tileSize = SHEET_RENDERING.tileSize;
  const source = () => sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 }, limitInputPixels: false });
  await fsp.mkdir(outDir, { recursive: true });
  const tilesDir = 'tiles';
  const thumbnail = 'thumbnail.jpg';
  await Promise.all([
    source()
      .jpeg({ quality: TILE_FORMAT.quality, chromaSubsampling: '4:4:4' })
      .tile({ size: tileSize, overlap: 0, layout: 'google', skipBlanks: -1, background: { r: 255, g: 255, b: 255, alpha: 1 } })
      .toFile(path.join(outDir, tilesDir)),
    source()
      .resize({ width: SHEET_RENDERING.thumbnailPx, height: SHEET_RENDERING.thumbnailPx, fit: 'inside' })
      .jpeg({ quality: 80 })
      .toFile(path.join(outDir, thumbnail)),
  ]);
  const levels = (await fsp.readdir(path.join(outDir, tilesDir))).filter((d) => /^\d+$/.test(d)).map(Number);
  if (!levels.length) throw new Error('sharp wrote no tile levels');
  return { width: image.width, height: image.height, tileSize, maxZoom: Math.max(...levels), tilesDir, thumbnail };
}
