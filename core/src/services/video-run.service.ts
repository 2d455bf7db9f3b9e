import {
  VIDEO_STEPS,
  VIDEO_STEP_FAILURE,
  VIDEO_STEP_JOBS,
  projectRoom,
  userRoom,
  type JobProgressEvent,
  type VideoProgressDetail,
  type VideoRun,
  type VideoRunStatus,
  type VideoStep,
  type VideoStepRate,
} from '@sitewalk/proto';
import { db } from '../db/index.js';
import { emitTo } from '../realtime/emitter.js';
import { signedUrl } from '../storage/index.js';
import { logger } from '../logger.js';
import { isoOrNull as iso, type Db } from '../db/query-types.js';
import { runRow, updateRun, upsertRun, videoAudience, type RunRow, type RunWrite, type StoredArtifacts, type StoredStep } from '../repositories/videos.repository.js';

/** The run as stored is the repository's (types re-exported for the steps, which read and write artifacts). */
export type { RunRow, StoredArtifacts, StoredCluster, StoredKeyframe, StoredProjection } from '../repositories/videos.repository.js';

/**
 * What happens to a run. Every change of a run goes through `moveRun` with
 * one of these; nothing else writes video_runs.
 *  - start: a new generation from the first step (POST /python/videos/process)
 *  - queued: a step waits in the queue (error cleared: the user tries again)
 *  - active: a worker took the step (again, after a crash or a retry)
 *  - progress: percent and message of the running step
 *  - done: the step succeeded; its artifacts replace the earlier ones; `then` is queued in the same move
 *  - failed: the step cannot succeed (bad input, or its retries are spent)
 *  - artifacts: a change of the artifacts alone (a projection confirmed …)
 */
export type RunEvent =
  | { type: 'start'; userId: number }
  | { type: 'queued'; step: VideoStep; userId?: number; message?: string; jobId: string }
  | { type: 'active'; step: VideoStep; message?: string }
  | { type: 'progress'; step: VideoStep; percent: number; message: string; rate?: VideoStepRate | null }
  | { type: 'done'; step: VideoStep; message: string; artifacts?: StoredArtifacts; timings?: Record<string, number>; then?: { step: VideoStep; jobId: string }; detail?: Partial<VideoProgressDetail> }
  | { type: 'failed'; step: VideoStep; reason: string; detail?: Partial<VideoProgressDetail> };

/** BullMQ job id of a step: one per (video, generation, step, request), never containing ':'. */
export const videoJobId = (videoId: number, generation: number, step: VideoStep, tag: string) => `video-${videoId}-g${generation}-${step}-${tag}`;

const emptyStep = (): StoredStep => ({ status: 'pending', percent: 0, message: '', attempts: 0, started_at: null, finished_at: null, error: null });

/** The state of a run before anything ran. */
export function initialRun(videoId: number): RunRow {
  return {
    id_video: videoId,
    generation: 0,
    status: 'uploaded',
    step: null,
    percent: 0,
    message: 'Uploaded. Processing has not started.',
    error: null,
    steps: Object.fromEntries(VIDEO_STEPS.map((s) => [s, emptyStep()])),
    artifacts: {},
    timings: {},
    id_user: null,
    started_at: null,
    finished_at: null,
    updated_at: new Date(),
  };
}

const WAITING: Record<VideoStep, VideoRunStatus> = {
  process: 'queued',
  'generate-ply': 'needs_projection',
  'project-points': 'needs_confirmation',
  'confirm-projection': 'completed',
};

const clampPct = (p: number) => Math.max(0, Math.min(100, Math.round(p * 10) / 10));

/**
 * The pure transition of a run (no I/O): the next row for an event, or null
 * when the event changes nothing (a step that is not running reports progress).
 */
