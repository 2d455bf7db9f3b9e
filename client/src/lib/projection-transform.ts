/**
 * The geometry of the projection editor (issue 8): a walk's top-down point
 * cloud, camera path and room dots are laid over a floor sheet by one
 * similarity transform — uniform scale, rotation, translation, and an
 * optional mirror (a reconstruction seen from below the floor comes out
 * mirrored). The editor drags, rotates and scales the overlay, or fits it to
 * two points clicked on the sheet (where the walk started and where it
 * ended). Framework-free and unit-tested; coordinates are plain {x, y}.
 *
 *   sheet = scale · R(rotation) · M(mirror) · source + (tx, ty)
 *
 * where M flips the source's y axis. Sheet coordinates are sheet pixels,
 * origin top-left, y down; the source frame is whatever the server's top-down
 * projection uses (metres, usually).
 */

export interface Point {
  x: number;
  y: number;
}

export interface Similarity {
  /** Sheet pixels per source unit; always > 0. */
  scale: number;
  /** Radians, counter-clockwise in the sheet's x-right, y-down frame, i.e. clockwise on screen. */
  rotation: number;
  tx: number;
  ty: number;
  /** Flip the source's y axis before rotating. */
  mirror: boolean;
}

export const IDENTITY: Similarity = { scale: 1, rotation: 0, tx: 0, ty: 0, mirror: false };

/** Smallest and largest scale the editor allows relative to a starting scale (guards against a zero or runaway drag). */
export const MIN_SCALE = 1e-6;

/** Where a source point lands on the sheet. */
export function apply(t: Similarity, p: Point): Point {
  const c = Math.cos(t.rotation) * t.scale;
  const s = Math.sin(t.rotation) * t.scale;
  const y = t.mirror ? -p.y : p.y;
  return { x: c * p.x - s * y + t.tx, y: s * p.x + c * y + t.ty };
}

/** Where a sheet point comes from in the source frame. */
export function applyInverse(t: Similarity, q: Point): Point {
  const dx = q.x - t.tx;
  const dy = q.y - t.ty;
  const c = Math.cos(t.rotation) / t.scale;
  const s = Math.sin(t.rotation) / t.scale;
  const x = c * dx + s * dy;
  const y = -s * dx + c * dy;
  return { x, y: t.mirror ? -y : y };
}

/** The transform as an affine matrix [a, b, c, d, e, f] (canvas `setTransform`, SVG `matrix()`). */
export function toMatrix(t: Similarity): [number, number, number, number, number, number] {
  const c = Math.cos(t.rotation) * t.scale;
  const s = Math.sin(t.rotation) * t.scale;
  const m = t.mirror ? -1 : 1;
  // x' = a·x + c·y + e ; y' = b·x + d·y + f
  return [c, s, -s * m, c * m, t.tx, t.ty];
}

/** Moves the overlay by (dx, dy) sheet pixels. */
export function translate(t: Similarity, dx: number, dy: number): Similarity {
  return { ...t, tx: t.tx + dx, ty: t.ty + dy };
}

/** Turns the overlay by `angle` radians (clockwise on screen) about a sheet point. */
export function rotateAbout(t: Similarity, angle: number, pivot: Point): Similarity {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const dx = t.tx - pivot.x;
  const dy = t.ty - pivot.y;
  return { ...t, rotation: normaliseAngle(t.rotation + angle), tx: pivot.x + c * dx - s * dy, ty: pivot.y + s * dx + c * dy };
}

/** Grows (factor > 1) or shrinks the overlay about a sheet point. */
export function scaleAbout(t: Similarity, factor: number, pivot: Point): Similarity {
  if (!(factor > 0) || !Number.isFinite(factor)) return t;
  const scale = Math.max(MIN_SCALE, t.scale * factor);
  const f = scale / t.scale;
  return { ...t, scale, tx: pivot.x + (t.tx - pivot.x) * f, ty: pivot.y + (t.ty - pivot.y) * f };
}

/** Mirrors the overlay about a sheet point, keeping that point where it is. */
export function mirrorAbout(t: Similarity, pivot: Point): Similarity {
  const source = applyInverse(t, pivot);
  const flipped: Similarity = { ...t, mirror: !t.mirror };
  const moved = apply(flipped, source);
  return translate(flipped, pivot.x - moved.x, pivot.y - moved.y);
}

/** The angle (radians, clockwise on screen) a drag from `from` to `to` turns about `pivot`. */
export function dragAngle(pivot: Point, from: Point, to: Point): number {
  const a = Math.atan2(from.y - pivot.y, from.x - pivot.x);
  const b = Math.atan2(to.y - pivot.y, to.x - pivot.x);
  return normaliseAngle(b - a, -Math.PI);
}

