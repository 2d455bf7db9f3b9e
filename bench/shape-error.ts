/**
 * The error of a placed walk's shape alone (benches): each placed position's
 * distance to its true place after the best 2D similarity over all of them,
 * so that no control point's own error is counted.
 */
import { applySimilarity, type Vec2 } from '../workers/src/video/linear-algebra.js';
import { fitSimilarity2D } from '../workers/src/video/projection.js';

export function shapeErrors(placed: Vec2[], real: Vec2[]): number[] {
  const best = fitSimilarity2D(placed, real);
  return placed.map((p, i) => {
    const q = applySimilarity(best, p);
    return Math.hypot(q[0] - real[i][0], q[1] - real[i][1]);
  });
}