export function nextRun(cur: RunRow, ev: RunEvent, now = new Date()): RunRow | null {
  const r: RunRow = structuredClone(cur);
  const nowIso = now.toISOString();
  const step = (s: VideoStep) => (r.steps[s] ??= emptyStep());
  r.updated_at = now;
  switch (ev.type) {
    case 'start': {
      const fresh = initialRun(cur.id_video);
      Object.assign(r, { ...fresh, generation: cur.generation + 1, artifacts: cur.artifacts, id_user: ev.userId, started_at: now, updated_at: now });
      // Confirmed projections stay (their rooms exist) until the new run confirms again.
      r.artifacts = { projections: (cur.artifacts.projections ?? []).filter((p) => p.confirmed_at) };
      Object.assign(step('process'), { status: 'queued', message: 'Waiting for a worker', job_id: videoJobId(r.id_video, r.generation, 'process', 'start') });
      Object.assign(r, { status: 'queued', step: 'process', percent: 0, message: 'Waiting for a worker' });
      return r;
    }
    case 'queued': {
      const s = step(ev.step);
      if (s.status === 'active') return null;
      Object.assign(s, { status: 'queued', percent: 0, message: ev.message ?? 'Waiting for a worker', error: null, finished_at: null, job_id: ev.jobId });
      delete s.rate;
      if (ev.userId) r.id_user = ev.userId;
      r.error = null;
      r.finished_at = null;
      if (!VIDEO_STEPS.some((x) => x !== ev.step && r.steps[x]?.status === 'active')) {
        Object.assign(r, { status: 'queued', step: ev.step, percent: 0, message: s.message });
      }
      return r;
    }
    case 'active': {
      const s = step(ev.step);
      Object.assign(s, { status: 'active', percent: 0, message: ev.message ?? 'Starting', attempts: s.attempts + 1, started_at: nowIso, finished_at: null, error: null });
      delete s.rate;
      Object.assign(r, { status: 'running', step: ev.step, percent: 0, message: s.message, error: null });
      return r;
    }
    case 'progress': {
      const s = step(ev.step);
      if (s.status !== 'active') return null;
      Object.assign(s, { percent: clampPct(ev.percent), message: ev.message });
      if (ev.rate !== undefined) s.rate = ev.rate;
      if (r.step === ev.step) Object.assign(r, { percent: s.percent, message: ev.message });
      return r;
    }
    case 'done': {
      const s = step(ev.step);
      Object.assign(s, { status: 'done', percent: 100, message: ev.message, finished_at: nowIso, error: null });
      delete s.rate;
      if (s.started_at) r.timings[ev.step] = (now.getTime() - new Date(s.started_at).getTime()) / 1000;
      Object.assign(r.timings, ev.timings ?? {});
      r.artifacts = { ...r.artifacts, ...(ev.artifacts ?? {}) };
      if (ev.then) {
        const n = step(ev.then.step);
        if (n.status !== 'active') Object.assign(n, { status: 'queued', percent: 0, message: 'Waiting for a worker', error: null, finished_at: null, job_id: ev.then.jobId });
      }
      const busy = VIDEO_STEPS.find((x) => r.steps[x]?.status === 'active') ?? VIDEO_STEPS.find((x) => r.steps[x]?.status === 'queued');
      if (busy) {
        const b = step(busy);
        Object.assign(r, { status: b.status === 'active' ? 'running' : 'queued', step: busy, percent: b.percent, message: b.message });
      } else {
        Object.assign(r, { status: WAITING[ev.step], step: ev.step, percent: 100, message: ev.message });
        if (ev.step === 'confirm-projection') r.finished_at = now;
      }
      return r;
    }
    case 'failed': {
      const s = step(ev.step);
      Object.assign(s, { status: 'failed', message: ev.reason, finished_at: nowIso, error: ev.reason });
      delete s.rate;
      if (s.started_at) r.timings[ev.step] = (now.getTime() - new Date(s.started_at).getTime()) / 1000;
      r.error = { step: ev.step, title: VIDEO_STEP_FAILURE[ev.step], reason: ev.reason };
      Object.assign(r, { status: 'failed', step: ev.step, percent: s.percent, message: ev.reason, finished_at: now });
      return r;
    }
  }
}

const STATE: Record<RunEvent['type'], JobProgressEvent['state']> = {
  start: 'queued',
  queued: 'queued',
  active: 'active',
  progress: 'active',
  done: 'completed',
  failed: 'failed',
};

/** The run of a video as stored (null for a video that has none). */
export const readRun = async (videoId: number, k: Db = db()): Promise<RunRow | null> => (await runRow(k, videoId)) ?? null;

/** Creates (or resets) the run of a freshly uploaded video. */
export async function createRun(videoId: number, k: Db = db()): Promise<void> {
  const r = initialRun(videoId);
  await upsertRun(k, toDbRow(r));
}

const toDbRow = (r: RunRow): RunWrite => ({
  ...r,
  error: r.error ? JSON.stringify(r.error) : null,
  steps: JSON.stringify(r.steps),
  artifacts: JSON.stringify(r.artifacts),
  timings: JSON.stringify(r.timings),
});

/**
 * The one function that moves a video's run: applies `event` to the stored
 * row (locked), writes it and tells the browsers ('job:progress' to the user
 * who started the run, the project owner and the project's room). With
 * `generation`, a run restarted meanwhile is left alone and null is returned:
 * the caller (an old job) must stop. Returns the new row, or the current one
 * when the event changed nothing.
 */
