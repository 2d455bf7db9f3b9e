/**
 * Reading COLMAP's text model (cameras.txt is not needed: intrinsics are
 * fixed) and the geometry of registered views (pure).
 */
import { mul, quatToMat, type Mat3, type Vec3 } from './linear-algebra.js';

export interface ModelImage {
  id: number;
  name: string;
  /** World → camera rotation as a quaternion (w, x, y, z), COLMAP's convention. */
  q: [number, number, number, number];
  t: Vec3;
  cameraId: number;
}

export interface ModelPoint {
  xyz: Vec3;
  rgb: [number, number, number];
  error: number;
  trackLength: number;
}

const dataLines = (text: string) => text.split('\n').filter((l) => l.trim() && !l.startsWith('#'));

/** images.txt: two lines per image, the pose line then the 2D points line. */
export function parseImages(text: string): ModelImage[] {
  const out: ModelImage[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (!l.trim() || l.startsWith('#')) continue;
    const f = l.trim().split(/\s+/);
    out.push({
      id: Number(f[0]),
      q: [Number(f[1]), Number(f[2]), Number(f[3]), Number(f[4])],
      t: [Number(f[5]), Number(f[6]), Number(f[7])],
      cameraId: Number(f[8]),
      name: f.slice(9).join(' '),
    });
    i++; // the points line (may be empty)
  }
  return out;
}

export function parsePoints(text: string): ModelPoint[] {
  return dataLines(text).map((l) => {
    const f = l.trim().split(/\s+/);
    return {
      xyz: [Number(f[1]), Number(f[2]), Number(f[3])],
      rgb: [Number(f[4]), Number(f[5]), Number(f[6])],
      error: Number(f[7]),
      trackLength: (f.length - 8) / 2,
    };
  });
}

/** Camera centre in the world: C = −Rᵀ t. */
export function centreOf(img: ModelImage): Vec3 {
  const r = quatToMat(img.q);
  const [tx, ty, tz] = img.t;
  return [-(r[0] * tx + r[3] * ty + r[6] * tz), -(r[1] * tx + r[4] * ty + r[7] * tz), -(r[2] * tx + r[5] * ty + r[8] * tz)];
}

/** Rotation about the camera's y axis (down in COLMAP): turns the optical axis (0,0,1) to (sin θ, 0, cos θ). */
export function rotY(deg: number): Mat3 {
  const t = (deg * Math.PI) / 180;
  const c = Math.cos(t);
  const s = Math.sin(t);
  return [c, 0, s, 0, 1, 0, -s, 0, c];
}

/** The rig's rotation (that of view 0, world → camera) from the rotation of a view looking `yawDeg` right of it. */
export const rigRotationFromView = (viewRotation: Mat3, yawDeg: number): Mat3 => mul(rotY(yawDeg), viewRotation);
