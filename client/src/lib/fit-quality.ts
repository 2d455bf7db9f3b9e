/**
 * How well a walk laid on a sheet fits the points a person marked, in words
 * they can act on. The fit's error is in sheet pixels, which mean nothing
 * to a reader (a sheet has no drawing scale to turn them into metres), so it
 * is judged against the sheet's size: within 1 % of its diagonal — about a
 * metre on a floor plan drawn at 1:100 — the fit is good; beyond, the marked
 * points disagree with the walk and are worth checking.
 */
export type FitQuality = 'good' | 'check';

/** Share of the sheet's diagonal below which the average error reads as good. */
export const GOOD_FIT_SHARE = 0.01;

/** The fit's quality, or null when it was not measured (fewer than two points) or the sheet has no size. */
export function fitQuality(residualPx: number | null | undefined, sheet: { width: number | null; height: number | null }): FitQuality | null {
  if (residualPx === null || residualPx === undefined || !Number.isFinite(residualPx)) return null;
  if (!sheet.width || !sheet.height) return null;
  return residualPx <= GOOD_FIT_SHARE * Math.hypot(sheet.width, sheet.height) ? 'good' : 'check';
}
