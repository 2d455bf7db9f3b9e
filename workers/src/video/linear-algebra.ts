/**
 * The vectors, matrices and transforms the video pipeline's geometry
 * modules share (keyframes, projection, plan snap, rig merge, loop
 * retrieval, floors): one definition each, no framework, no state.
 */
export type Vec2 = [number, number];
export type Vec3 = [number, number, number];
/** Row-major 3×3. */
export type Mat3 = [number, number, number, number, number, number, number, number, number];
/** A quaternion (w, x, y, z). */
export type Quat = [number, number, number, number];

/** A 2D similarity p ↦ s·R(θ)·p + t. */
export interface Similarity2D {
  scale: number;
  /** Radians, counter-clockwise in a y-up frame (clockwise as seen on a y-down image). */
  rotation: number;
  tx: number;
  ty: number;
}

export function applySimilarity(t: Similarity2D, p: Vec2): Vec2 {
  const c = Math.cos(t.rotation) * t.scale;
  const s = Math.sin(t.rotation) * t.scale;
  return [c * p[0] - s * p[1] + t.tx, s * p[0] + c * p[1] + t.ty];
}

// --- Vectors -------------------------------------------------------------------------------------

/** The largest distance between any two of the points (0 for fewer than two): how far apart control points are, their lever. */
export function widestSpan(points: Vec2[]): number {
  let span = 0;
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++) span = Math.max(span, Math.hypot(points[i][0] - points[j][0], points[i][1] - points[j][1]));
  return span;
}

export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const norm = (a: Vec3): number => Math.hypot(a[0], a[1], a[2]);
export const unit = (a: Vec3): Vec3 => {
  const n = norm(a);
  return [a[0] / n, a[1] / n, a[2] / n];
};
/** Angle between two vectors, degrees. */
export const angleDeg = (a: Vec3, b: Vec3): number => (Math.acos(Math.max(-1, Math.min(1, dot(unit(a), unit(b))))) * 180) / Math.PI;

export const meanOf = (ps: Vec3[]): Vec3 => {
  const m: Vec3 = [0, 0, 0];
  for (const p of ps) for (let i = 0; i < 3; i++) m[i] += p[i] / ps.length;
  return m;
};

/** Median of numbers (mean of the two middle ones for an even count); NaN for none. */
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

// --- 3×3 matrices and rotations ------------------------------------------------------------------

/** r · p. */
export const rotate = (r: Mat3, p: Vec3): Vec3 => [r[0] * p[0] + r[1] * p[1] + r[2] * p[2], r[3] * p[0] + r[4] * p[1] + r[5] * p[2], r[6] * p[0] + r[7] * p[1] + r[8] * p[2]];

/** p · q. */
export const mul = (p: Mat3, q: Mat3): Mat3 => {
  const r = new Array(9).fill(0) as Mat3;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[i * 3 + j] += p[i * 3 + k] * q[k * 3 + j];
  return r;
};

export const transpose = (m: Mat3): Mat3 => [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]];

/** A quaternion (w, x, y, z), normalised first, as a row-major rotation matrix. */
export function quatToMat(q: readonly number[]): Mat3 {
  let [w, x, y, z] = q;
  const n = Math.hypot(w, x, y, z) || 1;
  w /= n; x /= n; y /= n; z /= n;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

/** A rotation matrix as a unit quaternion (w, x, y, z) with w ≥ 0. */
export function matToQuat(m: Mat3): Quat {
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

/** Angle of a rotation matrix, degrees. */
export const rotationAngleDeg = (r: Mat3): number => (Math.acos(Math.max(-1, Math.min(1, (r[0] + r[4] + r[8] - 1) / 2))) * 180) / Math.PI;

/** A rotation as its rotation vector (axis × angle in radians, angle ≤ π): the logarithm of SO(3). */
export function rotationLog(m: Mat3): Vec3 {
  const [w, x, y, z] = matToQuat(m);
  const s = Math.hypot(x, y, z);
  // Near the identity angle/sin(angle/2) → 2, and the quotient below loses nothing.
  const k = s < 1e-12 ? 2 : (2 * Math.atan2(s, w)) / s;
  return [k * x, k * y, k * z];
}

/** The rotation of a rotation vector (axis × angle in radians): the exponential of SO(3). */
export function rotationExp(v: Vec3): Mat3 {
  const angle = Math.hypot(v[0], v[1], v[2]);
  const k = angle < 1e-12 ? 0.5 : Math.sin(angle / 2) / angle;
  return quatToMat([Math.cos(angle / 2), k * v[0], k * v[1], k * v[2]]);
}

/** Mean of rotations close to each other (normalised sum of their quaternions, signs aligned to the first). */
export function meanRotation(rotations: Mat3[]): Mat3 {
  const qs = rotations.map(matToQuat);
  const sum = [0, 0, 0, 0];
  for (const q of qs) {
    const sign = q[0] * qs[0][0] + q[1] * qs[0][1] + q[2] * qs[0][2] + q[3] * qs[0][3] < 0 ? -1 : 1;
    for (let i = 0; i < 4; i++) sum[i] += sign * q[i];
  }
  return quatToMat(sum);
}

// --- Linear systems and eigenvalues --------------------------------------------------------------

const det3 = (a: number[]) => a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6]);

/** Solves the 3×3 system m x = v (m row-major, Cramer); null when singular. */
export function solve3(m: number[], v: number[]): Vec3 | null {
  const d = det3(m);
  if (Math.abs(d) < 1e-12) return null;
  const col = (k: number) => m.map((x, i) => (i % 3 === k ? v[Math.floor(i / 3)] : x));
  return [det3(col(0)) / d, det3(col(1)) / d, det3(col(2)) / d];
}

/** Solves the 4×4 system A x = b (Gaussian elimination with partial pivoting); null when singular. */
export function solve4(A: number[][], b: number[]): number[] | null {
  const m = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < 4; c++) {
    let p = c;
    for (let r = c + 1; r < 4; r++) if (Math.abs(m[r][c]) > Math.abs(m[p][c])) p = r;
    if (Math.abs(m[p][c]) < 1e-300) return null;
    [m[c], m[p]] = [m[p], m[c]];
    for (let r = 0; r < 4; r++) {
      if (r === c) continue;
      const k = m[r][c] / m[c][c];
      for (let cc = c; cc < 5; cc++) m[r][cc] -= k * m[c][cc];
    }
  }
  return m.map((row, i) => row[4] / m[i][i]);
}

/** Eigen-decomposition of a symmetric 3×3 matrix (Jacobi); eigenvalues ascending, vectors as rows. */
export function symmetricEigen3(m: number[]): { values: Vec3; vectors: [Vec3, Vec3, Vec3] } {
  const a = [[m[0], m[1], m[2]], [m[3], m[4], m[5]], [m[6], m[7], m[8]]];
  const v = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < 2; p++) {
      for (let q = p + 1; q < 3; q++) {
        if (Math.abs(a[p][q]) < 1e-300) continue;
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1), s = t * c;
        for (let k = 0; k < 3; k++) {
          const akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (let k = 0; k < 3; k++) {
          const apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (let k = 0; k < 3; k++) {
          const vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const idx = [0, 1, 2].sort((i, j) => a[i][i] - a[j][j]);
  return {
    values: idx.map((i) => a[i][i]) as Vec3,
    vectors: idx.map((i) => [v[0][i], v[1][i], v[2][i]] as Vec3) as [Vec3, Vec3, Vec3],
  };
}
