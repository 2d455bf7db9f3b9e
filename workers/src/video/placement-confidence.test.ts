import { describe, expect, it } from 'vitest';
import { applySimilarity, type Similarity2D, type Vec2 } from './linear-algebra.js';
import { placementConfidence, type ConfidenceInput } from './placement-confidence.js';
import { fitSimilarity2D } from './similarity-fit.js';

/** Reconstruction units per metre in these walks, and the fit: 25 px a unit, so 50 px a metre on the sheet. */
const UNITS = 2;
const FIT: Similarity2D = { scale: 25, rotation: 0.3, tx: 400, ty: 300 };

/** A walk of keyframes every `step` metres through the given corners (metres), in reconstruction units. */
function walkThrough(corners: Vec2[], step = 0.5): Vec2[] {
  const out: Vec2[] = [[corners[0][0] * UNITS, corners[0][1] * UNITS]];
  for (let c = 1; c < corners.length; c++) {
    const [a, b] = [corners[c - 1], corners[c]];
    const n = Math.max(1, Math.round(Math.hypot(b[0] - a[0], b[1] - a[1]) / step));
    for (let i = 1; i <= n; i++) out.push([(a[0] + ((b[0] - a[0]) * i) / n) * UNITS, (a[1] + ((b[1] - a[1]) * i) / n) * UNITS]);
  }
  return out;
}

/** Input with control points at the given track indices, placed exactly where the fit puts them. */
function input(track: Vec2[], at: number[], extra: Partial<ConfidenceInput> = {}): ConfidenceInput {
  return {
    track,
    keyframes: track.map((_, i) => i),
    transform: FIT,
    controls: at.map((index) => ({ index, sheet: applySimilarity(FIT, track[index]) })),
    unitsPerMetre: UNITS,
    ...extra,
  };
}

