/**
 * Reading COLMAP's text model (cameras.txt is not needed: intrinsics are
 * fixed) and the geometry of registered views (pure).
 */

export type Vec3 = [number, number, number];
/** Row-major 3×3. */
export type Mat3 = [number, number, number, number, number, number, number, number, number];

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

export function quatToMat([w, x, y, z]: [number, number, number, number]): Mat3 {
  const n = Math.hypot(w, x, y, z) || 1;
  w /= n; x /= n; y /= n; z /= n;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

export function matToQuat(m: Mat3): [number, number, number, number] {
  const [a, b, c, d, e, f, g, h, i] = m;
  const tr = a + e + i;
  let w: number, x: number, y: number, z: number;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    w = s / 4; x = (h - f) / s; y = (c - g) / s; z = (d - b) / s;
  } else if (a > e && a > i) {
    const s = Math.sqrt(1 + a - e - i) * 2;
    w = (h - f) / s; x = s / 4; y = (b + d) / s; z = (c + g) / s;
  } else if (e > i) {
    const s = Math.sqrt(1 + e - a - i) * 2;
    w = (c - g) / s; x = (b + d) / s; y = s / 4; z = (f + h) / s;
  } else {
    const s = Math.sqrt(1 + i - a - e) * 2;
    w = (d - b) / s; x = (c + g) / s; y = (f + h) / s; z = s / 4;
  }
  return w < 0 ? [-w, -x, -y, -z] : [w, x, y, z];
}

export const mul = (p: Mat3, q: Mat3): Mat3 => {
  const r = new Array(9).fill(0) as Mat3;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[i * 3 + j] += p[i * 3 + k] * q[k * 3 + j];
  return r;
};

export const transpose = (m: Mat3): Mat3 => [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];

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
