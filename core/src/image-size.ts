import sharp from 'sharp';
import { UPLOAD_LIMITS } from '@sitewalk/proto';
import { payloadTooLarge } from './errors.js';

/**
 * The pixel size of an uploaded image, refused with its size in words when
 * it is over UPLOAD_LIMITS.imagePixels. Only the header is read (sharp's
 * own pixel limit off), so a huge but valid image is told it is too large,
 * not that it may be damaged. `unreadable` makes the error for a file whose
 * header does not read.
 */
export async function imageSizeWithinLimit(filepath: string, unreadable: () => Error): Promise<{ width: number; height: number }> {
  const meta = await sharp(filepath, { limitInputPixels: false }).metadata().catch(() => null);
  if (!meta?.width || !meta.height) throw unreadable();
  if (meta.width * meta.height > UPLOAD_LIMITS.imagePixels) {
    throw payloadTooLarge(`The image is too large: ${meta.width} × ${meta.height} pixels. The limit is ${Math.round(UPLOAD_LIMITS.imagePixels / 1e6)} megapixels.`);
  }
  return { width: meta.width, height: meta.height };
}
