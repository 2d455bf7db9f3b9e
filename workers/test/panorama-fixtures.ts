import sharp from 'sharp';

export interface Marker {
  /** Top-left corner in the panorama's pixels. */
  x: number;
  y: number;
  size: number;
  color: { r: number; g: number; b: number };
}

export const RED = { r: 255, g: 0, b: 0 };
export const GREEN = { r: 0, g: 255, b: 0 };

/**
 * An equirectangular test panorama: a smooth gradient (red grows to the
 * east, green to the south) with solid squares as markers, encoded as JPEG.
 * It is drawn from a tiny gradient stretched by libvips, so even a 16384 ×
 * 8192 photo costs little memory to make.
 */
export async function equirectangular(width: number, height: number, markers: Marker[] = [], quality = 85): Promise<Buffer> {
  const w = 64;
  const h = 32;
  const raw = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 3;
      raw[i] = Math.round((x / (w - 1)) * 160);
      raw[i + 1] = Math.round((y / (h - 1)) * 160);
      raw[i + 2] = 110;
    }
  }
  // libvips stretches the gradient and draws the markers as the JPEG encoder pulls the pixels: no full-size buffer in memory.
  const image = sharp(raw, { raw: { width: w, height: h, channels: 3 } }).resize(width, height, { fit: 'fill', kernel: 'linear' });
  if (markers.length) {
    image.composite(markers.map((m) => ({ input: { create: { width: m.size, height: m.size, channels: 3 as const, background: m.color } }, left: m.x, top: m.y })));
  }
  return image.jpeg({ quality }).toBuffer();
}

/** The average colour of a small area of an image file. */
export async function colourAt(file: string | Buffer, x: number, y: number, size = 4): Promise<{ r: number; g: number; b: number }> {
  const { data } = await sharp(file).extract({ left: x, top: y, width: size, height: size }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let r = 0;
  let g = 0;
  let b = 0;
  for (let i = 0; i < data.length; i += 3) {
    r += data[i];
    g += data[i + 1];
    b += data[i + 2];
  }
  const n = data.length / 3;
  return { r: r / n, g: g / n, b: b / n };
}

/** Whether a colour is clearly the marker colour (JPEG blurs edges, not centres). */
export const looksLike = (c: { r: number; g: number; b: number }, m: { r: number; g: number; b: number }) =>
  Math.abs(c.r - m.r) < 40 && Math.abs(c.g - m.g) < 40 && Math.abs(c.b - m.b) < 40;
