import { describe, expect, it } from 'vitest';
import { drawRuns } from './sheet-from-pdf.js';

const p = (page: number, dpi = 215) => ({ page: { page }, dpi });

describe('drawRuns', () => {
  it('draws consecutive pages of one resolution and one colour mode with one pdftoppm', () => {
    const runs = drawRuns([p(1), p(2), p(3), p(4)], [false, false, true, true]);
    expect(runs.map((r) => [r.pages.map((x) => x.page.page), r.colour])).toEqual([
      [[1, 2], false],
      [[3, 4], true],
    ]);
  });

  it('starts another where the page numbers jump or the resolution changes', () => {
    const runs = drawRuns([p(1), p(3), p(4, 150), p(5, 150)], [false, false, false, false]);
    expect(runs.map((r) => r.pages.map((x) => x.page.page))).toEqual([[1], [3], [4, 5]]);
    expect(drawRuns([], [])).toEqual([]);
  });
});
