import { describe, expect, it } from 'vitest';
import { controlMissesPx, fitQuality } from './fit-quality';

describe('the quality of a walk fitted to a sheet', () => {
  const sheet = { width: 3000, height: 4000 }; // diagonal 5000 px

  it('without a scale, is good within 1 % of the sheet diagonal and asks to check the points beyond', () => {
    expect(fitQuality({ residualPx: 0, sheet })).toEqual({ quality: 'good', worstM: null, worstIndex: null });
    expect(fitQuality({ residualPx: 50, sheet })?.quality).toBe('good');
    expect(fitQuality({ residualPx: 51, sheet })?.quality).toBe('check');
    expect(fitQuality({ residualPx: 400, sheet })?.quality).toBe('check');
  });

  it('with the scale of the certainty, asks to check the points once the walk passes further from one than its threshold', () => {
    const metric = { pxPerMetre: 100, thresholdM: 0.3 };
    // A mean error well within 1 % of the diagonal, but one point 0.45 m from the walk: the user is asked to check.
    expect(fitQuality({ residualPx: 20, sheet, metric, missesPx: [5, 45, 10] })).toEqual({ quality: 'check', worstM: 0.45, worstIndex: 1 });
    expect(fitQuality({ residualPx: 20, sheet, metric, missesPx: [5, 30, 10] })).toEqual({ quality: 'good', worstM: 0.3, worstIndex: 1 });
    // The furthest point is named, wherever it stands among them.
    expect(fitQuality({ residualPx: 20, sheet, metric, missesPx: [60, 5, 10] })).toMatchObject({ quality: 'check', worstIndex: 0 });
    // A point whose room is not in the proposal: judged as without a scale.
    expect(fitQuality({ residualPx: 20, sheet, metric, missesPx: [5, Number.NaN] })).toEqual({ quality: 'good', worstM: null, worstIndex: null });
  });

  it('says nothing when the fit was not measured or the sheet has no size', () => {
    expect(fitQuality({ residualPx: null, sheet })).toBeNull();
    expect(fitQuality({ residualPx: Number.NaN, sheet })).toBeNull();
    expect(fitQuality({ residualPx: 10, sheet: { width: null, height: 4000 } })).toBeNull();
  });

  it('measures each marked point against the room of its keyframe', () => {
    const positions = [{ keyframe: 0, x: 0, y: 0 }, { keyframe: 4, x: 100, y: 0 }];
    expect(controlMissesPx(positions, [{ keyframe: 0, x: 3, y: 4 }, { keyframe: 4, x: 100, y: 30 }])).toEqual([5, 30]);
    expect(controlMissesPx(positions, [{ keyframe: 9, x: 0, y: 0 }])[0]).toBeNaN();
  });
});