describe('placementConfidence', () => {
  it('vouches for every room of a short walk pinned at its start and end', () => {
    const track = walkThrough([[0, 0], [8, 0], [8, 6]]);
    const c = placementConfidence(input(track, [0, track.length - 1]));
    expect(c.pxPerMetre).toBeCloseTo(50, 9);
    expect(c.unsure).toEqual([]);
    expect(c.suggested).toBeNull();
    expect(c.worstM).toBeLessThan(c.thresholdM);
    // Surest at the control points, least sure between them.
    expect(c.errorM[0]).toBeLessThan(c.errorM[Math.floor(track.length / 2)]);
  });

  it('marks the middle of a long walk pinned only at its ends unsure, and one more control point there makes it sure', () => {
    const track = walkThrough([[0, 0], [40, 0], [40, 30], [0, 30], [0, 2]]);
    const last = track.length - 1;
    const c = placementConfidence(input(track, [0, last]));
    expect(c.unsure.length).toBeGreaterThan(10);
    expect(c.unsure).not.toContain(0);
    expect(c.unsure).not.toContain(last);
    expect(c.stretches).toHaveLength(1);
    // The suggestion lies within the unsure stretch, far from both ends along the walk.
    expect(c.suggested).toBeGreaterThan(last * 0.3);
    expect(c.suggested).toBeLessThan(last * 0.7);
    const more = placementConfidence(input(track, [0, c.suggested!, last]));
    expect(more.worstM).toBeLessThan(c.worstM * 0.8);
  });

  it('marks the far end unsure when both control points are close together at the start (the fit swings there)', () => {
    const track = walkThrough([[0, 0], [3, 0], [3, 20]]);
    const c = placementConfidence(input(track, [0, 4]));
    expect(c.unsure).toContain(track.length - 1);
    expect(c.suggested).toBe(track.length - 1);
    expect(c.unsure).not.toContain(2);
  });

  it('is less sure where the reconstruction placed few views of the keyframes or jumped', () => {
    const track = walkThrough([[0, 0], [30, 0]]);
    const last = track.length - 1;
    const strong = placementConfidence(input(track, [0, last]));
    const views = track.map((_, i) => (i > 10 && i < 30 ? 1 : 3));
    const weak = placementConfidence(input(track, [0, last], { views }));
    expect(weak.errorM[20]).toBeGreaterThan(strong.errorM[20] * 1.2);
    // A jump of 3 m between two keyframes in the middle (frames lost): a weaker join than the same walk without it.
    const jumped = track.filter((_, i) => i < 28 || i > 33);
    const j = placementConfidence(input(jumped, [0, jumped.length - 1]));
    const even = placementConfidence(input(walkThrough([[0, 0], [30, 0]], 30 / (jumped.length - 1)), [0, jumped.length - 1]));
    expect(j.worstM).toBeGreaterThan(even.worstM);
    // The same 3 m where the keyframes between were taken but not placed: the walk went on between them, no jump —
    // only the drift of the walk itself, as sure as the whole walk placed.
    const keyframes = track.map((_, i) => i).filter((i) => i < 28 || i > 33);
    const gap = placementConfidence(input(jumped, [0, jumped.length - 1], { keyframes }));
    expect(gap.worstM).toBeLessThan(j.worstM);
    expect(gap.worstM).toBeCloseTo(strong.worstM, 2);
  });

  it('counts a place passed twice as one when the loop closed, and flags both passes when it did not', () => {
    // Out 60 m and back along the same corridor; pinned at the start and at the far end.
    const out = walkThrough([[0, 0], [60, 0]]);
    const back = out.slice(0, -1).reverse().map(([x, y]): Vec2 => [x, y + 0.2 * UNITS]);
    const track = [...out, ...back];
    const far = out.length - 1;
    const without = placementConfidence(input(track, [0, far]));
    // Coming back, the walk drifts away from its last control point: the end is unsure.
    expect(without.unsure).toContain(track.length - 1);
    const loops = back.map((_, i) => ({ a: far - 1 - i, b: far + 1 + i })).filter((_, i) => i % 4 === 0);
    const closed = placementConfidence(input(track, [0, far], { loops }));
    expect(closed.unsure).toEqual([]);
    // The same pairs placed 1.2 m apart: the loop did not close, and both passes there are unsure.
    const apart = track.map(([x, y], i): Vec2 => (i > far ? [x, y + 1.2 * UNITS] : [x, y]));
    const open = placementConfidence(input(apart, [0, far], { loops }));
    for (const l of loops.slice(3)) {
      expect(open.unsure).toContain(l.a);
      expect(open.unsure).toContain(l.b);
    }
  });

  it('takes a loop closure between two places further apart than the walk could drift as two like places, not a loop', () => {
    // A square of rooms 16 m a side, walked round once, pinned at its start and end: a closure between two corners
    // 16 m apart and 16 m of walk from each other (0.2 m of drift) is two like rooms taken for one.
    const track = walkThrough([[0, 0], [16, 0], [16, 16], [0, 16], [0, 1]]);
    const last = track.length - 1;
    const at = (x: number, y: number) => track.findIndex(([tx, ty]) => Math.hypot(tx / UNITS - x, ty / UNITS - y) < 0.01);
    const alone = placementConfidence(input(track, [0, last]));
    const like = [{ a: at(16, 0), b: at(16, 16) }];
    expect(placementConfidence(input(track, [0, last], { loops: like })).unsure).toEqual(alone.unsure);
    // Counted as a loop that did not close (loopFalseSigmas 0), both corners stay unsure whatever is pinned there.
    const counted = placementConfidence(input(track, [0, last], { loops: like, options: { loopFalseSigmas: 0 } }));
    expect(counted.unsure).toContain(like[0].a);
    expect(counted.unsure).toContain(like[0].b);
    // A closure whose two passes lie about a metre apart, a few times the drift between them, still counts.
    const near = [{ a: at(2, 0), b: at(0, 2) }];
    const open = placementConfidence(input(track, [0, last], { loops: near }));
    expect(open.unsure).toContain(near[0].a);
    expect(open.unsure).toContain(near[0].b);
  });

  it('learns from control points that disagree with each other (leave one out), and never grows surer from ones that agree', () => {
    const track = walkThrough([[0, 0], [12, 0], [12, 8]]);
    const ends = [0, 24, track.length - 1];
    const agree = placementConfidence(input(track, ends));
    expect(agree.leaveOneOutM).toHaveLength(3);
    expect(Math.max(...agree.leaveOneOutM!)).toBeLessThan(1e-6);
    // Agreeing by chance vouches for nothing more than the model does.
    expect(agree.calibration).toBe(1);
    expect(agree.unsure).toEqual([]);
    // The middle control point clicked 1.5 m away from where the other two put it.
    const bad = input(track, ends);
    bad.controls[1].sheet = [bad.controls[1].sheet[0] + 75, bad.controls[1].sheet[1]];
    const c = placementConfidence(bad);
    expect(Math.max(...c.leaveOneOutM!)).toBeGreaterThan(1);
    expect(c.calibration).toBeGreaterThan(2);
    expect(c.unsure.length).toBeGreaterThan(0);
  });

  it('takes a walk whose models disagree more than usual to drift more, and never less', () => {
    const track = walkThrough([[0, 0], [20, 0], [20, 15]]);
    const ends = [0, track.length - 1];
    // The drift alone (the models' disagreement at each keyframe also adds to its own room's error: the next test).
    const options = { spreadRefM: 0.04, spreadWeight: 0 };
    // Two models place each keyframe; their places 2s apart scatter by s round the mean, one model being off by s·√2.
    const scatter = (oneModelM: number) => ({ spread: track.map(() => (oneModelM / Math.SQRT2) * UNITS), placers: track.map(() => 2), options });
    const usual = placementConfidence(input(track, ends, scatter(0.04)));
    expect(usual.driftM).toBeCloseTo(0.05, 9);
    expect(usual.unsure).toEqual([]);
    const rough = placementConfidence(input(track, ends, scatter(0.12)));
    expect(rough.driftM).toBeCloseTo(0.15, 9);
    expect(rough.unsure.length).toBeGreaterThan(track.length / 3);
    // Models that agree closely may still drift together: no surer than the usual walk.
    const calm = placementConfidence(input(track, ends, scatter(0.01)));
    // Without the models' disagreement (an older reconstruction), the usual drift.
    const older = placementConfidence(input(track, ends, { options }));
    expect(older.driftM).toBe(0.05);
    expect(calm.driftM).toBe(0.05);
    expect(calm.errorM).toEqual(older.errorM);
  });

  it('is less sure of a keyframe its models place apart, even next to a control point', () => {
    const track = walkThrough([[0, 0], [10, 0]]);
    const ends = [0, track.length - 1];
    const spread = track.map((_, i) => (i === 2 ? 0.5 * UNITS : 0));
    const c = placementConfidence(input(track, ends, { spread, placers: track.map(() => 2), options: { spreadWeight: 1, spreadRefM: 0 } }));
    expect(c.unsure).toEqual([2]);
    expect(c.errorM[2]).toBeGreaterThan(0.5);
  });

  it('takes the turn of a walk snapped to the walls from the walls, unless they disagree with the control points by more than the points’ own uncertainty', () => {
    // Pinned at two points 3 m apart at the start: on the control points alone, the far end swings.
    const track = walkThrough([[0, 0], [3, 0], [3, 20]]);
    const close = [0, 6];
    const last = track.length - 1;
    const swing = placementConfidence(input(track, close));
    expect(swing.unsure).toContain(last);
    // The walls gave the same turn and scale as the control points: the far end is only as unsure as its drift.
    const agreed = placementConfidence(input(track, close, { beforeSnap: FIT }));
    expect(agreed.errorM[last]).toBeLessThan(swing.errorM[last] / 2);
    expect(agreed.unsure).not.toContain(last);
    // The control points alone turned the walk 2° away from where the walls put it: 0.7 m at the far end, which two
    // points 3 m apart cannot tell (their own fit swings more there), so the walls' turn stands.
    const turn = (deg: number): Similarity2D => ({ ...FIT, rotation: FIT.rotation + (deg * Math.PI) / 180 });
    const within = placementConfidence(input(track, close, { beforeSnap: turn(2) }));
    expect(within.errorM[last]).toBeLessThan(swing.errorM[last] / 2);
    // 10° away (3.5 m there) is more than the control points' uncertainty: the two disagree, and the far end is unsure.
    const beyond = placementConfidence(input(track, close, { beforeSnap: turn(10) }));
    expect(beyond.unsure).toContain(last);
    expect(beyond.errorM[last]).toBeGreaterThan(1.5);
    // But a snap that misses a control point by more than a click (one clicked 0.3 m aside) disagrees with the user:
    // then the whole gap counts, and the far end is unsure again.
    const aside = input(track, close, { beforeSnap: turn(2) });
    aside.controls[1].sheet = [aside.controls[1].sheet[0], aside.controls[1].sheet[1] + 0.3 * 50];
    expect(placementConfidence(aside).unsure).toContain(last);
    // Pinned at both ends, the control points know the turn well: 2° away from them is a disagreement (0.33 m in the
    // middle of the walk against 0.13 m where the walls agree).
    const ends = placementConfidence(input(track, [0, last], { beforeSnap: turn(2) }));
    const middle = Math.round(last * 0.6);
    expect(ends.unsure).toContain(middle);
  });

  it('does not take the walls\' turn on the word of two control points a metre apart', () => {
    // Pinned at the start and a metre on, the second point clicked 0.08 m aside: the points alone turn the walk 4.6°.
    // The snap meets both within a click, as a wrong match of the walls turned some degrees would too: the points
    // cannot tell the two apart, so the gap between the snap and their own fit (1.6 m at the far end) counts whole.
    const track = walkThrough([[0, 0], [3, 0], [3, 20]]);
    const last = track.length - 1;
    const given = input(track, [0, 2]);
    given.controls[1].sheet = [given.controls[1].sheet[0], given.controls[1].sheet[1] + 0.08 * 50];
    given.beforeSnap = fitSimilarity2D([0, 2].map((i) => track[i]), given.controls.map((c) => c.sheet));
    const c = placementConfidence(given);
    expect(c.unsure).toContain(last);
    expect(c.errorM[last]).toBeGreaterThan(1.2);
    expect(c.suggested).not.toBeNull();
    // Told that a metre is enough, the same snap passes for sure: what the option guards.
    expect(placementConfidence({ ...given, options: { snapLeverM: 1 } }).unsure).not.toContain(last);
  });

  it('trusts a snap that misses two control points by what the walk drifts between them', () => {
    // A 57 m loop round a 20 × 10 m floor, pinned at its start and at its end 3 m from it, each point given 0.12 m aside
    // of where the walls put it, opposite ways: on the points alone the walk turns by 4°, 1.4 m at the far side. That is
    // more than a click, but less than the walk drifts over 57 m: the walls' turn stands, and the walk stays sure.
    const track = walkThrough([[0, 0], [20, 0], [20, 10], [0, 10], [0, 3]]);
    const pinned = (at: number[]) => {
      const given = input(track, at);
      given.controls[0].sheet = [given.controls[0].sheet[0] + 6, given.controls[0].sheet[1]];
      given.controls[1].sheet = [given.controls[1].sheet[0] - 6, given.controls[1].sheet[1]];
      given.beforeSnap = fitSimilarity2D(at.map((i) => track[i]), given.controls.map((c) => c.sheet));
      return placementConfidence(given);
    };
    expect(pinned([0, track.length - 1]).unsure).toEqual([]);
    // The same misses on two points 3 m apart along the walk are more than it drifts between them: the walls and the
    // user disagree, and the far side is unsure.
    expect(pinned([0, 6]).unsure).toContain(Math.round(track.length / 2));
  });

  it('with three control points or more, carries what the fit misses at each along the walk to the rooms near it', () => {
    const track = walkThrough([[0, 0], [20, 0], [20, 20]]);
    const at = [0, 40, track.length - 1];
    const exact = placementConfidence(input(track, at));
    // Given exactly where the fit puts them: nothing to carry.
    for (const [dx, dy] of exact.shiftPx) expect(Math.hypot(dx, dy)).toBeLessThan(1e-6);
    // The corner given 0.6 m (30 px) further along x than the reconstruction has it: the rooms around the corner move
    // most of the way there, the start stays where it was given, and only two control points move nothing.
    const bent = input(track, at);
    bent.controls[1].sheet = [bent.controls[1].sheet[0] + 30, bent.controls[1].sheet[1]];
    const c = placementConfidence(bent);
    expect(c.shiftPx[40][0]).toBeGreaterThan(20);
    expect(c.shiftPx[38][0]).toBeGreaterThan(15);
    expect(Math.hypot(...c.shiftPx[0])).toBeLessThan(10);
    expect(c.suggested).not.toBe(40);
    expect(placementConfidence(input(track, [0, 40])).shiftPx.every(([dx, dy]) => dx === 0 && dy === 0)).toBe(true);
    // Met within two clicks (0.1 m off): the click's own error, nothing to carry.
    const near = input(track, at);
    near.controls[1].sheet = [near.controls[1].sheet[0] + 5, near.controls[1].sheet[1]];
    expect(placementConfidence(near).shiftPx.every(([dx, dy]) => dx === 0 && dy === 0)).toBe(true);
  });

  it('counts what a snapped placement misses a control point by in the rooms around it', () => {
    // A 137 m loop round a 40 × 30 m floor that drifts as the building walk does (0.15 m/√m), snapped to the walls and
    // pinned at its start and a third and two thirds of the way round; the user put the start 0.4 m (20 px) east of
    // where the walls' placement has it. That is less than the walk drifts over the 45 m to the next point, so the walls'
    // turn and scale stand, and the misses are not carried (snapped): the rooms at the start stay about 0.4 m from where
    // the user says they were. The drift alone made them sure (0.26 m): they must not pass for sure.
    const track = walkThrough([[0, 0], [40, 0], [40, 30], [0, 30], [0, 3]]);
    const at = [0, Math.round(track.length / 3), Math.round((2 * track.length) / 3)];
    const pinned = (eastPx: number) => {
      const given = input(track, at, { options: { driftM: 0.15 } });
      given.controls[0].sheet = [given.controls[0].sheet[0] + eastPx, given.controls[0].sheet[1]];
      given.beforeSnap = fitSimilarity2D(at.map((i) => track[i]), given.controls.map((c) => c.sheet));
      return placementConfidence(given);
    };
    const aside = pinned(20);
    expect(aside.unsure).toContain(0);
    expect(aside.unsure).toContain(1);
    // The other two points, met where the user put them, stay sure.
    expect(aside.unsure).not.toContain(at[1]);
    expect(aside.unsure).not.toContain(at[2]);
    // Met within a click (0.06 m), the same walk is sure at its start.
    expect(pinned(3).unsure).not.toContain(0);
  });

  it('takes a room the walls hold as sure within their ring, unless the model lets it lie beyond the ring', () => {
    // The long walk pinned only at its ends: its middle is unsure by the drift. The walls hold every keyframe of the
    // first half (no shift 0.2–1.4 m away lays their walls as well), none of the second.
    const track = walkThrough([[0, 0], [40, 0], [40, 30], [0, 30], [0, 2]]);
    const last = track.length - 1;
    const alone = placementConfidence(input(track, [0, last]));
    const held = track.map((_, i) => i < last / 2);
    const withWalls = placementConfidence(input(track, [0, last], { wallsHold: { held, holdRingM: [0.2, 1.4] } }));
    for (let i = 0; i <= last; i++) {
      // Within the ring by three standard errors of the model: sure within its inner radius.
      if (held[i] && 3 * alone.errorM[i] <= 1.4) expect(withWalls.errorM[i], `keyframe ${i}`).toBe(Math.min(alone.errorM[i], 0.2));
      else expect(withWalls.errorM[i], `keyframe ${i}`).toBe(alone.errorM[i]);
    }
    const vouched = alone.unsure.filter((k) => held[k] && 3 * alone.errorM[k] <= 1.4);
    expect(vouched.length).toBeGreaterThan(0);
    expect(withWalls.unsure).toEqual(alone.unsure.filter((k) => !vouched.includes(k)));
    // Where the model lets a room lie further than the ring reaches, the walls' best in the ring says nothing.
    const drifting = input(track, [0, last], { options: { driftM: 0.2 }, wallsHold: { held, holdRingM: [0.2, 1.4] } });
    const far = placementConfidence(drifting);
    const beyond = far.errorM.map((e, i) => i).filter((i) => held[i] && 3 * far.errorM[i] > 1.4);
    expect(beyond.length).toBeGreaterThan(0);
    for (const i of beyond) expect(far.unsure).toContain(i);
    // Off (holdSigmas 0): the walls vouch for nothing.
    expect(placementConfidence({ ...drifting, options: { driftM: 0.2, holdSigmas: 0 } }).unsure).toEqual(placementConfidence({ ...drifting, wallsHold: undefined }).unsure);
  });

  it('takes the windows the walls hold as control points of their own, from the user\'s points outwards, never from a window out of reach', () => {
    // The long walk pinned at its ends and snapped to the walls, drifting three times as much as the textured minute:
    // alone, every room but those next to the points is unsure, and the walls' hold on a room far from them cannot
    // count (the model lets it lie further off than the ring searched).
    const track = walkThrough([[0, 0], [40, 0], [40, 30], [0, 30], [0, 2]]);
    const last = track.length - 1;
    // Windows of 10 m of walk (20 keyframes), starting every 5 m, as wall-bend.ts cuts them.
    const hold = (isHeld: (from: number) => boolean) => {
      const windows: { from: number; to: number; held: boolean }[] = [];
      for (let from = 0; from < last; from += 10) windows.push({ from, to: Math.min(last, from + 20), held: isHeld(from) });
      const held = track.map((_, i) => windows.filter((w) => i >= w.from && i <= w.to).every((w) => w.held));
      return { held, holdRingM: [0.2, 1.4] as [number, number], windows };
    };
    const judge = (wallsHold?: ReturnType<typeof hold>, options: Partial<ConfidenceInput['options']> = {}) =>
      placementConfidence(input(track, [0, last], { beforeSnap: FIT, options: { driftM: 0.15, ...options }, ...(wallsHold ? { wallsHold } : {}) }));
    const alone = judge();
    expect(alone.unsure.length).toBeGreaterThan(last * 0.8);
    // Every window held: each one the points keep within the ring joins them, and the next comes within it in turn.
    const everywhere = judge(hold(() => true));
    expect(everywhere.unsure).toEqual([]);
    expect(everywhere.worstM).toBeLessThanOrEqual(0.2);
    // Without the windows as control points, the walls vouch only for the rooms the user's points keep within the ring.
    expect(judge(hold(() => true), { holdControls: false }).unsure.length).toBeGreaterThan(last * 0.8);
    // Held windows that no chain of held windows joins to a control point stay unsure: the model lets their rooms lie
    // beyond the ring, so their walls' best within it may be a room's pitch off.
    expect(judge(hold((from) => from >= 80 && from <= 140)).unsure).toEqual(alone.unsure);
    // Joined to the start by held windows, the same stretch is sure; the point asked for lies beyond it.
    const joined = judge(hold((from) => from <= 140));
    for (let i = 0; i <= 140; i++) expect(joined.unsure, `keyframe ${i}`).not.toContain(i);
    expect(joined.unsure.length).toBeGreaterThan(last * 0.3);
    expect(joined.suggested).toBeGreaterThan(140);
    // Two windows the walls do not hold, amid held ones: the rooms only they cover are unsure (the drift across 10 m of
    // walk from the held windows either side), and one more point is asked for there.
    const gap = judge(hold((from) => from !== 100 && from !== 110));
    expect(gap.unsure.length).toBeGreaterThan(0);
    expect(Math.min(...gap.unsure)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...gap.unsure)).toBeLessThanOrEqual(130);
    expect(gap.suggested).toBeGreaterThanOrEqual(100);
    expect(gap.suggested).toBeLessThanOrEqual(130);
  });

  it('takes a piece of the walk between two placement jumps as possibly turned, and mends it with control points inside it', () => {
    // A 40 m corridor walked in 0.2 m steps; the reconstruction turned its middle 10 m by 0.15 rad about their middle,
    // so the piece's ends stand 0.75 m aside of the corridor, joined to it by two jumps of 0.8 m. The control points are
    // given where the walk truly was, and the fit is the user's (fitted to them).
    const truth = walkThrough([[0, 0], [40, 0]], 0.2);
    const turn = 0.15;
    const track = truth.map(([x, y]): Vec2 => (x >= 15 * UNITS && x <= 25 * UNITS ? [20 * UNITS + (x - 20 * UNITS) * Math.cos(turn), y + (x - 20 * UNITS) * Math.sin(turn)] : [x, y]));
    const sheetAt = (i: number) => applySimilarity(FIT, truth[i]);
    // Snapped: the walls give the corridor's true turn and scale, the fit to the control points alone is kept aside.
    const laid = (at: number[], turnWeight?: number, snapped = false) => {
      const fit = fitSimilarity2D(at.map((i) => track[i]), at.map(sheetAt));
      const transform = snapped ? FIT : fit;
      const c = placementConfidence({ track, keyframes: track.map((_, i) => i), transform, ...(snapped ? { beforeSnap: fit } : {}), controls: at.map((index) => ({ index, sheet: sheetAt(index) })), unitsPerMetre: UNITS, options: turnWeight === undefined ? {} : { turnWeight } });
      const off = track.map((z, i) => {
        const [x, y] = applySimilarity(transform, z);
        const [tx, ty] = sheetAt(i);
        return Math.hypot(x + c.shiftPx[i][0] - tx, y + c.shiftPx[i][1] - ty) / c.pxPerMetre;
      });
      const silent = off.filter((e, i) => e > c.thresholdM && !c.unsure.includes(i)).length;
      return { c, off, silent };
    };
    // Pinned at both ends, the piece's ends are 0.7 m off. The drift alone vouched for them; the turn flags them, and
    // only them (the rest of the corridor, joined to them by the jumps, is the larger piece and sure), and asks for a
    // point inside the piece.
    const ends = [0, track.length - 1];
    expect(laid(ends, 0).silent).toBeGreaterThan(20);
    const pinned = laid(ends);
    expect(pinned.silent).toBe(0);
    expect(pinned.c.unsure.every((i) => i >= 75 && i <= 125)).toBe(true);
    expect(pinned.c.suggested).toBeGreaterThanOrEqual(75);
    expect(pinned.c.suggested).toBeLessThanOrEqual(125);
    // A point given inside the piece near its end: the turn carries its miss across the piece, and its far end, which
    // stood 1 m off when the miss was carried by the drift alone, comes within 0.3 m.
    const inside = [0, 120, track.length - 1];
    expect(Math.max(...laid(inside, 0).off)).toBeGreaterThan(0.9);
    const mended = laid(inside);
    expect(Math.max(...mended.off)).toBeLessThan(0.3);
    expect(mended.silent).toBe(0);
    // A second point inside pins the turn: every room within a few centimetres, and all sure.
    const both = laid([0, 80, 120, track.length - 1]);
    expect(Math.max(...both.off)).toBeLessThan(0.05);
    expect(both.c.unsure).toEqual([]);
    // Snapped to the walls, the walls' one turn leaves the piece 0.7 m off; the point inside it turns that piece alone
    // to it (the rest of the corridor stays where the walls put it), and none is off in silence.
    expect(laid(ends, 1, true).silent).toBe(0);
    const snapped = laid(inside, 1, true);
    expect(Math.max(...snapped.off)).toBeLessThan(0.15);
    expect(snapped.silent).toBe(0);
    expect(Math.max(...snapped.off.slice(0, 70), ...snapped.off.slice(130))).toBeLessThan(0.01);
  });

  it('takes a smaller jump as a piece’s bound where no model places both of its keyframes', () => {
    // A 40 m corridor walked in 0.5 m steps; its middle 10 m mapped by a model of their own (model 1; the rest by model
    // 0) and turned 0.08 rad: the piece's ends stand 0.4 m aside, joined to the corridor by steps of 0.64 m — no jump by
    // the walk's pace (3 × 0.5 m), but a step 0.4 m off the walk's heading where two models meet.
    const truth = walkThrough([[0, 0], [40, 0]], 0.5);
    const inPiece = ([x]: Vec2) => x >= 15 * UNITS && x <= 25 * UNITS;
    const turn = 0.08;
    const track = truth.map((z): Vec2 => (inPiece(z) ? [20 * UNITS + (z[0] - 20 * UNITS) * Math.cos(turn), z[1] + (z[0] - 20 * UNITS) * Math.sin(turn)] : z));
    const placedBy = truth.map((z) => (inPiece(z) ? [1] : [0]));
    const sheetAt = (i: number) => applySimilarity(FIT, truth[i]);
    const ends = [0, track.length - 1];
    const laid = (extra: Partial<ConfidenceInput>) => {
      const transform = fitSimilarity2D(ends.map((i) => track[i]), ends.map(sheetAt));
      const c = placementConfidence({ track, keyframes: track.map((_, i) => i), transform, controls: ends.map((index) => ({ index, sheet: sheetAt(index) })), unitsPerMetre: UNITS, ...extra });
      const off = track.map((z, i) => Math.hypot(...(applySimilarity(transform, z).map((v, d) => v - sheetAt(i)[d]) as Vec2)) / c.pxPerMetre);
      return { c, silent: off.filter((e, i) => e > c.thresholdM && !c.unsure.includes(i)).length };
    };
    // Without knowing the models, or where they share the keyframes, the steps are the walk's: its far rooms pass for sure.
    expect(laid({ options: { joinJumpM: 0.2 } }).silent).toBeGreaterThan(3);
    expect(laid({ placedBy: truth.map(() => [0, 1]), options: { joinJumpM: 0.2 } }).silent).toBeGreaterThan(3);
    // Nor with the models known, when jumps are told by the walk's pace alone.
    expect(laid({ placedBy, options: { joinJumpM: 0 } }).silent).toBeGreaterThan(3);
    // Where the two models meet, the 0.4 m off the walk's heading bounds a piece that may be turned: none in silence,
    // and the point asked for is inside it.
    const joined = laid({ placedBy, options: { joinJumpM: 0.2 } });
    expect(joined.silent).toBe(0);
    expect(inPiece(truth[joined.c.suggested!])).toBe(true);
  });

  it('refuses fewer than two control points', () => {
    const track = walkThrough([[0, 0], [5, 0]]);
    expect(() => placementConfidence(input(track, [0]))).toThrow(/Two or more/);
  });
});
