import { describe, expect, it } from 'vitest';
import { headingDegrees, roomDotLabel, walkLines } from './walk-path';

describe('walk lines on a sheet', () => {
  it('joins the placed rooms of a walk in their order, skipping rooms not on the sheet', () => {
    const lines = walkLines([
      { id: 1, x: 10, y: 10 },
      { id: 2, x: null, y: null },
      { id: 3, x: 20, y: 15 },
      { id: 4, x: 30, y: 40 },
    ]);
    expect(lines).toEqual([{ tone: undefined, points: [{ x: 10, y: 10 }, { x: 20, y: 15 }, { x: 30, y: 40 }] }]);
  });

  it('draws one line per visit on the compare screen', () => {
    const lines = walkLines([
      { id: 1, x: 0, y: 0, tone: 'a' },
      { id: 2, x: 5, y: 0, tone: 'b' },
      { id: 3, x: 0, y: 5, tone: 'a' },
      { id: 4, x: 5, y: 5, tone: 'b' },
    ]);
    expect(lines.map((l) => [l.tone, l.points.length])).toEqual([['a', 2], ['b', 2]]);
  });

  it('draws no line for a single room or rooms standing on one spot', () => {
    expect(walkLines([{ id: 1, x: 3, y: 3 }])).toEqual([]);
    expect(walkLines([{ id: 1, x: 3, y: 3 }, { id: 2, x: 3, y: 3 }])).toEqual([]);
  });
});

describe('room dot helpers', () => {
  it('turns a heading into degrees clockwise from up, and none into null', () => {
    expect(headingDegrees(0)).toBe(0);
    expect(headingDegrees(Math.PI / 2)).toBe(90);
    expect(headingDegrees(-Math.PI / 2)).toBe(270);
    expect(headingDegrees(4 * Math.PI)).toBe(0);
    expect(headingDegrees(null)).toBeNull();
    expect(headingDegrees(Number.NaN)).toBeNull();
  });

  it('names a dot by its number and name', () => {
    expect(roomDotLabel('Entrance', '3')).toBe('3 · Entrance');
    expect(roomDotLabel('Entrance')).toBe('Entrance');
  });
});