/** The factor a drag from `from` to `to` scales by about `pivot` (1 when it starts on the pivot). */
export function dragFactor(pivot: Point, from: Point, to: Point): number {
  const a = Math.hypot(from.x - pivot.x, from.y - pivot.y);
  const b = Math.hypot(to.x - pivot.x, to.y - pivot.y);
  return a < 1e-9 || b < 1e-9 ? 1 : b / a;
}

/**
 * The transform that puts `srcA` on `dstA` and `srcB` on `dstB` (the walk's
 * start and end clicked on the plan), keeping the mirror as given. null when
 * either pair coincides (no direction to fit).
 */
export function fitTwoPoints(srcA: Point, srcB: Point, dstA: Point, dstB: Point, mirror = false): Similarity | null {
  const ay = mirror ? -srcA.y : srcA.y;
  const by = mirror ? -srcB.y : srcB.y;
  // As complex numbers: dst = k · src' + t, with k = (dstB − dstA) / (srcB' − srcA').
  const sx = srcB.x - srcA.x;
  const sy = by - ay;
  const dx = dstB.x - dstA.x;
  const dy = dstB.y - dstA.y;
  const den = sx * sx + sy * sy;
  if (den < 1e-12 || dx * dx + dy * dy < 1e-12) return null;
  const kr = (dx * sx + dy * sy) / den;
  const ki = (dy * sx - dx * sy) / den;
  const scale = Math.hypot(kr, ki);
  const rotation = Math.atan2(ki, kr);
  const t: Similarity = { scale, rotation: normaliseAngle(rotation), tx: 0, ty: 0, mirror };
  const at = apply(t, srcA);
  return translate(t, dstA.x - at.x, dstA.y - at.y);
}

export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The bounding box of some points; null for none. */
export function boundsOf(points: Iterable<Point>): Box | null {
  let b: Box | null = null;
  for (const p of points) {
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) continue;
    if (!b) b = { x0: p.x, y0: p.y, x1: p.x, y1: p.y };
    else {
      if (p.x < b.x0) b.x0 = p.x;
      if (p.x > b.x1) b.x1 = p.x;
      if (p.y < b.y0) b.y0 = p.y;
      if (p.y > b.y1) b.y1 = p.y;
    }
  }
  return b;
}

/**
 * A first guess when the server proposes none: the points centred on the
 * sheet, as large as fits within `fill` (0..1) of it, unrotated.
 */
export function fitToSheet(points: Point[], sheet: { width: number; height: number }, fill = 0.8, mirror = false): Similarity {
  const b = boundsOf(points.map((p) => (mirror ? { x: p.x, y: -p.y } : p)));
  if (!b) return { ...IDENTITY, tx: sheet.width / 2, ty: sheet.height / 2, mirror };
  const w = Math.max(b.x1 - b.x0, 1e-9);
  const h = Math.max(b.y1 - b.y0, 1e-9);
  const scale = Math.min((sheet.width * fill) / w, (sheet.height * fill) / h);
  const cx = (b.x0 + b.x1) / 2;
  const cy = (b.y0 + b.y1) / 2;
  // mirror already folded into the box: centre in the mirrored frame.
  return { scale, rotation: 0, tx: sheet.width / 2 - scale * cx, ty: sheet.height / 2 - scale * cy, mirror };
}

/** The centre of the overlay on the sheet: the middle of the transformed points' box (the pivot for rotating and scaling). */
export function overlayCentre(t: Similarity, points: Point[]): Point {
  const b = boundsOf(points.map((p) => apply(t, p)));
  return b ? { x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2 } : { x: t.tx, y: t.ty };
}

/** The angle in [from, from + 2π). */
export function normaliseAngle(a: number, from = 0): number {
  const TWO_PI = 2 * Math.PI;
  let r = (a - from) % TWO_PI;
  if (r < 0) r += TWO_PI;
  return r + from;
}

/** Degrees, rounded to a tenth, in 0..360 (for showing the rotation). */
export const toDegrees = (rad: number) => Math.round(normaliseAngle(rad) * (1800 / Math.PI)) / 10 % 360;

/**
 * Every n-th point so at most `max` remain (drawing 200 000 points on every
 * pan costs more than it shows). Keeps the order.
 */
export function thin<T>(points: T[], max: number): T[] {
  if (points.length <= max) return points;
  const step = points.length / max;
  const out: T[] = [];
  for (let i = 0; i < max; i++) out.push(points[Math.floor(i * step)]);
  return out;
}

/** Whether two transforms place things within `tol` sheet pixels of each other over a box of the source. */
export function sameWithin(a: Similarity, b: Similarity, box: Box, tol: number): boolean {
  const corners = [
    { x: box.x0, y: box.y0 },
    { x: box.x1, y: box.y0 },
    { x: box.x0, y: box.y1 },
    { x: box.x1, y: box.y1 },
  ];
  return corners.every((p) => {
    const pa = apply(a, p);
    const pb = apply(b, p);
    return Math.hypot(pa.x - pb.x, pa.y - pb.y) <= tol;
  });
}
