import { z } from 'zod';
import { controlPointSchema } from './videos.js';
import { noticeParamsSchema } from './notification-text.js';

/**
 * The typed job registry: every job's name, payload schema, queue and retry
 * policy. The api enqueues through one function that reads this table; the
 * workers process refuses to start when a job here has no handler.
 */

/**
 * 'video' carries the ffmpeg and projection steps of walk-through videos,
 * 'reconstruction' the COLMAP step alone, so it can run on machines of its
 * own (WORKER_QUEUES=reconstruction there, the other queues elsewhere).
 * 'exports' makes snag-list reports, so a long report never holds up mail.
 */
export const QUEUES = ['mail', 'notifications', 'sheets', 'rooms', 'video', 'reconstruction', 'exports', 'design-cloud', 'invoices'] as const;
export type QueueName = (typeof QUEUES)[number];

const videoStep = z.object({
  id_video: z.number().int().positive(),
  generation: z.number().int().min(1),
  /** Who started the step; they get the progress events too. */
  id_user: z.number().int().positive().optional(),
});

const notificationTypeSchema = z.string().min(1).max(20);

export const jobPayloads = {
  'mail.send': z.object({
    to: z.string().email(),
    /**
     * The subject, text and html as sealed JSON (core/src/mail/sealed-mail.ts):
     * links with tokens never sit in clear in Redis or the queue monitor.
     * The plain fields below are for mails with nothing secret (tests).
     */
    sealed: z.string().max(600_000).optional(),
    subject: z.string().min(1).max(300).optional(),
    text: z.string().max(100_000).optional(),
    html: z.string().max(200_000).optional(),
    /** Why the mail is sent; used in logs and for idempotency keys. */
    reason: z.string().max(100),
    /** Files from storage to attach (an invoice PDF): server-chosen keys, never a path a client gave. */
    attachments: z.array(z.object({ filename: z.string().min(1).max(200), key: z.string().min(1).max(300) })).max(5).optional(),
  }),
  /**
   * Checks the SMTP settings against the server (after they change, or on
   * request) and stores the outcome in `smtp_valid`; super admins are told.
   */
  'mail.verify': z.object({
    /** Who asked (a super admin saving settings); they are told the result too. */
    requested_by: z.number().int().positive().optional(),
  }),
  'notify.dispatch': z.object({
    user_id: z.number().int().positive(),
    /** The preference key this notification belongs to (see NOTIFICATION_KINDS). */
    kind: z.string().min(1).max(60),
    /** The text in English (what a reader without keys sees; written for keyed notices too). */
    title: z.string().min(1).max(200),
    message: z.string().max(2000),
    /** The text as keys and values, rendered in each recipient's language (see NOTICES). */
    title_key: z.string().min(1).max(500).optional(),
    message_key: z.string().max(2000).optional(),
    params: noticeParamsSchema.optional(),
    type: notificationTypeSchema.default('info'),
    link: z.string().max(2000).optional(),
    /** Also send the same text by e-mail when the user's preference allows it. */
    email: z.boolean().default(true),
  }),
  /**
   * The daily scan of plan subscriptions (a job scheduler, one per
   * environment): tells owners a plan expires in PLAN_EXPIRY_NOTICE_DAYS days
   * and that it has expired, once per subscription and expiry date. `date`
   * (YYYY-MM-DD) stands for today; the scheduler leaves it out.
   */
  'plan.expiry-scan': z.object({
    date: z.iso.date().optional(),
  }),
  'sheet.from-pdf': z.object({
    upload_id: z.number().int().positive(),
  }),
  /**
   * Draws one sheet's plan from an uploaded PDF page or image (POST
   * /maps/{id}/plan), swaps it in for the old plan, if any, and scales the
   * sheet's rooms and snags to the new size so they stay where they were.
   */
  'sheet.plan': z.object({
    id_map: z.number().int().positive(),
    /** Storage key of the uploaded file (server-chosen). */
    file_key: z.string().min(1),
    kind: z.enum(['pdf', 'image']),
    page: z.number().int().positive(),
    id_user: z.number().int().positive().optional(),
  }),
  /**
   * Turns a room's uploaded 360 photo into its thumbnail, low-resolution
   * base panorama and tile pyramid (visits.ts), then marks the room ready
   * (or failed, with the reason). Running it again rebuilds the same files.
   */
  'room.tiles': z.object({
    id_room: z.number().int().positive(),
    /** Who uploaded the photo; they get the progress events too. */
    id_user: z.number().int().positive().optional(),
  }),
  /**
   * The steps of a walk-through video's run (videos.ts). Each carries the
   * run's generation: a job of an older generation (the run was restarted)
   * does nothing. Re-running a step replaces its outputs.
   */
  'video.process': videoStep,
  'video.generate-ply': videoStep,
  'video.project-points': videoStep.extend({
    osfm_cluster: z.number().int().min(0),
    id_map: z.number().int().positive(),
    image_width: z.number().int().positive(),
    image_height: z.number().int().positive(),
    control_points: z.array(controlPointSchema).default([]),
  }),
  /**
   * Brings an Autodesk hub or project into SiteWalk (autodesk.ts): the
   * adsk_sync_runs row holds what to sync and where it stands. Idempotent:
   * a version already imported is skipped, so a rerun resumes.
   */
  'adsk.sync': z.object({
    run_id: z.number().int().positive(),
  }),
  'video.confirm-projection': videoStep.extend({
    osfm_cluster: z.number().int().min(0),
    id_map: z.number().int().positive(),
    positions: z.array(z.object({ keyframe: z.number().int().min(0), x: z.number(), y: z.number(), heading: z.number().optional() })).default([]),
  }),
  /**
   * Makes one snag-list export (annotation-exports.ts): reads the snags the
   * requester may see under the export's filters, draws their pictures,
   * writes the file and marks the export row completed. Running it again
   * for a completed export does nothing.
   */
  'annotations.export': z.object({ id_export: z.number().int().positive() }),
  /**
   * The daily reminder (a job scheduler, once per environment): each person
   * with overdue snags gets one notification listing them. `day` (YYYY-MM-DD,
   * default today in the site's timezone) makes it once per person per day.
   */
  'annotations.remind-overdue': z.object({ day: z.iso.date().optional() }),
  /** Removes finished snag-list exports older than ANNOTATION_EXPORT.keepHours (hourly). */
  'annotations.exports-sweep': z.object({}),
  /**
   * Removes the accounts project invitations made for unknown e-mails that
   * nobody activated before the invitation link expired (hourly).
   */
  'users.purge-invited': z.object({}),
  /**
   * Writes an invoice's (or credit note's) PDF and, once it is paid, mails
   * it to the buyer with the PDF attached (billing.ts). The invoice row and
   * its number are made by the payment's transaction; this job only adds
   * the file and the mail, so running it again does nothing twice.
   */
  'invoice.generate': z.object({ id_invoice: z.number().int().positive() }),
  /**
   * Removes resumable video uploads nobody finished (no byte for
   * VIDEO_UPLOAD_EXPIRY_HOURS) with what they received (hourly).
   */
  'video.uploads-sweep': z.object({}),
} as const;

