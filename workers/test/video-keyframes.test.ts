import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { KeyframeChooser, blockShifts, fitMotion, signature, type GreyFrame } from '../src/video/keyframes.js';
import { choosePairs, angleDiff, matchRuns } from '../src/video/pairs.js';
import { renderView, viewMap, yuv420ToRgb } from '../src/video/equirect.js';
import { decodePly, encodePly } from '../src/video/ply.js';
import { drawOverlay, renderPreview } from '../src/video/preview.js';

const W = 256;
const H = 128;

/** A textured panorama (value noise), sampled shifted by `shiftPx` columns (a camera turning). */
function panorama(seed: number) {
  const cells = Array.from({ length: 64 * 32 }, (_, i) => ((Math.sin(i * 12.9898 + seed * 78.233) * 43758.5453) % 1 + 1) % 1);
  return (shiftPx: number): GreyFrame => {
    const data = new Uint8Array(W * H);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const sx = (((x - shiftPx) % W) + W) % W;
        const cx = sx / 4, cy = y / 4;
        const x0 = Math.floor(cx), y0 = Math.floor(cy), fx = cx - x0, fy = cy - y0;
        const c = (i: number, j: number) => cells[(j % 32) * 64 + (i % 64)];
        const v = c(x0, y0) * (1 - fx) * (1 - fy) + c(x0 + 1, y0) * fx * (1 - fy) + c(x0, y0 + 1) * (1 - fx) * fy + c(x0 + 1, y0 + 1) * fx * fy;
        data[y * W + x] = Math.round(40 + 180 * v);
      }
    }
    return { data, width: W, height: H };
  };
}

describe('motion measure', () => {
  it('reads a pure turn as rotation with no parallax', () => {
    const pano = panorama(1);
    const fit = fitMotion(blockShifts(signature(pano(0)), signature(pano(3.5)), 0, 8))!;
    expect(fit.rotation).toBeCloseTo(3.5, 0);
    expect(fit.parallax).toBeLessThan(0.5);
  });

  it('keeps no keyframe while standing still, and turning on the spot only one per quarter turn towards a new direction', () => {
    const pano = panorama(2);
    const still = new KeyframeChooser();
    for (let i = 0; i < 60; i++) still.push(i, i / 30, pano(0));
    expect(still.finish().length).toBe(1);

    const turning = new KeyframeChooser();
    // 99° in 66 frames (1.5° a frame, 1.07 px), on the spot: views cut at fixed world directions see nothing new.
    for (let i = 0; i <= 66; i++) turning.push(i, i / 30, pano((i * 1.5 * W) / 360));
    const kfs = turning.finish();
    expect(kfs.map((k) => k.reason).slice(0, 2)).toEqual(['first', 'turn']);
    expect(kfs.filter((k) => k.reason === 'turn')).toHaveLength(1);
    expect(kfs[1].headingDeg).toBeGreaterThan(88);
    expect(kfs[1].headingDeg).toBeLessThan(95);

    // Standing and looking round, ±60° back and forth for ten seconds: no keyframe piles up.
    const looking = new KeyframeChooser();
    for (let i = 0; i <= 300; i++) looking.push(i, i / 30, pano((60 * Math.sin((2 * Math.PI * i) / 90) * W) / 360));
    expect(looking.finish().map((k) => k.reason)).toEqual(["first"]);

    // Turning round at a dead end (180° in 2 s, then looking back and forth): at most a keyframe per quarter turn.
    const deadEnd = new KeyframeChooser();
    for (let i = 0; i <= 150; i++) {
      const deg = i <= 60 ? 180 * (i / 60) ** 2 * (3 - 2 * (i / 60)) : 180 + 40 * Math.sin((2 * Math.PI * (i - 60)) / 45);
      deadEnd.push(i, i / 30, pano((deg * W) / 360));
    }
    expect(deadEnd.finish().length).toBeLessThanOrEqual(3);
    // Nearly 600 frames drawn and measured in plain JavaScript: seconds on a quiet machine, half a minute on a busy one.
  }, 180_000);

  it('keeps keyframes only on the candidate frames given, a keyframe due in between at the next candidate', () => {
    const pano = panorama(3);
    // Turning on the spot 1.5° a frame, then 90° more: two new directions, each due at a quarter turn.
    const turn = (i: number) => pano((i * 1.5 * W) / 360);
    const every = new KeyframeChooser();
    const third = new KeyframeChooser();
    for (let i = 1; i <= 140; i++) {
      every.push(i, i / 30, turn(i));
      third.push(i, i / 30, turn(i), i % 3 === 0);
    }
    const a = every.finish();
    const b = third.finish();
    // None off the candidates; each due as far from the one before as over every frame, kept at most two frames later.
    expect(b.every((k) => k.frame % 3 === 0)).toBe(true);
    expect(a.some((k) => k.frame % 3 !== 0)).toBe(true);
    expect(b.map((k) => k.reason)).toEqual(a.map((k) => k.reason));
    expect(b[0].frame - a[0].frame).toBeLessThanOrEqual(2);
    for (let i = 1; i < b.length; i++) expect(Math.abs(b[i].frame - b[i - 1].frame - (a[i].frame - a[i - 1].frame))).toBeLessThanOrEqual(2);
  });

  it('refuses nothing but reports no contrast on a blank picture', () => {
    const c = new KeyframeChooser();
    for (let i = 0; i < 10; i++) c.push(i, i / 30, { data: new Uint8Array(W * H).fill(128), width: W, height: H });
    expect(c.contrast).toBe(0);
    expect(c.finish()).toEqual([]);
  });
});

