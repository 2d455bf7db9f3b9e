import { describe, expect, it } from 'vitest';
import { VIDEO_STEPS, type JobProgressEvent, type VideoRun } from '@sitewalk/proto';
import { IDENTITY } from './projection-transform';
import { adjustPositions, applyVideoEvent, formatElapsed, isVideoEventOfVisit, overallPercent, remainingSeconds, stepElapsed, transformHeading, videoEventStep } from './video-run';

const run = (over: Partial<VideoRun> = {}): VideoRun => ({
  id_video: 7,
  generation: 2,
  status: 'queued',
  step: 'process',
  percent: 0,
  message: '',
  error: null,
  steps: VIDEO_STEPS.map((step) => ({ step, status: step === 'process' ? 'queued' : 'pending', percent: 0, message: '', attempts: 0, started_at: null, finished_at: null, error: null })),
  artifacts: { keyframes: [], clusters: [], projections: [] },
  timings: {},
  started_at: null,
  finished_at: null,
  updated_at: '2026-11-26T10:00:00Z',
  ...over,
});

const event = (over: Partial<JobProgressEvent> & { generation?: number }): JobProgressEvent => {
  const { generation = 2, ...rest } = over;
  return {
    job: 'video.process',
    subject: { kind: 'video', id: 7 },
    project_id: 3,
    state: 'active',
    percent: 40,
    message: 'Choosing keyframes',
    detail: { id_visit: 5, id_video: 7, step: 'process', generation, status: 'running' },
    ...rest,
  };
};

const now = new Date('2026-11-26T10:01:00Z');

describe('the video stepper', () => {
  it('keeps only events of this video', () => {
    expect(videoEventStep(event({}), 7)).toBe('process');
    expect(videoEventStep(event({ job: 'video.generate-ply' }), 7)).toBe('generate-ply');
    expect(videoEventStep(event({}), 8)).toBeNull();
    expect(videoEventStep(event({ subject: { kind: 'room', id: 7 } }), 7)).toBeNull();
    expect(videoEventStep(event({ job: 'room.tiles' }), 7)).toBeNull();
    // A tab that has not seen the video yet still knows the event is about its visit.
    expect(isVideoEventOfVisit(event({ subject: { kind: 'video', id: 99 } }), 5)).toBe(true);
    expect(isVideoEventOfVisit(event({}), 6)).toBe(false);
    expect(isVideoEventOfVisit(event({ job: 'room.tiles' }), 5)).toBe(false);
  });

  it('moves the running step with each event, and asks for the run again when a step ends', () => {
    const r0 = run();
    const { run: r1, reload: again1 } = applyVideoEvent(r0, event({}), now);
    expect(again1).toBe(false);
    expect(r1.steps[0]).toMatchObject({ status: 'active', percent: 40, message: 'Choosing keyframes', started_at: now.toISOString() });
    expect(r1.status).toBe('running');
    // The same event from the project's room changes nothing.
    expect(applyVideoEvent(r1, event({}), now).run).toBe(r1);
    const { run: r2, reload } = applyVideoEvent(r1, event({ state: 'completed', percent: 100, message: 'Done', detail: { id_visit: 5, id_video: 7, step: 'process', generation: 2, status: 'queued' } }), now);
    expect(reload).toBe(true);
    expect(r2.steps[0]).toMatchObject({ status: 'done', percent: 100, finished_at: now.toISOString() });
    // A late 'active' cannot take a finished step back.
    expect(applyVideoEvent(r2, event({ percent: 90 }), now).run).toBe(r2);
    expect(overallPercent(r2)).toBe(25);
  });

  it('ignores an older generation and reloads on a newer one', () => {
    const r = run();
    expect(applyVideoEvent(r, event({ generation: 1 }))).toEqual({ run: r, reload: false });
    expect(applyVideoEvent(r, event({ generation: 3 }))).toEqual({ run: r, reload: true });
  });

  it('says which step failed, with the SPEC §8 title and the reason', () => {
    const { run: r } = applyVideoEvent(run(), event({ job: 'video.generate-ply', state: 'failed', percent: 30, message: 'No reconstruction: too few matching features.' }), now);
    expect(r.status).toBe('running'); // the detail's status wins
    expect(r.error).toEqual({ step: 'generate-ply', title: 'Failed to generate PLY file', reason: 'No reconstruction: too few matching features.' });
    expect(r.steps[1]).toMatchObject({ status: 'failed', error: 'No reconstruction: too few matching features.' });
  });

  it('tells the time a step takes', () => {
    expect(stepElapsed({ started_at: '2026-11-26T10:00:00Z', finished_at: null, status: 'active' }, now)).toBe(60);
    expect(stepElapsed({ started_at: '2026-11-26T10:00:00Z', finished_at: '2026-11-26T10:00:05Z', status: 'done' }, now)).toBe(5);
    expect(stepElapsed({ started_at: null, finished_at: null, status: 'pending' }, now)).toBeNull();
    expect(formatElapsed(65)).toBe('1:05');
    expect(formatElapsed(3723)).toBe('1:02:03');
    expect(formatElapsed(0)).toBe('0:00');
  });
});

describe('the adjusted proposal', () => {
  it('moves positions and turns headings with the overlay', () => {
    const positions = [{ keyframe: 0, x: 100, y: 100, heading: 0 }];
    expect(adjustPositions(positions, IDENTITY)).toEqual(positions);
    const turned = adjustPositions(positions, { scale: 1, rotation: Math.PI / 2, tx: 0, ty: 0, mirror: false });
    expect(turned[0].x).toBeCloseTo(-100);
    expect(turned[0].y).toBeCloseTo(100);
    expect(turned[0].heading).toBeCloseTo(Math.PI / 2); // up becomes right: clockwise on screen
    // Mirrored about the horizontal axis, a room looking right still looks right, one looking up looks down.
    expect(transformHeading({ ...IDENTITY, mirror: true }, Math.PI / 2)).toBeCloseTo(Math.PI / 2);
    expect(transformHeading({ ...IDENTITY, mirror: true }, 0)).toBeCloseTo(Math.PI);
  });
});

describe('remaining time of a running step', () => {
  const rate = { phase: 'features', unit: 'views' as const, done: 40, total: 100, per_second: 4, remaining_seconds: 15, measured_at: '2026-11-28T10:00:00.000Z' };
  it('counts the estimate down between two reports, never below zero', () => {
    expect(remainingSeconds({ status: 'active', rate }, new Date('2026-11-28T10:00:05.000Z'))).toBe(10);
    expect(remainingSeconds({ status: 'active', rate }, new Date('2026-11-28T10:01:00.000Z'))).toBe(0);
  });
  it('says nothing for a step not running or not measured yet', () => {
    expect(remainingSeconds({ status: 'done', rate }, new Date('2026-11-28T10:00:05.000Z'))).toBeNull();
    expect(remainingSeconds({ status: 'active', rate: { ...rate, remaining_seconds: null } }, new Date())).toBeNull();
    expect(remainingSeconds({ status: 'active' }, new Date())).toBeNull();
  });
});
