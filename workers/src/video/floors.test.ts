import { describe, expect, it } from 'vitest';
import { splitClusterByFloor, splitFloors, type FloorPose } from './floors.js';
import { mul, rotate, type Mat3, type Vec3 } from './linear-algebra.js';

/** A reconstruction's arbitrary frame: turned, scaled by 0.37 and shifted, world up (0, 0, 1) going to `up`. */
const R: Mat3 = mul([1, 0, 0, 0, Math.cos(1.1), -Math.sin(1.1), 0, Math.sin(1.1), Math.cos(1.1)], [Math.cos(0.4), -Math.sin(0.4), 0, Math.sin(0.4), Math.cos(0.4), 0, 0, 0, 1]);
const toModel = (p: Vec3): Vec3 => rotate(R, p).map((v, i) => 0.37 * v + [3, -1, 2][i]) as Vec3;
const up = rotate(R, [0, 0, 1]);

/** A walk in metres: legs of keyframes 0.5 m apart, each leg level or climbing 0.3 m a keyframe (a stair's slope), with a ±3 cm bob. */
function walk(legs: { n: number; rise: number; dir: [number, number] }[]): FloorPose[] {
  const out: FloorPose[] = [];
  let x = 0, y = 0, z = 1.6;
  for (const leg of legs) {
    for (let i = 0; i < leg.n; i++) {
      x += 0.5 * leg.dir[0];
      y += 0.5 * leg.dir[1];
      z += leg.rise;
      out.push({ keyframe: out.length, centre: toModel([x, y, z + 0.03 * Math.sin(out.length * 2.1)]) });
    }
  }
  return out;
}

/** Along the ground floor, up a flight, along the upper floor, down the flight and a little way on. */
const UP_AND_BACK_DOWN = [
  { n: 30, rise: 0, dir: [1, 0] as [number, number] },
  { n: 10, rise: 0.3, dir: [0, 1] as [number, number] },
  { n: 30, rise: 0, dir: [-1, 0] as [number, number] },
  { n: 10, rise: -0.3, dir: [0, -1] as [number, number] },
  { n: 12, rise: 0, dir: [1, 0] as [number, number] },
];

describe('splitFloors', () => {
  it('cuts a walk up the stairs and back into floors and stairs, the same storey twice numbered alike', () => {
    const poses = walk(UP_AND_BACK_DOWN);
    const segments = splitFloors(poses, up);
    expect(segments.map((s) => `${s.kind}${s.floor ?? ''}`)).toEqual(['floor0', 'stairs', 'floor1', 'stairs', 'floor0']);
    // Every keyframe in exactly one segment, in walking order; the stairs hold about the stair keyframes.
    expect(segments.flatMap((s) => s.keyframes)).toEqual(poses.map((p) => p.keyframe));
    for (const s of segments.filter((x) => x.kind === 'stairs')) expect(Math.abs(s.keyframes.length - 10)).toBeLessThanOrEqual(3);
    expect(segments[2].keyframes).toContain(55);
  });

  it('keeps a walk on one storey whole, bobbing, turning on the spot or going up a small ramp', () => {
    const level = walk([{ n: 40, rise: 0, dir: [1, 0] }, { n: 5, rise: 0, dir: [0, 0] }, { n: 4, rise: 0.1, dir: [0, 1] }, { n: 30, rise: 0, dir: [-1, 0] }]);
    const segments = splitFloors(level, up);
    expect(segments).toHaveLength(1);
    expect(segments[0]).toMatchObject({ kind: 'floor', floor: 0 });
    expect(segments[0].keyframes).toHaveLength(level.length);
    expect(splitFloors([], up)).toEqual([]);
  });

  it('gives each storey of a cluster its own keyframes and the points between its floor and its ceiling', () => {
    const poses = walk([{ n: 30, rise: 0, dir: [1, 0] }, { n: 10, rise: 0.3, dir: [0, 1] }, { n: 30, rise: 0, dir: [-1, 0] }]);
    // Floors at z = 0 and 3, ceilings at 2.7 and 5.7, coloured by storey (red below, green above).
    const world: Vec3[] = [[2, 1, 0], [5, 2, 2.7], [3, 4, 3], [6, 1, 5.7]];
    const xyz = new Float32Array(world.flatMap(toModel));
    const rgb = new Uint8Array([255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 0]);
    const parts = splitClusterByFloor(poses, xyz, rgb, up);
    expect(parts.map((p) => `${p.segment.kind}${p.segment.floor ?? ''}`)).toEqual(['floor0', 'stairs', 'floor1']);
    expect([...parts[0].rgb]).toEqual([255, 0, 0, 255, 0, 0]);
    expect([...parts[2].rgb]).toEqual([0, 255, 0, 0, 255, 0]);
    expect(parts[2].poses.map((p) => p.keyframe)).toEqual(parts[2].segment.keyframes);
    expect(splitClusterByFloor(poses.slice(0, 30), xyz, rgb, up)[0].xyz).toBe(xyz);
  });

  it('lays a walk that comes back down to its start as one ground floor, the two flights apart', () => {
    const poses = walk(UP_AND_BACK_DOWN);
    const world: Vec3[] = [[2, 1, 0], [5, 2, 2.7], [3, 4, 3], [6, 1, 5.7]];
    const parts = splitClusterByFloor(poses, new Float32Array(world.flatMap(toModel)), new Uint8Array(12), up);
    expect(parts.map((p) => `${p.segment.kind}${p.segment.floor ?? ''}`)).toEqual(['floor0', 'stairs', 'floor1', 'stairs']);
    // The ground floor: the walk's first 30-odd keyframes and its last 12-odd, in walking order, with the ground floor's points.
    const ground = parts[0].poses.map((p) => p.keyframe);
    expect(ground).toEqual([...ground].sort((a, b) => a - b));
    expect(ground).toContain(0);
    expect(ground).toContain(poses.length - 1);
    expect(ground.length).toBeGreaterThan(38);
    expect(parts[0].xyz.length).toBe(6);
    // Every keyframe in exactly one part.
    expect(parts.flatMap((p) => p.poses.map((q) => q.keyframe)).sort((a, b) => a - b)).toEqual(poses.map((p) => p.keyframe));
  });
});