describe('view pairs', () => {
  const frame = (index: number, headingDeg: number) => ({
    index,
    headingDeg,
    views: [0, 120, 240].map((yawDeg, view) => ({ view, yawDeg, name: `v${view}/${String(index).padStart(4, '0')}.jpg` })),
  });

  it('matches each view with the overlapping view of the next keyframes only', () => {
    const pairs = choosePairs([frame(0, 0), frame(1, 0), frame(2, 0)], { neighbours: 2, maxAngleDeg: 75, loopStride: 0, loopSpan: [] });
    expect(pairs).toEqual([
      ['v0/0000.jpg', 'v0/0001.jpg'], ['v1/0000.jpg', 'v1/0001.jpg'], ['v2/0000.jpg', 'v2/0001.jpg'],
      ['v0/0000.jpg', 'v0/0002.jpg'], ['v1/0000.jpg', 'v1/0002.jpg'], ['v2/0000.jpg', 'v2/0002.jpg'],
      ['v0/0001.jpg', 'v0/0002.jpg'], ['v1/0001.jpg', 'v1/0002.jpg'], ['v2/0001.jpg', 'v2/0002.jpg'],
    ]);
  });

  it('follows a turn: content seen by view 0 is seen by view 1 after turning 120°', () => {
    const pairs = choosePairs([frame(0, 0), frame(1, 120)], { neighbours: 1, maxAngleDeg: 30, loopStride: 0, loopSpan: [] });
    expect(pairs).toContainEqual(['v0/0000.jpg', 'v1/0001.jpg']);
    expect(pairs).toHaveLength(3);
    expect(angleDiff(350, 10)).toBe(20);
  });

  it('matches a short walk in several runs, so its matching shows progress, and a long one in COLMAP-sized runs', () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => i);
    const short = matchRuns(list(900));
    expect(short).toHaveLength(8);
    expect(short.flat()).toEqual(list(900));
    expect(matchRuns(list(150))).toHaveLength(2);
    expect(matchRuns(list(30_000)).every((r) => r.length <= 1225)).toBe(true);
    expect(matchRuns([])).toEqual([[]]);
  });
});

