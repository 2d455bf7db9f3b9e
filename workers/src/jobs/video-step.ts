import fsp from 'node:fs/promises';
import { UnrecoverableError, type Job } from 'bullmq';
import { JOB_POLICIES, VIDEO_STEP_FAILURE, VIDEO_STEP_JOBS, type VideoStep, type VideoStepRate } from '@sitewalk/proto';
import { db, type Video } from '@sitewalk/core/db';
import { ownerOfProject } from '@sitewalk/core/repositories/projects.repository.js';
import { recentRunTimings, videoById } from '@sitewalk/core/repositories/videos.repository.js';
import { withLocalFolder } from '@sitewalk/core/storage';
import { logger } from '@sitewalk/core/logger.js';
import { moveRun, readRun, type RunEvent, type RunRow } from '@sitewalk/core/services/video-run.service.js';
import { videoWorkFolder } from '@sitewalk/core/services/videos.service.js';
import { estimateRemaining, trimSamples, type EtaMeasure, type EtaSample } from '@sitewalk/core/video-eta.js';
import { NEWEST_STAGE, PROFILE_CANDIDATES, hasProfile, learnProfile, type StepProfile } from '@sitewalk/core/video-eta-profile.js';
import { notify } from '@sitewalk/core/services/notifications.service.js';
import { ToolMissing, isInputError } from '@sitewalk/core/tools/errors.js';

export interface VideoStepResult {
  status: 'done' | 'skipped' | 'failed';
  reason?: string;
}

/** What a step's body gets: the video, its run, where to write, and how to report. */
export interface StepContext {
  video: Video;
  run: RunRow;
  /** Folder on this machine's disk standing for the video's work files (storage key: `workFolder`); see withLocalFolder. */
  workDir: string;
  workFolder: string;
  /** Percent 0..100 of this step and a sentence; sent at most every half second (and always at 100). */
  progress: (percent: number, message: string, measure?: EtaMeasure) => void;
  /** Aborted when the run is restarted or deleted meanwhile: stop the tools and return. */
  signal: AbortSignal;
}

export type DoneEvent = Extract<RunEvent, { type: 'done' }>;

/** Thrown inside a step when the run went away or moved on: the job ends quietly. */
class Superseded extends Error {}

/** The staging folders the core makes for a step inside the work folder. */
const STAGING: Partial<Record<VideoStep, string>> = { process: '.process-', 'generate-ply': '.sfm-' };

const UNEXPECTED = 'An error on our side stopped this step. Please try again later.';

/**
 * Runs one step of a video's run as a BullMQ job, the same way for the four
 * steps: a job of an older generation (the run was restarted) or of a deleted
 * video does nothing; the run is moved to 'active', progress is written to
 * the run (and to the job, for the queue monitor); on success the body's
 * `done` event moves the run (and may queue the next step); bad input fails
 * the run at once with the reason (UnrecoverableError: no retry); a missing
 * tool fails it with the tool's name; any other error is retried by BullMQ
 * and fails the run only on the last attempt. Every failure leaves the
 * outputs of earlier successful runs of the step in place (the core writes
 * into a staging folder and moves results in only at the end).
 */