export type JobName = keyof typeof jobPayloads;
export type JobOf<N extends JobName> = z.infer<(typeof jobPayloads)[N]>;
export type JobInput<N extends JobName> = z.input<(typeof jobPayloads)[N]>;

export interface JobPolicy {
  queue: QueueName;
  attempts: number;
  /** Exponential backoff base delay in ms. */
  backoffMs: number;
  /** How many of these run at once in one worker process. */
  concurrency: number;
  /** Longest a single run may take before it counts as stalled, in ms. */
  timeoutMs: number;
}

export const JOB_POLICIES: Record<JobName, JobPolicy> = {
  'mail.send': { queue: 'mail', attempts: 5, backoffMs: 2_000, concurrency: 4, timeoutMs: 60_000 },
  // A failed check is an answer (smtp_valid false), not an error to retry.
  'mail.verify': { queue: 'mail', attempts: 1, backoffMs: 1_000, concurrency: 1, timeoutMs: 60_000 },
  'notify.dispatch': { queue: 'notifications', attempts: 5, backoffMs: 1_000, concurrency: 8, timeoutMs: 30_000 },
  // A scan is cheap and idempotent (the notices table), so a failed one simply runs again.
  'plan.expiry-scan': { queue: 'notifications', attempts: 3, backoffMs: 60_000, concurrency: 1, timeoutMs: 10 * 60_000 },
  'sheet.from-pdf': { queue: 'sheets', attempts: 3, backoffMs: 5_000, concurrency: 1, timeoutMs: 30 * 60_000 },
  'sheet.plan': { queue: 'sheets', attempts: 3, backoffMs: 5_000, concurrency: 1, timeoutMs: 10 * 60_000 },
  // One 8K panorama at a time per process: libvips already uses every core for it.
  'room.tiles': { queue: 'rooms', attempts: 3, backoffMs: 5_000, concurrency: 1, timeoutMs: 10 * 60_000 },
  // ffmpeg already uses several cores for one video; bad input fails at once (UnrecoverableError), so attempts are for crashes.
  'video.process': { queue: 'video', attempts: 3, backoffMs: 10_000, concurrency: 1, timeoutMs: 2 * 3600_000 },
  // COLMAP uses every core of its machine; a long walk takes hours on CPU.
  'video.generate-ply': { queue: 'reconstruction', attempts: 2, backoffMs: 30_000, concurrency: 1, timeoutMs: 8 * 3600_000 },
  'video.project-points': { queue: 'video', attempts: 3, backoffMs: 5_000, concurrency: 2, timeoutMs: 15 * 60_000 },
  'video.confirm-projection': { queue: 'video', attempts: 3, backoffMs: 5_000, concurrency: 2, timeoutMs: 15 * 60_000 },
  // A report draws a 360 view and a sheet crop per snag: minutes for a long list, and ffmpeg and libvips take the cores.
  'annotations.export': { queue: 'exports', attempts: 2, backoffMs: 10_000, concurrency: 1, timeoutMs: 30 * 60_000 },
  'annotations.remind-overdue': { queue: 'notifications', attempts: 3, backoffMs: 30_000, concurrency: 1, timeoutMs: 10 * 60_000 },
  'annotations.exports-sweep': { queue: 'exports', attempts: 2, backoffMs: 30_000, concurrency: 1, timeoutMs: 10 * 60_000 },
  // Mostly waiting on Autodesk; a retry resumes where the last attempt stopped.
  // One DELETE statement; a failed run is simply made again by the next tick.
  'users.purge-invited': { queue: 'notifications', attempts: 2, backoffMs: 60_000, concurrency: 1, timeoutMs: 5 * 60_000 },
  // Its own queue, so a burst of renewals never waits behind snag reports or mail.
  'invoice.generate': { queue: 'invoices', attempts: 5, backoffMs: 5_000, concurrency: 2, timeoutMs: 5 * 60_000 },
  'adsk.sync': { queue: 'design-cloud', attempts: 5, backoffMs: 10_000, concurrency: 2, timeoutMs: 2 * 3600_000 },
  // On the video queue: its workers see the disk the uploads grow on. A failed run is made again by the next tick.
  'video.uploads-sweep': { queue: 'video', attempts: 2, backoffMs: 60_000, concurrency: 1, timeoutMs: 10 * 60_000 },
};

export const JOB_NAMES = Object.keys(jobPayloads) as JobName[];

/** The jobs that travel on one queue. */
export const jobsOfQueue = (queue: QueueName): JobName[] =>
  JOB_NAMES.filter((n) => JOB_POLICIES[n].queue === queue);
