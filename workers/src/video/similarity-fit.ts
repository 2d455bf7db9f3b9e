/** The similarity fitted to control points (pure): shared by the projection and its confidence. */
import { ProjectionFailed } from '@sitewalk/core/tools/errors.js';
import type { Similarity2D, Vec2 } from './linear-algebra.js';

/**
 * The least-squares similarity taking `src` onto `dst` (Umeyama, reflection
 * excluded). Two distinct points determine it exactly; more are averaged.
 */
export function fitSimilarity2D(src: Vec2[], dst: Vec2[], weights?: number[]): Similarity2D {
  if (src.length !== dst.length) throw new ProjectionFailed('Control points come in pairs: as many plan points as walk points are needed.');
  if (src.length < 2) throw new ProjectionFailed('At least two control points are needed to place the walk on the sheet.');
  const w = weights ?? src.map(() => 1);
  const W = w.reduce((a, b) => a + b, 0);
  if (!(W > 0)) throw new ProjectionFailed('Control points need positive weights.');
  let msx = 0, msy = 0, mdx = 0, mdy = 0;
  src.forEach((p, i) => {
    msx += (w[i] * p[0]) / W; msy += (w[i] * p[1]) / W;
    mdx += (w[i] * dst[i][0]) / W; mdy += (w[i] * dst[i][1]) / W;
  });
  let a = 0, b = 0, vs = 0, vd = 0;
  src.forEach((p, i) => {
    const x = p[0] - msx, y = p[1] - msy;
    const u = dst[i][0] - mdx, v = dst[i][1] - mdy;
    a += w[i] * (x * u + y * v);
    b += w[i] * (x * v - y * u);
    vs += w[i] * (x * x + y * y);
    vd += w[i] * (u * u + v * v);
  });
  const spread = Math.sqrt(vs / W);
  if (!(spread > 1e-12 * (1 + Math.abs(msx) + Math.abs(msy)))) throw new ProjectionFailed('The control points of the walk all lie at the same place; choose points further apart.');
  if (!(vd > 0)) throw new ProjectionFailed('The control points on the sheet all lie at the same place; choose points further apart.');
  const rotation = Math.atan2(b, a);
  const scale = Math.hypot(a, b) / vs;
  const c = Math.cos(rotation) * scale, s = Math.sin(rotation) * scale;
  return { scale, rotation, tx: mdx - (c * msx - s * msy), ty: mdy - (s * msx + c * msy) };
}