export async function moveRun(videoId: number, generation: number | null, event: RunEvent): Promise<RunRow | null> {
  const result = await db().transaction(async (trx) => {
    const cur = (await runRow(trx, videoId, { lock: true })) ?? null;
    if (!cur) return null;
    if (generation !== null && cur.generation !== generation) return null;
    const next = nextRun(cur, event);
    if (!next) return { row: cur, changed: false };
    await updateRun(trx, toDbRow(next));
    return { row: next, changed: true };
  });
  if (!result) return null;
  if (result.changed) await announce(result.row, event).catch((err) => logger.warn({ err, video_id: videoId }, 'could not send video progress'));
  return result.row;
}

async function announce(run: RunRow, event: RunEvent): Promise<void> {
  const video = await videoAudience(db(), run.id_video);
  if (!video) return;
  const step: VideoStep = event.type === 'start' ? 'process' : event.step;
  const s = run.steps[step] ?? emptyStep();
  const payload: JobProgressEvent = {
    job: VIDEO_STEP_JOBS[step],
    subject: { kind: 'video', id: run.id_video },
    project_id: video.id_project,
    state: STATE[event.type],
    percent: event.type === 'failed' ? s.percent : s.status === 'done' ? 100 : s.percent,
    message: event.type === 'failed' ? event.reason : s.message,
    detail: {
      id_visit: video.id_visit,
      id_video: run.id_video,
      step,
      generation: run.generation,
      status: run.status,
      ...(s.status === 'active' && s.rate ? { rate: s.rate } : {}),
      ...('detail' in event ? event.detail : {}),
    } satisfies VideoProgressDetail,
  };
  for (const userId of new Set([run.id_user, video.id_user, video.id_owner])) if (userId) emitTo(userRoom(userId), 'job:progress', payload);
  emitTo(projectRoom(video.id_project), 'job:progress', payload);
}

/** The run as the client reads it: every step in order, artifact keys signed into URLs. */
export function toRunDto(r: RunRow): VideoRun {
  const a = r.artifacts ?? {};
  return {
    id_video: r.id_video,
    generation: r.generation,
    status: r.status,
    step: r.step,
    percent: r.percent,
    message: r.message,
    error: r.error,
    steps: VIDEO_STEPS.map((step) => {
      const { job_id: _job, ...state } = { ...emptyStep(), ...(r.steps?.[step] ?? {}) };
      return { step, ...state };
    }),
    artifacts: {
      keyframes: (a.keyframes ?? []).map((k) => ({ index: k.index, time: k.time, image_url: signedUrl(k.image_key) })),
      clusters: (a.clusters ?? []).map((c) => ({ osfm_cluster: c.osfm_cluster, keyframes: c.keyframes, points: c.points, ply_url: signedUrl(c.ply_key), path_url: signedUrl(c.path_key), ...(c.level ? { level: c.level } : {}) })),
      projections: (a.projections ?? []).map(({ preview_key, ...p }) => ({ ...p, preview_url: signedUrl(preview_key) })),
    },
    timings: r.timings ?? {},
    started_at: iso(r.started_at),
    finished_at: iso(r.finished_at),
    updated_at: iso(r.updated_at)!,
  };
}

/** How long a queued or running step may go without news before its job is looked up in the queue. */
const QUIET_MS = 60_000;
export const LOST_JOB_REASON = 'The worker handling this step stopped and the step was given up. Start it again.';

/**
 * A run can only be left behind by a job the queue itself gave up (a worker
 * that died more often than BullMQ allows, a job removed from the monitor):
 * the handler never ran to record it. When a step has been quiet for a
 * while, its job is looked up; gone or failed, the step is failed with a
 * reason, so a reload never shows "running" for ever.
 */
export async function reconcileRun(run: RunRow, lookup: (step: VideoStep, jobId: string) => Promise<string | null>): Promise<RunRow> {
  if (!['queued', 'running'].includes(run.status) || Date.now() - new Date(run.updated_at).getTime() < QUIET_MS) return run;
  let current = run;
  for (const step of VIDEO_STEPS) {
    const s = current.steps[step];
    if (!s || !['queued', 'active'].includes(s.status) || !s.job_id) continue;
    const state = await lookup(step, s.job_id);
    if (state && state !== 'failed' && state !== 'unknown') continue;
    current = (await moveRun(current.id_video, current.generation, { type: 'failed', step, reason: LOST_JOB_REASON })) ?? current;
  }
  return current;
}
