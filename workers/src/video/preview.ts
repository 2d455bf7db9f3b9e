import sharp from 'sharp';
import type { Projection } from './projection.js';

/** RGBA overlay of a projection (pure): points as dots in their own colour, the camera path as a red line, rooms as rings. */
export function drawOverlay(width: number, height: number, projection: Pick<Projection, 'points' | 'rooms'>, rgb?: Uint8Array): Uint8Array {
  const img = new Uint8Array(width * height * 4);
  const put = (x: number, y: number, r: number, g: number, b: number, a = 255) => {
    x = Math.round(x);
    y = Math.round(y);
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const o = (y * width + x) * 4;
    img[o] = r; img[o + 1] = g; img[o + 2] = b; img[o + 3] = Math.max(img[o + 3], a);
  };
  const pts = projection.points;
  for (let i = 0; i < pts.length / 2; i++) {
    const [r, g, b] = rgb ? [rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2]] : [40, 90, 200];
    put(pts[i * 2], pts[i * 2 + 1], r, g, b, 200);
    put(pts[i * 2] + 1, pts[i * 2 + 1], r, g, b, 200);
  }
  const rooms = projection.rooms;
  for (let k = 1; k < rooms.length; k++) {
    const a = rooms[k - 1], b = rooms[k];
    const n = Math.max(1, Math.ceil(Math.hypot(b.x - a.x, b.y - a.y)));
    for (let s = 0; s <= n; s++) {
      const x = a.x + ((b.x - a.x) * s) / n, y = a.y + ((b.y - a.y) * s) / n;
      for (let dx = -1; dx <= 1; dx++) for (let dy = -1; dy <= 1; dy++) put(x + dx, y + dy, 220, 30, 30);
    }
  }
  for (const r of rooms) {
    for (let t = 0; t < 40; t++) {
      const an = (t / 40) * 2 * Math.PI;
      for (const rad of [4, 5]) put(r.x + rad * Math.cos(an), r.y + rad * Math.sin(an), 255, 200, 0);
    }
  }
  return img;
}

/**
 * The preview of a projection as a PNG: the overlay drawn with sharp over
 * the sheet image (scaled to the sheet size), or over white when there is
 * no sheet image.
 */
export async function renderPreview(
  sheet: { width: number; height: number; image?: string | Buffer },
  projection: Pick<Projection, 'points' | 'rooms'>,
  rgb?: Uint8Array,
): Promise<Buffer> {
  const { width, height } = sheet;
  const overlay = Buffer.from(drawOverlay(width, height, projection, rgb));
  const base = sheet.image
    ? sharp(sheet.image).resize(width, height, { fit: 'fill' }).flatten({ background: '#ffffff' })
    : sharp({ create: { width, height, channels: 3, background: '#ffffff' } });
  const under = await base.png().toBuffer();
  return sharp(under).composite([{ input: overlay, raw: { width, height, channels: 4 } }]).png().toBuffer();
}