describe('equirect views', () => {
  it('cuts the view at yaw 90° from the column three quarters across', () => {
    const w = 360, h = 180;
    const src = new Uint8Array(w * h * 3);
    // Mark the column at 90° right of the centre: u = 3W/4.
    for (let y = 0; y < h; y++) for (const x of [269, 270]) src.set([255, 0, 0], (y * w + x) * 3);
    const map = viewMap({ yawDeg: 90, width: 64, height: 48, focal: 32 }, w, h);
    const out = renderView({ data: src, width: w, height: h }, map, 64, 48);
    const centre = (24 * 64 + 32) * 3;
    expect(out[centre]).toBeGreaterThan(100);
    expect(out[(24 * 64 + 5) * 3]).toBe(0);
  });

  it('turns a view by shifting its map: the view at yaw 0 shifted by a quarter of the width is the view at yaw 90°', () => {
    const w = 360, h = 180;
    const src = new Uint8Array(w * h * 3);
    for (let i = 0; i < src.length; i++) src[i] = (i * 7919) % 251;
    const size = { width: 64, height: 48, focal: 32 };
    const turned = renderView({ data: src, width: w, height: h }, viewMap({ yawDeg: 90, ...size }, w, h), 64, 48);
    const shifted = renderView({ data: src, width: w, height: h }, viewMap({ yawDeg: 0, ...size }, w, h), 64, 48, w / 4);
    let worst = 0;
    for (let i = 0; i < turned.length; i++) worst = Math.max(worst, Math.abs(turned[i] - shifted[i]));
    expect(worst).toBeLessThanOrEqual(1);
  });

  it('converts YUV 4:2:0 grey and colour', () => {
    const yuv = new Uint8Array([235, 235, 235, 235, 128, 128]);
    for (const v of yuv420ToRgb(yuv, 2, 2)) expect(v).toBeGreaterThanOrEqual(254);
    const red = yuv420ToRgb(new Uint8Array([81, 81, 81, 81, 90, 240]), 2, 2);
    expect(red[0]).toBeGreaterThan(250);
    expect(red[1]).toBeLessThan(5);
  });
});

describe('PLY', () => {
  it('writes and reads back a binary little-endian cloud', () => {
    const cloud = { xyz: new Float32Array([1.5, -2, 3, 0.25, 0, -7]), rgb: new Uint8Array([255, 0, 10, 1, 2, 3]) };
    const buf = encodePly(cloud);
    expect(buf.toString('latin1', 0, 36)).toBe('ply\nformat binary_little_endian 1.0\n');
    expect(buf.toString('latin1')).toContain('element vertex 2\n');
    expect(buf.readFloatLE(buf.indexOf('end_header\n') + 11)).toBe(1.5);
    const back = decodePly(buf);
    expect([...back.xyz]).toEqual([...cloud.xyz]);
    expect([...back.rgb]).toEqual([...cloud.rgb]);
  });
});

describe('preview', () => {
  it('draws the path and points over a white sheet as a PNG of the sheet size', async () => {
    const projection = { points: new Float32Array([10, 10, 50, 50]), rooms: [{ keyframe: 0, frame: 0, time: 0, x: 20, y: 30 }, { keyframe: 1, frame: 9, time: 0.3, x: 80, y: 30 }] };
    const overlay = drawOverlay(100, 60, projection);
    expect(overlay[(30 * 100 + 50) * 4]).toBe(220); // red path between the two rooms
    const png = await renderPreview({ width: 100, height: 60 }, projection);
    const meta = await sharp(png).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 100, 60]);
  });
});

describe('view pairs along the walk', () => {
  it('matches each view with the same view of the next keyframe when the views are cut at fixed world directions, however the camera turned', () => {
    // Views stabilised: each keyframe's view yaws carry its heading, so view k always looks the same way.
    const frame = (index: number, headingDeg: number) => ({ index, headingDeg, views: [0, 90, 180, 270].map((y, view) => ({ view, yawDeg: y + headingDeg, name: `v${view}/${index}.jpg` })) });
    const pairs = choosePairs([frame(0, 0), frame(1, 47), frame(2, 130)], { neighbours: 2, maxAngleDeg: 60, loopStride: 0, loopSpan: [] });
    expect(pairs).toHaveLength(12);
    // Never two views of one keyframe, never two directions: each direction is mapped on its own.
    for (const [a, b] of pairs) {
      expect(a.split('/')[0]).toBe(b.split('/')[0]);
      expect(a.split('/')[1]).not.toBe(b.split('/')[1]);
    }
  });

  it('matches the first and last keyframes (the start and end a user pins) with more neighbours than the rest', () => {
    const frame = (index: number) => ({ index, headingDeg: 0, views: [{ view: 0, yawDeg: 0, name: `v0/${index}.jpg` }] });
    const pairs = choosePairs(Array.from({ length: 10 }, (_, i) => frame(i)), { neighbours: 1, maxAngleDeg: 60, loopStride: 0, loopSpan: [], ends: 2, endNeighbours: 3 });
    const from = (i: number) => pairs.filter(([a]) => a === `v0/${i}.jpg`).map(([, b]) => b);
    expect(from(0)).toEqual(['v0/1.jpg', 'v0/2.jpg', 'v0/3.jpg']);
    expect(from(5)).toEqual(['v0/6.jpg']);
    expect(from(7)).toEqual(['v0/8.jpg', 'v0/9.jpg']);
  });
});
