import { describe, expect, it } from 'vitest';
import { planSubmaps } from './submaps.js';

const walk = (n: number) => Array.from({ length: n }, (_, i) => i * 10);

describe('planSubmaps', () => {
  it('keeps a short walk whole, with no anchors', () => {
    const order = walk(130);
    expect(planSubmaps(order, [{ a: 0, b: 1200, turnDeg: 0 }])).toEqual([{ keyframes: order, anchors: [] }]);
  });

  it('cuts a long walk into windows no larger than the size, each sharing the overlap with the next, covering every keyframe', () => {
    const order = walk(2581);
    const maps = planSubmaps(order, [], { size: 256, overlap: 32, maxAnchors: 48 });
    expect(maps.length).toBe(Math.ceil((2581 - 32) / (256 - 32)));
    for (const m of maps) expect(m.keyframes.length).toBeLessThanOrEqual(256);
    for (let i = 1; i < maps.length; i++) {
      const shared = maps[i].keyframes.filter((k) => maps[i - 1].keyframes.includes(k));
      expect(shared.length).toBe(32);
    }
    expect(new Set(maps.flatMap((m) => m.keyframes)).size).toBe(2581);
    expect(maps[0].keyframes[0]).toBe(0);
    expect(maps.at(-1)!.keyframes.at(-1)).toBe(25800);
  });

  it('gives a window the earlier keyframes of the places it passes again, never its own or later ones', () => {
    const order = walk(600);
    // Keyframe 5000 (position 500, last window) shows the place of keyframe 100 (first window); 3000 and 3100 are in the same window.
    const loops = [
      { a: 100, b: 5000, turnDeg: 180 },
      { a: 3000, b: 3100, turnDeg: 0 },
      { a: 5500, b: 200, turnDeg: 30 },
    ];
    const maps = planSubmaps(order, loops, { size: 256, overlap: 32, maxAnchors: 48 });
    const last = maps.at(-1)!;
    // The turn is told from the anchor's side: 200's content is 30° further round in 5500, so 5500's is −30° in 200.
    expect(last.anchors).toEqual([
      { keyframe: 100, turnDeg: 180 },
      { keyframe: 200, turnDeg: -30 },
    ]);
    expect(maps[0].anchors).toEqual([]);
    for (const m of maps) for (const a of m.anchors) expect(m.keyframes).not.toContain(a.keyframe);
  });

  it('spreads the anchors over the walk when there are more than it takes', () => {
    const order = walk(1000);
    const loops = Array.from({ length: 200 }, (_, i) => ({ a: i * 10, b: 9990 - i * 10, turnDeg: 0 }));
    const last = planSubmaps(order, loops, { size: 256, overlap: 32, maxAnchors: 10 }).at(-1)!;
    expect(last.anchors.length).toBe(10);
    const kfs = last.anchors.map((a) => a.keyframe);
    expect(Math.max(...kfs) - Math.min(...kfs)).toBeGreaterThan(1000);
  });

  it('refuses an overlap as large as the window', () => {
    expect(() => planSubmaps(walk(10), [], { size: 8, overlap: 8, maxAnchors: 0 })).toThrow(RangeError);
  });
});