export async function runVideoStep(
  step: VideoStep,
  data: { id_video: number; generation: number },
  job: Job,
  body: (ctx: StepContext) => Promise<DoneEvent>,
  after?: (video: Video, run: RunRow) => Promise<void>,
): Promise<VideoStepResult> {
  const log = logger.child({ job: VIDEO_STEP_JOBS[step], video_id: data.id_video, generation: data.generation });
  const video = await videoById(db(), data.id_video);
  const current = video ? await readRun(video.id) : null;
  if (!video || !current) return { status: 'skipped', reason: 'the video no longer exists' };
  if (current.generation !== data.generation) return { status: 'skipped', reason: 'the run was restarted' };
  const active = await moveRun(video.id, data.generation, { type: 'active', step });
  if (!active) return { status: 'skipped', reason: 'the run was restarted' };

  const controller = new AbortController();
  const profile = await stepProfile(step, Number(video.duration) || undefined, log);
  let last = { at: 0, percent: -1 };
  let pending: Promise<unknown> = Promise.resolve();
  // Every report is a sample of the remaining-time estimate, even those not written to the run.
  const startedAt = Date.now();
  let samples: EtaSample[] = [];
  const progress = (percent: number, message: string, measure?: EtaMeasure) => {
    const now = Date.now();
    samples = trimSamples([...samples, { t: now - startedAt, percent, ...(measure ? { measure } : {}) }]);
    if (controller.signal.aborted || (now - last.at < 500 && percent < 100 && Math.abs(percent - last.percent) < 5)) return;
    last = { at: now, percent };
    const eta = estimateRemaining(samples, { profile });
    const rate: VideoStepRate = { ...eta, measured_at: new Date(now).toISOString() };
    // One write at a time, in order; a run restarted or deleted meanwhile aborts the step.
    pending = pending.then(async () => {
      const moved = await moveRun(video.id, data.generation, { type: 'progress', step, percent, message, rate });
      if (!moved) controller.abort(new Superseded('superseded'));
      await job.updateProgress({ percent: Math.round(percent), message }).catch(() => undefined);
    }).catch((err) => log.warn({ err }, 'could not record progress'));
  };

  const workFolder = videoWorkFolder(video);
  try {
    // On local disk the work folder itself; on S3 a scratch copy of it, whose new and changed
    // files are uploaded when the step succeeds (before the run says so) and which is always removed.
    const done = await withLocalFolder(
      workFolder,
      async (workDir) => {
        // A worker killed mid-step leaves its staging folder (the core's `.process-*`, `.sfm-*`); this attempt starts clean.
        const staging = STAGING[step];
        for (const name of staging ? await fsp.readdir(workDir) : []) {
          if (name.startsWith(staging!)) await fsp.rm(`${workDir}/${name}`, { recursive: true, force: true }).catch(() => undefined);
        }
        const done = await body({ video, run: active, workDir, workFolder, progress, signal: controller.signal });
        await pending;
        if (controller.signal.aborted) throw new Superseded('superseded');
        return done;
      },
      { read: true },
    );
    const moved = await moveRun(video.id, data.generation, done);
    if (!moved) return { status: 'skipped', reason: 'the run was restarted or deleted while the step ran' };
    await after?.(video, moved);
    return { status: 'done' };
  } catch (err) {
    await pending;
    if (err instanceof Superseded || controller.signal.aborted) {
      log.info('step stopped: the run was restarted or deleted');
      return { status: 'skipped', reason: 'the run was restarted or deleted while the step ran' };
    }
    const policy = JOB_POLICIES[VIDEO_STEP_JOBS[step]];
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? policy.attempts);
    const input = isInputError(err);
    const tool = err instanceof ToolMissing;
    if (input || tool || lastAttempt) {
      const reason = input || tool ? (err as Error).message : UNEXPECTED;
      if (!input) log.error({ err }, 'video step failed');
      const moved = await moveRun(video.id, data.generation, { type: 'failed', step, reason });
      if (moved) await tellOwner(video, moved, `${VIDEO_STEP_FAILURE[step]}: ${reason}`, 'error');
      if (input || tool) throw new UnrecoverableError(reason);
      throw err;
    }
    log.warn({ err, attempt: job.attemptsMade + 1 }, 'video step failed; it will be retried');
    await moveRun(video.id, data.generation, { type: 'progress', step, percent: 0, message: 'Interrupted by an error; trying again shortly' });
    throw err;
  }
}

/**
 * How the step's time divides between its phases, learned from the stage
 * timings of the runs that finished it last (video-eta-profile.ts; the
 * constants when none has, or when they cannot be read: the time left is
 * a help, never a reason to fail the step).
 */
async function stepProfile(step: VideoStep, walkSeconds: number | undefined, log: typeof logger): Promise<StepProfile | undefined> {
  if (!hasProfile(step)) return undefined;
  // A stage only the current worker writes: runs of an older version that timed other stages are not asked for.
  const key = `${step}.${NEWEST_STAGE[step]}`;
  try {
    return learnProfile(step, await recentRunTimings(db(), key, PROFILE_CANDIDATES), walkSeconds);
  } catch (err) {
    log.warn({ err }, 'could not read the timings of finished runs; the remaining time uses constants');
    return learnProfile(step, [], walkSeconds);
  }
}

/** A notification to the visit's owner (the project owner) and to whoever started the run. */
export async function tellOwner(video: Video, run: RunRow, message: string, type: 'info' | 'success' | 'error' = 'info', title?: string, key = `${run.step}-${run.status}`): Promise<void> {
  const owner = await ownerOfProject(db(), video.id_project);
  const users = new Set([owner, run.id_user].filter((u): u is number => !!u));
  const heading = title ?? (type === 'error' ? 'Video processing failed' : 'Video processing');
  for (const userId of users) {
    await notify(
      userId,
      { kind: 'video_processed', title: heading, message: message.slice(0, 2000), type, link: `/visitvideo/${video.id_visit}` },
      // One notification per (video, generation, step outcome), even when a step is retried.
      { key: `video-${video.id}-g${run.generation}-${key}-u${userId}` },
    ).catch((err) => logger.warn({ err, video_id: video.id }, 'could not queue a video notification'));
  }
}

/** A core stage clock's wall times as run timings: 'process.motion', 'generate-ply.mapping', … */
export const stageTimings = (step: VideoStep, wall: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(wall).map(([k, v]) => [`${step}.${k}`, v]));
