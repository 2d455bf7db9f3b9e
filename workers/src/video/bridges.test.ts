import { describe, expect, it } from 'vitest';
import { planBridges, planLoopBridges } from './bridges.js';

const walk = (n: number) => Array.from({ length: n }, (_, i) => i * 10);

describe('planBridges', () => {
  it('maps nothing again when the walk is one cluster', () => {
    expect(planBridges(walk(100), [walk(100)])).toEqual([]);
    expect(planBridges(walk(100), [])).toEqual([]);
  });

  it('takes the keyframes on both sides of a break, the unplaced between them too', () => {
    const order = walk(100);
    // Keyframes 0–32 in one cluster, 35–99 in another, 33 and 34 placed nowhere (the door).
    const bridges = planBridges(order, [order.slice(35), order.slice(0, 33)], { half: 4, max: 8 });
    expect(bridges).toEqual([order.slice(29, 39)]);
  });

  it('makes one bridge of a walk going back and forth over the same break, and keeps the breaks of the largest pieces', () => {
    const order = walk(200);
    const a = [...order.slice(0, 50), ...order.slice(53, 60), ...order.slice(120, 200)];
    const b = [...order.slice(50, 53), ...order.slice(60, 118)];
    const stray = [order[118], order[119]];
    const all = planBridges(order, [a, b, stray], { half: 5, max: 8 });
    // 49|50, 52|53 and 59|60 are one stretch; b|stray at 117|118 and stray|a at 119|120 another.
    expect(all).toEqual([order.slice(45, 65), order.slice(113, 125)]);
    // With room for one: the breaks between the two large pieces (the other stretch's largest break is into the stray two).
    expect(planBridges(order, [a, b, stray], { half: 5, max: 1 })).toEqual([order.slice(45, 65)]);
  });
});

describe('planLoopBridges', () => {
  const order = walk(300);
  it('maps the two ends of a loop together when no model places both, the other end looking the way this one looks', () => {
    // Keyframes 0–39 in one piece, 40–299 in the other; the walk passes keyframe 10's place again at 200, turned round.
    const placedBy = [order.slice(0, 40), order.slice(0, 40), order.slice(40)];
    const bridges = planLoopBridges(order, [{ a: 100, b: 2000, turnDeg: 178 }], placedBy, { half: 2, max: 4 });
    expect(bridges).toEqual([{ keyframes: [80, 90, 100, 110, 120], anchors: [1980, 1990, 2000, 2010, 2020].map((keyframe) => ({ keyframe, turnDeg: -178 })) }]);
  });

  it('leaves the loops a model already ties, and those with an end placed nowhere', () => {
    const placedBy = [order.slice(0, 150), order.slice(100, 300)];
    const loops = [
      { a: 1100, b: 1400, turnDeg: 0 }, // both in the second model
      { a: 100, b: 2000, turnDeg: 0 }, // untied
      { a: 200, b: 5000, turnDeg: 0 }, // 5000 is no keyframe of the walk
    ];
    expect(planLoopBridges(order, loops, placedBy).map((b) => b.keyframes[3])).toEqual([100]);
  });

  it('spreads at most `max` of them along the walk', () => {
    const placedBy = [order.slice(0, 100), order.slice(100)];
    const loops = Array.from({ length: 40 }, (_, i) => ({ a: i * 20, b: 2000 + i * 20, turnDeg: 0 }));
    expect(planLoopBridges(order, loops, placedBy, { half: 1, max: 4 }).map((b) => b.keyframes[1])).toEqual([100, 300, 500, 700]);
  });
});
