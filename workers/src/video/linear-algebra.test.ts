import { describe, expect, it } from 'vitest';
import {
  angleDeg,
  cross,
  dot,
  matToQuat,
  meanOf,
  meanRotation,
  median,
  mul,
  norm,
  quatToMat,
  rotationExp,
  rotationLog,
  rotate,
  rotationAngleDeg,
  solve3,
  solve4,
  sub,
  symmetricEigen3,
  transpose,
  unit,
  type Mat3,
  type Vec3,
  widestSpan,
} from './linear-algebra.js';

const rotZ = (deg: number): Mat3 => {
  const t = (deg * Math.PI) / 180;
  return [Math.cos(t), -Math.sin(t), 0, Math.sin(t), Math.cos(t), 0, 0, 0, 1];
};
const rotX = (deg: number): Mat3 => {
  const t = (deg * Math.PI) / 180;
  return [1, 0, 0, 0, Math.cos(t), -Math.sin(t), 0, Math.sin(t), Math.cos(t)];
};
const close = (a: number[], b: number[], digits = 9) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i], digits));

describe('vectors', () => {
  it('dot, cross, norm, unit, angle and mean', () => {
    const a: Vec3 = [1, 2, 3];
    const b: Vec3 = [-2, 0, 1];
    expect(dot(a, b)).toBe(1);
    const c = cross(a, b);
    expect(dot(c, a)).toBe(0);
    expect(dot(c, b)).toBe(0);
    close(cross([1, 0, 0], [0, 1, 0]), [0, 0, 1]);
    expect(norm([3, 4, 12])).toBe(13);
    expect(norm(unit([3, 4, 12]))).toBeCloseTo(1, 12);
    close(sub(a, b), [3, 2, 2]);
    expect(angleDeg([1, 0, 0], [0, 5, 0])).toBeCloseTo(90, 9);
    close(meanOf([a, b]), [-0.5, 1, 2]);
  });

  it('median of odd, even and no numbers', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe('rotations', () => {
  it('quaternion and matrix round trip, whatever the quaternion’s length and sign', () => {
    const r = mul(rotZ(33), rotX(-71));
    const q = matToQuat(r);
    expect(q[0]).toBeGreaterThanOrEqual(0);
    close(quatToMat(q), r);
    close(quatToMat(q.map((x) => -3 * x)), r);
    // A half turn (trace −1) takes the other branches of matToQuat.
    close(quatToMat(matToQuat(rotX(180))), rotX(180));
    close(quatToMat(matToQuat(rotZ(180))), rotZ(180));
  });

  it('products, transposes and angles of rotations', () => {
    const r = rotZ(40);
    close(mul(r, transpose(r)), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(rotationAngleDeg(mul(rotZ(25), transpose(rotZ(-15))))).toBeCloseTo(40, 9);
    close(rotate(rotZ(90), [1, 0, 0]), [0, 1, 0]);
    expect(rotationAngleDeg(mul(transpose(meanRotation([rotZ(10), rotZ(14), rotZ(12)])), rotZ(12)))).toBeLessThan(1e-6);
  });

  it('rotation vectors: a quarter turn about z is (0, 0, π/2), and back; the identity is the zero vector', () => {
    close(rotationLog(rotZ(90)), [0, 0, Math.PI / 2]);
    close(rotationExp([0, 0, Math.PI / 2]), rotZ(90));
    close(rotationLog([1, 0, 0, 0, 1, 0, 0, 0, 1]), [0, 0, 0]);
    const r = mul(rotZ(33), rotX(-71));
    close(rotationExp(rotationLog(r)), r);
    expect(norm(rotationLog(r)) * (180 / Math.PI)).toBeCloseTo(rotationAngleDeg(r), 9);
  });
});

describe('linear systems', () => {
  it('solve3 solves, or says singular', () => {
    const m = [2, 1, 0, 1, 3, 1, 0, 1, 4];
    const x: Vec3 = [1, -2, 0.5];
    close(solve3(m, rotate(m as Mat3, x))!, x);
    expect(solve3([1, 2, 3, 2, 4, 6, 0, 0, 1], [1, 2, 3])).toBeNull();
  });

  it('solve4 solves with pivoting, or says singular', () => {
    const A = [[0, 1, 0, 0], [1, 0, 2, 0], [0, 0, 1, 3], [4, 0, 0, 1]];
    const x = [1, 2, 3, 4];
    const b = A.map((row) => row.reduce((s, a, j) => s + a * x[j], 0));
    close(solve4(A, b)!, x);
    expect(solve4([[1, 2, 0, 0], [2, 4, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], [1, 2, 3, 4])).toBeNull();
  });

  it('symmetricEigen3 gives ascending eigenvalues and their vectors', () => {
    const r = mul(rotZ(17), rotX(40));
    const m = mul(transpose(r), mul([5, 0, 0, 0, 1, 0, 0, 0, 3], r));
    const e = symmetricEigen3(m);
    close(e.values, [1, 3, 5]);
    e.vectors.forEach((v, i) => close(rotate(m, v), v.map((x) => x * e.values[i])));
  });

  it('measures the widest span of a set of points, 0 for fewer than two', () => {
    expect(widestSpan([])).toBe(0);
    expect(widestSpan([[3, 4]])).toBe(0);
    expect(widestSpan([[0, 0], [3, 4], [1, 1]])).toBe(5);
  });
});
