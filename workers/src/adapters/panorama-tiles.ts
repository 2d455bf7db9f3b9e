import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { ROOM_IMAGE, type PanoramaLevel } from '@sitewalk/proto';
import { useImageThreads } from './image-threads.js';

/** A photo that can never become a panorama (damaged, not 2:1, too large): the room fails with this message, no retry. */
export class PanoramaRejected extends Error {}

export const PANORAMA_DAMAGED = 'This photo is damaged and cannot be read to the end. Upload the original file from the camera again.';

/** Tiles: JPEG at the quality of `vips dzsave`'s default suffix, without the extra Huffman pass (a fifth slower for 3 % smaller tiles). */
export const PANORAMA_JPEG = { quality: 80, optimiseCoding: false } as const;

export interface PanoramaGrid {
  /** Square tile side. */
  tileSize: number;
  /** Columns of the largest level (a power of two); rows are half. */
  cols: number;
  /** Width of the largest level: tileSize × cols, within cols / 2 pixels of the photo's width. */
  width: number;
}

/**
 * The tile grid of a panorama `width` pixels wide: square tiles between 512
 * and 1023 pixels, a power-of-two number of columns (Photo Sphere Viewer
 * wants powers of two, at most 64), so that every level — the largest one
 * halved again and again — is a whole number of tiles and keeps the photo's
 * resolution.
 */
export function panoramaGrid(width: number): PanoramaGrid {
  let cols = 2;
  while (Math.round(width / cols) > ROOM_IMAGE.maxTileSize) cols *= 2;
  const tileSize = Math.round(width / cols);
  return { tileSize, cols, width: tileSize * cols };
}

/**
 * The levels given to the viewer, smallest first: every level wider than the
 * base image (which the viewer already shows), and always the largest one.
 * Each takes an equal share of the zoom range 0..100.
 */
export function panoramaLevels(grid: PanoramaGrid, baseWidth: number): { level: PanoramaLevel; dzLevel: number }[] {
  const top = Math.log2(grid.cols);
  const picked: number[] = [];
  for (let j = 1; j <= top; j++) if (grid.tileSize * 2 ** j > baseWidth || j === top) picked.push(j);
  return picked.map((j, i) => ({
    dzLevel: j,
    level: {
      width: grid.tileSize * 2 ** j,
      cols: 2 ** j,
      rows: 2 ** (j - 1),
      zoomRange: [Math.round((100 * i) / picked.length), Math.round((100 * (i + 1)) / picked.length)] as [number, number],
    },
  }));
}

export interface PanoramaImages {
  /** The photo's size. */
  sourceWidth: number;
  sourceHeight: number;
  /** Width of the largest level. */
  width: number;
  tileSize: number;
  levels: PanoramaLevel[];
  /** Paths relative to the output folder. */
  base: string;
  baseWidth: number;
  thumbnail: string;
  tilesDir: string;
  /** Tiles written, all levels together. */
  tiles: number;
}

/**
 * Starts libvips before the first photo comes: its threads and the JPEG codec
 * cost ~20 ms on first use, which a process serving 360 photos pays at start
 * instead of in the first room's job.
 */
export async function warmImageLibrary(): Promise<void> {
  useImageThreads('panorama');
  const small = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#808080' } }).jpeg(PANORAMA_JPEG).toBuffer();
  await sharp(small).resize(32, 16).jpeg(PANORAMA_JPEG).toBuffer();
}

/** Reads the photo's header and checks it can be a panorama. */
async function inspect(sourcePath: string): Promise<{ width: number; height: number }> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(sourcePath, { limitInputPixels: false }).metadata();
  } catch {
    throw new PanoramaRejected(PANORAMA_DAMAGED);
  }
  const { width, height } = meta;
  if (!width || !height) throw new PanoramaRejected(PANORAMA_DAMAGED);
  if (width * height > ROOM_IMAGE.maxPixels || width > ROOM_IMAGE.maxWidth) {
    throw new PanoramaRejected(`The photo is too large: ${width} × ${height} pixels. The largest 360 photo accepted is 16384 × 8192.`);
  }
  if (Math.abs(width / height - 2) > 2 * ROOM_IMAGE.ratioTolerance) {
    throw new PanoramaRejected(`This photo is ${width} × ${height} pixels, so it is not a 360 photo: a 360 photo (equirectangular) is twice as wide as it is high.`);
  }
  if (width < ROOM_IMAGE.minWidth) throw new PanoramaRejected(`This 360 photo is only ${width} × ${height} pixels; it must be at least ${ROOM_IMAGE.minWidth} wide.`);
  return { width, height };
}

