/**
 * How well a walk laid on a sheet fits the points a person marked, in words
 * they can act on. Where SiteWalk knows the sheet's scale (the certainty of
 * its proposal gives pixels per metre), each marked point is judged by how far
 * the walk passes from it, in metres: within the certainty's threshold the fit
 * is good; beyond, that point and the walk disagree (a point clicked half a
 * metre aside, which the similarity meets while the walls do not). Without a
 * scale, pixels mean nothing to a reader, so the fit's mean error is judged
 * against the sheet's size: within 1 % of its diagonal — about a metre on a
 * floor plan drawn at 1:100 — the fit is good.
 */
export type FitQuality = 'good' | 'check';

/** Share of the sheet's diagonal below which the average error reads as good. */
export const GOOD_FIT_SHARE = 0.01;

export interface FitInput {
  /** The fit's mean error over the marked points, sheet pixels (null: not measured). */
  residualPx: number | null | undefined;
  sheet: { width: number | null; height: number | null };
  /** The certainty's scale and threshold, when SiteWalk measured one. */
  metric?: { pxPerMetre: number; thresholdM: number } | null;
  /** How far the walk passes from each marked point, sheet pixels. */
  missesPx?: number[];
}

export interface Fit {
  quality: FitQuality;
  /** How far the walk passes from the furthest marked point, metres; null without a scale. */
  worstM: number | null;
  /** Which marked point that is (its index among the control points); null without a scale. */
  worstIndex: number | null;
}

/**
 * The fit's quality, with the furthest a marked point is from the walk in metres, and which point, where the scale is
 * known; null when not measured.
 */
export function fitQuality({ residualPx, sheet, metric, missesPx }: FitInput): Fit | null {
  if (metric && metric.pxPerMetre > 0 && missesPx?.length && missesPx.every(Number.isFinite)) {
    const worstIndex = missesPx.indexOf(Math.max(...missesPx));
    const worstM = missesPx[worstIndex] / metric.pxPerMetre;
    return { quality: worstM <= metric.thresholdM ? 'good' : 'check', worstM, worstIndex };
  }
  if (residualPx === null || residualPx === undefined || !Number.isFinite(residualPx)) return null;
  if (!sheet.width || !sheet.height) return null;
  return { quality: residualPx <= GOOD_FIT_SHARE * Math.hypot(sheet.width, sheet.height) ? 'good' : 'check', worstM: null, worstIndex: null };
}

/** How far the walk passes from each marked point: the room of its keyframe against where it was marked, sheet pixels. */
export function controlMissesPx(positions: { keyframe: number; x: number; y: number }[], controls: { keyframe: number; x: number; y: number }[]): number[] {
  return controls.map((c) => {
    const room = positions.find((p) => p.keyframe === c.keyframe);
    return room ? Math.hypot(room.x - c.x, room.y - c.y) : Number.NaN;
  });
}
