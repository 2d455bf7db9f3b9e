import { describe, expect, it } from 'vitest';
import { planBridges } from './bridges.js';

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
