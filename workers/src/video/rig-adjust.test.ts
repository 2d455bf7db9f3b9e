import { describe, expect, it } from 'vitest';
import { combineTextModels, movePose, rigConfig } from './rig-adjust.js';
import { rigRotationFromView, rotY } from './colmap-model.js';
import { mul, quatToMat, rotate, rotationExp, type Vec3 } from './linear-algebra.js';
import type { Similarity3 } from './rig-merge.js';

const sim: Similarity3 = { scale: 2.5, rotation: rotationExp([0.3, -0.2, 0.9]), translation: [4, -1, 7] };
const moveP = (p: Vec3): Vec3 => {
  const r = rotate(sim.rotation, p);
  return [sim.scale * r[0] + sim.translation[0], sim.scale * r[1] + sim.translation[1], sim.scale * r[2] + sim.translation[2]];
};

describe('a direction model moved into the rig frame', () => {
  it('sees every point where it saw it: the camera moves with the world', () => {
    const q = [0.9, 0.1, -0.3, 0.2];
    const n = Math.hypot(...q);
    const q0 = q.map((x) => x / n);
    const t: Vec3 = [0.5, -0.2, 1.5];
    const moved = movePose(sim, q0, t);
    for (const X of [[1, 2, 3], [-4, 0.5, 9], [0, 0, 0]] as Vec3[]) {
      const before = rotate(quatToMat(q0), X).map((v, i) => v + t[i]);
      const after = rotate(quatToMat(moved.q), moveP(X)).map((v, i) => v + moved.t[i]);
      // The same ray, the depth scaled with the world.
      after.forEach((v, i) => expect(v).toBeCloseTo(sim.scale * before[i], 9));
    }
  });
});

describe('direction models written as one', () => {
  const identity: Similarity3 = { scale: 1, rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0, 0, 0] };
  const a = {
    cameras: '# cams\n1 PINHOLE 640 480 500 500 320 240\n',
    images: '# imgs\n10 1 0 0 0 0 0 0 1 v0/000001.jpg\n100 50 1 200 60 2\n11 1 0 0 0 1 0 0 1 v0/000002.jpg\n110 55 1 210 65 -1\n',
    points: '# pts\n1 0 0 5 255 0 0 0.5 10 0 11 0\n2 1 1 6 0 255 0 0.4 10 1 11 0\n',
  };
  // The second direction's model holds image 11 too (an anchor both took), and image 20 of its own.
  const b = {
    cameras: '2 PINHOLE 640 480 500 500 320 240\n',
    images: '20 1 0 0 0 0 0 0 2 v1/000001.jpg\n300 40 7\n11 1 0 0 0 1 0 0 1 v0/000002.jpg\n310 45 7 320 46 8\n',
    points: '7 2 0 4 1 2 3 0.3 20 0 11 0\n8 3 0 4 4 5 6 0.2 20 1 11 1\n',
  };

  it('keeps a shared image once, drops points left seen once, and numbers the points afresh', () => {
    const c = combineTextModels([
      { text: a, sim: identity },
      { text: b, sim },
    ]);
    expect(c.cameras.trim().split('\n').map((l) => l.split(' ')[0])).toEqual(['1', '2']);
    expect(c.imageCount).toBe(3);
    // Both of b's points were seen by image 20 and the shared image 11, whose copy in b is dropped: seen once, they go.
    expect(c.pointCount).toBe(2);
    const images = c.images.trim().split('\n');
    expect(images.filter((_, i) => i % 2 === 0).map((l) => l.split(' ')[0])).toEqual(['10', '11', '20']);
    // Image 10's observations point at the renumbered points 1 and 2; image 20's at none.
    expect(images[1].split(' ')).toEqual(['100', '50', '1', '200', '60', '2']);
    expect(images[5].split(' ')).toEqual(['300', '40', '-1']);
  });

  it('moves the second model by its similarity', () => {
    const c = combineTextModels([
      { text: b, sim },
      { text: a, sim: identity },
    ]);
    const first = c.points.trim().split('\n')[0].split(' ').map(Number);
    const expected = moveP([2, 0, 4]);
    [1, 2, 3].forEach((i) => expect(first[i]).toBeCloseTo(expected[i - 1], 9));
  });
});

describe('the rig of a 360 frame', () => {
  it('turns each view from the rig by its yaw and does not shift it', () => {
    const rigRotation = rotationExp([0.1, 1.2, -0.05]);
    const config = rigConfig([
      { cameraId: 3, prefix: 'v1/', yawDeg: 130 },
      { cameraId: 1, prefix: 'v0/', yawDeg: 10 },
      { cameraId: 5, prefix: 'v2/', yawDeg: 250 },
    ]) as { ref_camera_id: number; cameras: { camera_id: number; rel_qvec: number[]; rel_tvec: number[] }[] }[];
    expect(config[0].ref_camera_id).toBe(3);
    for (const [i, yaw] of [130, 10, 250].entries()) {
      const cam = config[0].cameras[i];
      expect(cam.rel_tvec).toEqual([0, 0, 0]);
      // The view's own rotation, as the views are cut from the frame (colmap-model.ts rigRotationFromView).
      const view = mul(rotY(-(yaw - 130)), rigRotation);
      expect(rigRotationFromView(view, yaw - 130).every((v, j) => Math.abs(v - rigRotation[j]) < 1e-9)).toBe(true);
      const composed = mul(quatToMat(cam.rel_qvec), rigRotation);
      composed.forEach((v, j) => expect(v).toBeCloseTo(view[j], 9));
    }
  });
});
