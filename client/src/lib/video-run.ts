import {
  VIDEO_STEPS,
  VIDEO_STEP_FAILURE,
  VIDEO_STEP_JOBS,
  type JobProgressEvent,
  type VideoPosition,
  type VideoProgressDetail,
  type VideoRun,
  type VideoStep,
  type VideoStepState,
  type VideoStepStatus,
} from '@sitewalk/proto';
import { tk } from './i18n-keys';
import { apply, normaliseAngle, type Similarity } from './projection-transform';

/**
 * The stepper of a walk-through video's processing (contract in proto
 * videos.ts): the run the API returns is the truth; live 'job:progress'
 * events move the current step's bar between two reads. Events carry the
 * absolute state, so one that arrives twice (user room and project room)
 * changes nothing, an event of an older generation is ignored, and a
 * finished step never goes back to running. Pure, unit-tested.
 */

/** The names the stepper shows, in order (SPEC §1: process, point cloud, projection, confirm). */
export const STEP_LABELS: Record<VideoStep, string> = {
  process: tk('Processing the video'),
  'generate-ply': tk('Building the point cloud'),
  'project-points': tk('Projecting onto the sheet'),
  'confirm-projection': tk('Placing the rooms'),
};

const JOB_STEP = new Map<string, VideoStep>(VIDEO_STEPS.map((s) => [VIDEO_STEP_JOBS[s], s]));
const STATUS_OF_STATE: Record<JobProgressEvent['state'], VideoStepStatus> = { queued: 'queued', active: 'active', completed: 'done', failed: 'failed' };

/** The step a 'job:progress' event reports, when it is about this video. */
export function videoEventStep(e: JobProgressEvent, videoId: number): VideoStep | null {
  if (e.subject?.kind !== 'video' || e.subject.id !== videoId) return null;
  return JOB_STEP.get(e.job) ?? null;
}

/** Whether a 'job:progress' event reports a step of any video of this visit (one this tab may not know yet). */
export function isVideoEventOfVisit(e: JobProgressEvent, visitId: number): boolean {
  const d = (e.detail ?? {}) as Partial<VideoProgressDetail>;
  return e.subject?.kind === 'video' && JOB_STEP.has(e.job) && d.id_visit === visitId;
}

export interface ApplyResult {
  run: VideoRun;
  /** The step finished or failed: read the run again for its artifacts and next status. */
  reload: boolean;
}

/** The run after one event (the same object when it changes nothing). */
export function applyVideoEvent(run: VideoRun, e: JobProgressEvent, now: Date = new Date()): ApplyResult {
  const step = videoEventStep(e, run.id_video);
  if (!step) return { run, reload: false };
  const d = (e.detail ?? {}) as Partial<VideoProgressDetail>;
  const generation = typeof d.generation === 'number' ? d.generation : run.generation;
  if (generation < run.generation) return { run, reload: false };
  // A newer generation (the run was restarted in another tab): only a fresh read tells its whole state.
  if (generation > run.generation) return { run, reload: true };
  const status = STATUS_OF_STATE[e.state];
  const index = VIDEO_STEPS.indexOf(step);
  const before = run.steps[index];
  const finished = status === 'done' || status === 'failed';
  if (before && (before.status === 'done' || before.status === 'failed') && !finished) return { run, reload: false };
  const percent = status === 'done' ? 100 : Math.max(0, Math.min(100, Math.round(e.percent)));
  const message = e.message ?? '';
  const rate = status === 'active' ? (d.rate ?? before?.rate ?? null) : null;
  if (before && before.status === status && before.percent === percent && before.message === message && (before.rate ?? null) === rate) return { run, reload: false };
  const stamp = now.toISOString();
  const next: VideoStepState = {
    ...(before ?? { step, attempts: 0, started_at: null, finished_at: null, error: null, message: '', percent: 0, status: 'pending' }),
    step,
    status,
    percent,
    message,
    started_at: before?.started_at ?? (status === 'active' || finished ? stamp : null),
    finished_at: finished ? (before?.finished_at ?? stamp) : null,
    error: status === 'failed' ? message || before?.error || null : null,
    rate,
  };
  const steps = run.steps.map((s, i) => (i === index ? next : s));
  const runStatus = d.status ?? (status === 'failed' ? 'failed' : status === 'queued' ? 'queued' : status === 'active' ? 'running' : run.status);
  return {
    run: {
      ...run,
      steps,
      step,
      status: runStatus,
      percent,
      message,
      error: status === 'failed' ? { step, title: VIDEO_STEP_FAILURE[step], reason: message } : run.error,
    },
    reload: finished,
  };
}

/** Seconds a step has taken so far (running) or took (finished); null before it started. */
export function stepElapsed(s: Pick<VideoStepState, 'started_at' | 'finished_at' | 'status'>, now: Date = new Date()): number | null {
  if (!s.started_at) return null;
  const start = Date.parse(s.started_at);
  const end = s.finished_at ? Date.parse(s.finished_at) : s.status === 'active' || s.status === 'queued' ? now.getTime() : null;
  if (end === null || Number.isNaN(start) || Number.isNaN(end)) return null;
  return Math.max(0, Math.round((end - start) / 1000));
}

/** "1:05", "12:00", "1:02:03" — elapsed time as a clock reads it. */
export function formatElapsed(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * Seconds left in a running step at `now`: the worker's estimate counted
 * down since it was measured (never below zero); null when not measured yet.
 * The estimate is replaced at every progress event, so the count-down only
 * bridges the seconds between two.
 */
export function remainingSeconds(step: Pick<VideoStepState, 'status' | 'rate'>, now: Date): number | null {
  const r = step.rate;
  if (step.status !== 'active' || !r || r.remaining_seconds === null) return null;
  const since = Math.max(0, (now.getTime() - new Date(r.measured_at).getTime()) / 1000);
  return Math.max(0, r.remaining_seconds - since);
}

/** Whether a step of the run is queued or running (the page shows it as busy and keeps its clock going). */
export const isRunBusy = (run: Pick<VideoRun, 'status'>) => run.status === 'queued' || run.status === 'running';

/** The percent of the whole run, each step weighing the same: for the compact stepper on the visit page. */
export function overallPercent(run: Pick<VideoRun, 'steps'>): number {
  const sum = run.steps.reduce((acc, s) => acc + (s.status === 'done' ? 100 : s.status === 'active' || s.status === 'failed' ? s.percent : 0), 0);
  return Math.round(sum / VIDEO_STEPS.length);
}

/** Where the heading of a panorama points after the overlay's transform (radians clockwise from the sheet's up). */
export function transformHeading(t: Similarity, heading: number): number {
  const h = t.mirror ? Math.PI - heading : heading;
  return normaliseAngle(h + t.rotation);
}

/** The proposal's positions moved by the editor's adjustment (a transform from sheet pixels to sheet pixels). */
export function adjustPositions(positions: readonly VideoPosition[], t: Similarity): VideoPosition[] {
  return positions.map((p) => {
    const q = apply(t, p);
    return { keyframe: p.keyframe, x: Math.round(q.x * 10) / 10, y: Math.round(q.y * 10) / 10, heading: transformHeading(t, p.heading) };
  });
}
