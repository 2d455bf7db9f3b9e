/**
 * The walk fixture's renderer checked the slow way (test/fixtures/walk-video):
 * the nearest hit of a 3D ray with the scene's boxes, the ground (z = 0) and
 * the ceiling or roof (z = `ceiling`), by brute force over every box (slabs
 * in 3D), against which the column caster's pixels are compared.
 */
import type { Box } from '../fixtures/walk-video/scene.js';

export function referenceHit(o: [number, number, number], d: [number, number, number], boxes: Box[], ceiling: number): { r: number; box: number } {
  let best = d[2] < 0 ? -o[2] / d[2] : d[2] > 0 ? (ceiling - o[2]) / d[2] : Infinity;
  let box = -1;
  boxes.forEach((b, k) => {
    let tn = -Infinity;
    let tf = Infinity;
    const lo = [b.x0, b.y0, b.z0];
    const hi = [b.x1, b.y1, b.z1];
    for (let a = 0; a < 3; a++) {
      if (Math.abs(d[a]) < 1e-12) {
        if (o[a] < lo[a] || o[a] > hi[a]) return;
        continue;
      }
      const t1 = (lo[a] - o[a]) / d[a];
      const t2 = (hi[a] - o[a]) / d[a];
      tn = Math.max(tn, Math.min(t1, t2));
      tf = Math.min(tf, Math.max(t1, t2));
    }
    if (tf >= tn && tn > 0 && tn < best) {
      best = tn;
      box = k;
    }
  });
  return { r: best, box };
}
