import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { SHEET_RENDERING } from '@sitewalk/proto';
import { useImageThreads } from './image-threads.js';
import { isGreyscale, type RawImage } from './raw-image.js';

export interface SheetImages {
  width: number;
  height: number;
  tileSize: number;
  maxZoom: number;
  /** Paths relative to the output folder. */
  tilesDir: string;
  thumbnail: string;
}


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


/** The deepest zoom of a sheet's pyramid: zoom 0 is one tile holding the whole sheet, each level doubles. */
export function maxZoomFor(width: number, height: number, tileSize: number = SHEET_RENDERING.tileSize): number {
  return Math.max(0, Math.ceil(Math.log2(Math.max(width, height) / tileSize)));
}

/** The size of a sheet's thumbnail: the page scaled to fit a square of `SHEET_RENDERING.thumbnailPx`. */
export function thumbnailSize(width: number, height: number, box: number = SHEET_RENDERING.thumbnailPx): { width: number; height: number } {
  const scale = Math.min(box / width, box / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * The thumbnail's pipeline. sharp picks a band out only after resizing, so a grey page given as RGB
 * would be shrunk in three bands. Instead its bytes are read as one band three times as wide: as
 * R = G = B, shrinking that row to the thumbnail's width averages whole pixels' values exactly as
 * shrinking the grey page would — half the work, and a one-band JPEG.
 */
function thumbnailOf(image: RawImage, grey: boolean): sharp.Sharp {
  const size = thumbnailSize(image.width, image.height);
  const channels = image.channels ?? 3;
  if (!grey) {
    return sharp(image.data, { raw: { width: image.width, height: image.height, channels }, limitInputPixels: false }).resize({ ...size, fit: 'fill' });
  }
  return sharp(image.data, { raw: { width: image.width * channels, height: image.height, channels: 1 }, limitInputPixels: false })
    .resize({ ...size, fit: 'fill' })
    .toColourspace('b-w');
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
  const channels = image.channels ?? 3;
  useImageThreads('pdfPage');
  const source = () => sharp(image.data, { raw: { width: image.width, height: image.height, channels }, limitInputPixels: false });
  await fsp.mkdir(outDir, { recursive: true });
  const tilesDir = 'tiles';
  const thumbnail = 'thumbnail.jpg';
  // A page drawn in grey is grey; one drawn in colour may still have none.
  const grey = channels === 1 || isGreyscale(image.data, image.width * image.height);
  await Promise.all([
    // (Without 'b-w', sharp would turn one band back into three for its default sRGB output.)
    (channels === 1 ? source().toColourspace('b-w') : grey ? source().extractChannel(0) : source())
      // Standard Huffman tables: optimising them per tile costs a second pass for a few per cent of bytes.
      .jpeg({ quality: TILE_FORMAT.quality, chromaSubsampling: TILE_FORMAT.chromaSubsampling, optimiseCoding: false })
      .tile({ size: tileSize, overlap: 0, layout: 'google', skipBlanks: -1, background: { r: 255, g: 255, b: 255, alpha: 1 } })
      .toFile(path.join(outDir, tilesDir)),
    thumbnailOf(image, grey).jpeg({ quality: 80 }).toFile(path.join(outDir, thumbnail)),
  ]);
  const levels = (await fsp.readdir(path.join(outDir, tilesDir))).filter((d) => /^\d+$/.test(d)).map(Number);
  const maxZoom = maxZoomFor(image.width, image.height, tileSize);
  if (!levels.length || Math.max(...levels) !== maxZoom) throw new Error(`sharp wrote tile levels ${levels.join(',')} instead of 0..${maxZoom}`);
  return { width: image.width, height: image.height, tileSize, maxZoom, tilesDir, thumbnail };
}