/** libvips' words for an input it could not decode. */
const DECODE_ERROR = /premature end|corrupt|truncated|invalid|bad (huffman|marker)|not a (jpeg|png)|unsupported image|vipsjpeg|vipspng|webp|read error|out of order|incorrect/i;

/**
 * Writes what the 360 viewer loads, for Photo Sphere Viewer's
 * EquirectangularTilesAdapter: the tile pyramid (tiles/{level}/{col}_{row}.jpeg,
 * levels as `levels` lists them), the low-resolution base panorama and a
 * 480 × 240 thumbnail. libvips cuts every level in one pass over the photo
 * (dzsave, reading it once, top to bottom), so memory stays bounded by a few
 * strips of the image whatever its size. The base image and thumbnail are
 * put together from the tiles of the base's level after the cut.
 */
export async function writePanorama(sourcePath: string, outDir: string): Promise<PanoramaImages> {
  const { width: sourceWidth, height: sourceHeight } = await inspect(sourcePath);
  const grid = panoramaGrid(sourceWidth);
  const baseLevel = Math.min(Math.log2(grid.cols), Math.max(1, Math.floor(Math.log2(ROOM_IMAGE.baseWidth / grid.tileSize))));
  const baseWidth = grid.tileSize * 2 ** baseLevel;
  const levels = panoramaLevels(grid, baseWidth);
  await fsp.mkdir(outDir, { recursive: true });
  const work = path.join(outDir, '.dz');
  const tilesDir = path.join(outDir, 'tiles');
  await fsp.mkdir(tilesDir, { recursive: true });
  useImageThreads('panorama');
  const open = () => sharp(sourcePath, { sequentialRead: true, limitInputPixels: ROOM_IMAGE.maxPixels, failOn: 'error' });
  const rejectDamaged = (err: Error) => {
    if (DECODE_ERROR.test(err.message)) throw new PanoramaRejected(PANORAMA_DAMAGED);
    throw err;
  };
  /** The base image, and the thumbnail from it. */
  const smallImages = async (base: sharp.Sharp) => {
    const jpeg = await base.jpeg({ quality: 82 }).toBuffer().catch(rejectDamaged);
    await Promise.all([
      fsp.writeFile(path.join(outDir, 'base.jpg'), jpeg),
      sharp(jpeg).resize(ROOM_IMAGE.thumbnailWidth, ROOM_IMAGE.thumbnailWidth / 2).jpeg({ quality: 78 }).toFile(path.join(outDir, 'thumb.jpg')),
    ]);
  };
  // A few pixels off a whole number of tiles (or of 2:1): stretched onto the grid, which nobody sees on a sphere.
  const onGrid = sourceWidth === grid.width && sourceHeight === grid.width / 2;
  await (onGrid ? open() : open().resize(grid.width, grid.width / 2, { fit: 'fill', kernel: 'lanczos3' }))
    .jpeg(PANORAMA_JPEG)
    .tile({ size: grid.tileSize, overlap: 0, layout: 'dz', depth: 'onetile', container: 'fs' })
    .toFile(path.join(work, 'pyramid'))
    .catch(rejectDamaged);
  const dzFiles = path.join(work, 'pyramid_files');
  // The base image from the tiles of its level, which the cut makes anyway (libvips arrayjoin of a few
  // small JPEGs): cheaper than reading the photo a second time beside the cut (measured: bench/).
  const baseCols = 2 ** baseLevel;
  const tilesOfBase: string[] = [];
  for (let row = 0; row < baseCols / 2; row++) for (let col = 0; col < baseCols; col++) tilesOfBase.push(path.join(dzFiles, String(baseLevel), `${col}_${row}.jpeg`));
  await smallImages(sharp(tilesOfBase, { join: { across: baseCols } }));
  // Keep the levels the viewer reads, numbered as it asks for them.
  for (const [i, l] of levels.entries()) await fsp.rename(path.join(dzFiles, String(l.dzLevel)), path.join(tilesDir, String(i)));
  const tiles = levels.reduce((n, l) => n + l.level.cols * l.level.rows, 0);
  await fsp.rm(work, { recursive: true, force: true });
  return {
    sourceWidth,
    sourceHeight,
    width: grid.width,
    tileSize: grid.tileSize,
    levels: levels.map((l) => l.level),
    base: 'base.jpg',
    baseWidth,
    thumbnail: 'thumb.jpg',
    tilesDir: 'tiles',
    tiles,
  };
}
