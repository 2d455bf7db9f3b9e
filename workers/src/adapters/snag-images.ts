import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { runTool } from '@sitewalk/core/tools/run-tool.js';
import { fovForZoom } from '../exports/snag-record.js';

/**
 * The two pictures of a snag in the reports: what the 360 viewer shows at the
 * pin (a perspective view cut from the room's equirectangular photo by
 * ffmpeg's v360 filter) and the sheet around the pin (cut from the sheet's
 * full-resolution tiles by libvips); both with the pin drawn in.
 */

export const SNAPSHOT_SIZE = { width: 800, height: 600 } as const;
/** The panorama is brought down to this width first: wider than any view needs at the viewer's narrowest field of view. */
const PANORAMA_WORK_WIDTH = 6144;
/** How much of the sheet (its pixels) is shown around the pin. */
const SHEET_WINDOW = { width: 1200, height: 900 } as const;

/** A pin: a red dot ringed in white, readable on any background. */
const pinSvg = (w: number, h: number, x: number, y: number, r = 14) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">` +
      `<circle cx="${x}" cy="${y}" r="${r + 3}" fill="none" stroke="white" stroke-width="4"/>` +
      `<circle cx="${x}" cy="${y}" r="${r}" fill="rgba(217,83,79,0.45)" stroke="#d9534f" stroke-width="4"/>` +
      `<circle cx="${x}" cy="${y}" r="3" fill="#d9534f"/></svg>`,
  );

/** JPEG, flattened: a tenth of a PNG's bytes for a photo, and no alpha channel (which would add a soft mask to every picture of a PDF). */
const asJpeg = (png: Buffer) => sharp(png).flatten({ background: '#ffffff' }).jpeg({ quality: 85, mozjpeg: false }).toBuffer();

/** Degrees in −180..180, as v360 wants them. */
export const toDegrees180 = (rad: number) => {
  const d = (((rad * 180) / Math.PI) % 360 + 360) % 360;
  return d > 180 ? d - 360 : d;
};

/** The vertical field of view of a view `w` × `h` pixels with horizontal field `hFov` (degrees). */
export const verticalFov = (hFov: number, w: number, h: number) =>
  (2 * Math.atan(Math.tan((hFov * Math.PI) / 360) * (h / w)) * 180) / Math.PI;

/**
 * The 360 view at the pin: a JPEG of SNAPSHOT_SIZE looking at yaw/pitch
 * (radians, Photo Sphere Viewer's: yaw 0 is the photo's centre, right is
 * positive; pitch up is positive) with the viewer's field of view at `zoom`,
 * the pin in the middle.
 */
export async function panoramaSnapshot(photoPath: string, at: { yaw: number; pitch: number; zoom: number | null }): Promise<Buffer> {
  const { width, height } = SNAPSHOT_SIZE;
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'snag-view-'));
  try {
    const small = path.join(work, 'pano.jpg');
    await sharp(photoPath, { limitInputPixels: false })
      .resize({ width: PANORAMA_WORK_WIDTH, withoutEnlargement: true })
      .jpeg({ quality: 92 })
      .toFile(small);
    const hFov = fovForZoom(at.zoom);
    const filter =
      `v360=input=e:output=flat:yaw=${toDegrees180(at.yaw).toFixed(3)}:pitch=${((at.pitch * 180) / Math.PI).toFixed(3)}` +
      `:h_fov=${hFov.toFixed(3)}:v_fov=${verticalFov(hFov, width, height).toFixed(3)}:w=${width}:h=${height}:interp=cubic`;
    const out = path.join(work, 'view.png');
    const run = await runTool('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', small, '-vf', filter, '-frames:v', '1', out], { timeoutMs: 120_000 });
    if (run.code !== 0) throw new Error(`ffmpeg could not cut the view: ${run.stderr.trim().slice(-500)}`);
    return await asJpeg(await sharp(out).composite([{ input: pinSvg(width, height, width / 2, height / 2), left: 0, top: 0 }]).png().toBuffer());
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

export interface SheetTiles {
  /** Local folder of the tile pyramid: {z}/{y}/{x}.jpg, zoom 0 one tile, the image anchored top-left (pdf-page-tiles.ts). */
  tilesDir: string;
  /** Reads one tile by its path under tilesDir (a stored folder: core storage's readBuffer); the disk when not given. */
  readTile?: (rel: string) => Promise<Buffer>;
  width: number;
  height: number;
  tileSize: number;
  maxZoom: number;
  ext?: string;
}

/**
 * The sheet around a pin at (x, y) sheet pixels: a window of the sheet at
 * full resolution (smaller sheets whole), the pin marked, as a picture of
 * SNAPSHOT_SIZE at most (JPEG).
 */
export async function sheetCrop(sheet: SheetTiles, pin: { x: number; y: number }): Promise<Buffer> {
  const ts = sheet.tileSize;
  const ext = sheet.ext ?? 'jpg';
  const w = Math.min(SHEET_WINDOW.width, sheet.width);
  const h = Math.min(SHEET_WINDOW.height, sheet.height);
  const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));
  const x0 = Math.round(clamp(pin.x - w / 2, 0, sheet.width - w));
  const y0 = Math.round(clamp(pin.y - h / 2, 0, sheet.height - h));
  const c0 = Math.floor(x0 / ts), c1 = Math.floor((x0 + w - 1) / ts);
  const r0 = Math.floor(y0 / ts), r1 = Math.floor((y0 + h - 1) / ts);
  const rels: string[] = [];
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) rels.push(`${sheet.maxZoom}/${r}/${c}.${ext}`);
  const tiles = sheet.readTile ? await Promise.all(rels.map(sheet.readTile)) : rels.map((rel) => path.join(sheet.tilesDir, rel));
  const joined = await sharp(tiles, { join: { across: c1 - c0 + 1 } })
    .extract({ left: x0 - c0 * ts, top: y0 - r0 * ts, width: w, height: h })
    .png()
    .toBuffer();
  const scale = Math.min(1, SNAPSHOT_SIZE.width / w, SNAPSHOT_SIZE.height / h);
  const outW = Math.round(w * scale), outH = Math.round(h * scale);
  const resized = await sharp(joined).resize(outW, outH).png().toBuffer();
  const px = clamp((pin.x - x0) * scale, 0, outW), py = clamp((pin.y - y0) * scale, 0, outH);
  return asJpeg(await sharp(resized).composite([{ input: pinSvg(outW, outH, px, py), left: 0, top: 0 }]).png().toBuffer());
}
