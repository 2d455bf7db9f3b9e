import { z } from 'zod';
import { idOf } from './ids.js';
import { MESSAGES } from './messages.js';

/**
 * Walk-through videos of a visit and their processing run (SPEC §1 "Video
 * processing", §7 "Maps, rooms and visits" and "Video processing"): a 360°
 * video becomes rooms of the visit, placed on a sheet and linked by
 * hotspots. Every answer is the envelope {status, message, data}; below is
 * what `data` holds. A visit has at most one video.
 *
 *   POST   /visits/{id}/video            → 201 VideoDetail     multipart "file" (the video). Streamed to storage (no
 *                                                              request timeout; report upload progress from the browser).
 *                                                              Checked by content with ffprobe before it is kept:
 *                                                              not a video (a text file named .mp4) → 415; a video
 *                                                              without a picture, without a length or shorter than
 *                                                              VIDEO_LIMITS.minSeconds → 422; larger than the server's
 *                                                              limit (VideoDetail.max_bytes, default
 *                                                              VIDEO_LIMITS.defaultMaxBytes) → 413. Uploading again
 *                                                              replaces the video and everything made from it (its run,
 *                                                              files, and the rooms it made). run.status is 'uploaded':
 *                                                              the client then calls POST /python/videos/process.
 *   Resumable upload (the tus protocol 1.0.0, https://tus.io; tus-js-client speaks it), the way for large files:
 *   POST   /uploads/videos               → 201, Location /api/uploads/videos/{upload id} (server-chosen). Headers
 *                                                              Tus-Resumable: 1.0.0, Upload-Length (bytes, required),
 *                                                              Upload-Metadata with visit_id (required), filename, filetype.
 *                                                              404 for a visit the user cannot see; 413 above the limit
 *                                                              (max_bytes) with a sentence; 400 without a length or visit.
 *   HEAD   /uploads/videos/{upload id}   → 200, Upload-Offset: how many bytes the server has (resume from there).
 *   PATCH  /uploads/videos/{upload id}   → 204, Upload-Offset. Content-Type application/offset+octet-stream. The PATCH
 *                                                              that brings the last byte answers 200 with the envelope of
 *                                                              the VideoDetail: the file was checked exactly as the
 *                                                              multipart call does (415/422/403 with the sentence in the
 *                                                              envelope, and the upload is gone), and made the visit's
 *                                                              video, once (run.status 'uploaded').
 *   DELETE /uploads/videos/{upload id}   → 204: cancels, removes what was received. 409 once the upload became the video.
 *                                                              Another user's upload is a 404 for every call. Unfinished
 *                                                              uploads are removed VIDEO_UPLOAD_EXPIRY_HOURS after their
 *                                                              last byte.
 *   GET    /visits/{id}/video            → VideoDetail | null  the video and its run: read it on page load and after a
 *                                                              'completed'/'failed' progress event (the run in the
 *                                                              database is the truth; events only say "look again").
 *   DELETE /visits/{id}/video/delete     → VideoDeleteResponse the video, its run, its files and the rooms made from it
 *                                                              (with their hotspots, points of interest and tiles).
 *
 *   POST   /python/videos/process        → 202 VideoDetail     body {video_id}. Starts the run, or starts it again from
 *                                                              the beginning (a new `generation`; a step of the old run
 *                                                              still going stops and its outputs are ignored). When
 *                                                              process succeeds, generate-ply is queued by itself.
 *   POST   /python/videos/generate-ply   → 202 VideoDetail     body {video_id, visit_id}. Runs structure-from-motion again
 *                                                              on the processed keyframes (replacing the clusters). 409
 *                                                              while process has not succeeded.
 *   POST   /python/videos/project-points → 202 VideoDetail     body ProjectPointsRequest. Lays cluster `osfmCluster` on
 *                                                              sheet `id_map`: proposed room positions + a preview image
 *                                                              (artifacts.projections). 409 before generate-ply
 *                                                              succeeded, 422 when the cluster does not exist, 404 for a
 *                                                              sheet of another project. Asking again replaces the
 *                                                              proposal of that cluster.
 *   POST   /python/videos/confirm-projection → 202 VideoDetail body ConfirmProjectionRequest. Creates one room per keyframe
 *                                                              of the cluster (the 360 frame as the room's photo, queued
 *                                                              for room.tiles like an uploaded photo), places them on the
 *                                                              sheet (GET /maps/{id}/rooms?osfm_cluster=… returns them),
 *                                                              links consecutive rooms with hotspots both ways (in the
 *                                                              direction the camera moved), notifies the visit's owner.
 *                                                              Confirming again replaces those rooms, never duplicates.
 *                                                              409 when the cluster has no projection on that sheet.
 *
 * Who may do what: as for rooms (visits.ts) — people who may edit the visit's
 * project upload, delete and run; people who may see it read GET; a visit or
 * video of a project the user cannot see is a 404, one they may only read a 403.
 *
 * The run: one row per video (VideoRun), moved by a single server function;
 * it says which step runs, its percent and message, each step's status,
 * timings, the error (with the SPEC §8 title of its step) and the artifacts.
 * Steps: process (ffprobe, keyframes by motion, 360 frames + perspective
 * views) → generate-ply (COLMAP; each connected reconstruction is a
 * *cluster* `osfm_cluster`, with a binary PLY and the camera path) → the
 * user picks a sheet and cluster: project-points (proposal + preview) →
 * confirm-projection (rooms, positions, hotspots). While waiting for the user
 * the run's status is 'needs_projection' or 'needs_confirmation'.
 *
 * Live progress arrives over Socket.IO as 'job:progress' (JobProgressEvent of
 * events.ts) in the rooms of the user who started the step, of the project
 * owner, and of the project (`project:join`), with
 *   job: 'video.process' | 'video.generate-ply' | 'video.project-points' | 'video.confirm-projection',
 *   subject: {kind: 'video', id: video id}, project_id,
 *   state: queued | active | completed | failed, percent 0..100 (of that step),
 *   message (a sentence for the user, or the reason of a failure), detail: VideoProgressDetail.
 * Events carry absolute state; ignore events whose detail.generation is lower
 * than the run's. The owner gets a notification when the run fails, when the
 * clusters are ready (time to choose a sheet) and when rooms are placed.
 *
 * Coordinates: positions are sheet pixels of the full image (as SheetRoom x, y:
 * origin top-left, `width` × `height` of SheetDetail). `imageWidth`/`imageHeight`
 * are the size of the image the client measured control points on (normally
 * the sheet's width and height; the server scales when they differ).
 * `heading` is where yaw 0 (the centre) of the room's panorama points on the
 * sheet, radians clockwise from the sheet's up, as in visits.ts.
 *
 * Artifact URLs are signed (valid for hours), like a sheet's tile template:
 *   keyframes[i].image_url      JPEG, the 360 frame (width of the video), for thumbnails in the stepper
 *   clusters[i].ply_url         binary little-endian PLY (x, y, z float; red, green, blue uchar): three.js PLYLoader
 *   clusters[i].path_url        JSON VideoCameraPath: the camera position of each placed keyframe, same frame as the PLY
 *   projections[i].preview_url  PNG, transparent, the sheet's aspect ratio (at most 2048 px wide): the projected
 *                               points (in their colours), the walk (red line) and the rooms (yellow rings); lay it over the sheet's bounds
 *                               (Leaflet L.imageOverlay on [[0,0] … [width,height]] in sheet pixels)
 *   video.url                   the uploaded file, for a <video> preview
 */

/** Limits of an uploaded walk-through video. */
export const VIDEO_LIMITS = {
  /** Largest file accepted when the server sets nothing else (VIDEO_MAX_BYTES): 8 GiB. */
  defaultMaxBytes: 8 * 1024 * 1024 * 1024,
  /** Shortest video accepted at upload, seconds. */
  minSeconds: 1,
} as const;

/** The application's fields of a tus upload's Upload-Metadata (other keys are ignored). */
export const videoUploadMetadataSchema = z.object({
  visit_id: idOf('visit_id'),
  filename: z.string().max(1000, 'filename is too long.').optional(),
  filetype: z.string().max(200, 'filetype is too long.').optional(),
});
export type VideoUploadMetadata = z.infer<typeof videoUploadMetadataSchema>;

/** Upload-Length of a tus creation: the whole file's size, in bytes. */
export const videoUploadLengthSchema = z
  .string({ message: 'Send the size of the file in the Upload-Length header.' })
  .regex(/^\d{1,16}$/, 'Upload-Length must be the size of the file in bytes.')
  .transform(Number)
  .refine((n) => n > 0, 'The file is empty. Choose the file again.');

/** Where the browser creates resumable uploads (below /api). */
export const VIDEO_UPLOAD_PATH = '/uploads/videos';

export const VIDEO_STEPS = ['process', 'generate-ply', 'project-points', 'confirm-projection'] as const;
export type VideoStep = (typeof VIDEO_STEPS)[number];

/** The job of each step (jobs.ts). */
export const VIDEO_STEP_JOBS = {
  process: 'video.process',
  'generate-ply': 'video.generate-ply',
  'project-points': 'video.project-points',
  'confirm-projection': 'video.confirm-projection',
} as const satisfies Record<VideoStep, string>;

/** The SPEC §8 title shown when a step fails (confirmation failures read as projection failures). */
export const VIDEO_STEP_FAILURE: Record<VideoStep, string> = {
  process: MESSAGES.processVideoFailed,
  'generate-ply': MESSAGES.generatePlyFailed,
  'project-points': MESSAGES.projectPointsFailed,
  'confirm-projection': MESSAGES.projectPointsFailed,
};

/** Status of one step: not reached yet, waiting in the queue, running, succeeded, failed. */
export const VIDEO_STEP_STATUSES = ['pending', 'queued', 'active', 'done', 'failed'] as const;
export type VideoStepStatus = (typeof VIDEO_STEP_STATUSES)[number];

/**
 * Status of the whole run:
 *   uploaded           — stored, processing not started
 *   queued | running   — a step waits in the queue or runs (`step` says which)
 *   needs_projection   — clusters are ready: choose a sheet and a cluster (project-points)
 *   needs_confirmation — a proposal is ready: adjust and confirm (confirm-projection)
 *   completed          — rooms were placed (another cluster may still be projected and confirmed)
 *   failed             — `error` says which step and why; nothing half-made is left
 */
export const VIDEO_RUN_STATUSES = ['uploaded', 'queued', 'running', 'needs_projection', 'needs_confirmation', 'completed', 'failed'] as const;
export type VideoRunStatus = (typeof VIDEO_RUN_STATUSES)[number];

const cluster = z.preprocess(
  (v) => (typeof v === 'string' && /^\d{1,7}$/.test(v.trim()) ? Number(v) : v),
  z.number({ message: 'osfmCluster must be a cluster number.' }).int('osfmCluster must be a cluster number.').min(0, 'osfmCluster must be a cluster number.').max(1_000_000, 'osfmCluster must be a cluster number.'),
);
const pixelSize = (field: string) =>
  z.number({ message: `${field} must be a number of pixels.` }).int(`${field} must be a whole number of pixels.`).min(1, `${field} must be at least 1 pixel.`).max(1_000_000, `${field} is too large.`);
const coordinate = (field: string) => z.number({ message: `${field} must be a number.` }).finite(`${field} must be a number.`);

export const videoProcessSchema = z.object({ video_id: idOf('video_id') }).strict();
export type VideoProcessRequest = z.input<typeof videoProcessSchema>;

export const generatePlySchema = z.object({ video_id: idOf('video_id'), visit_id: idOf('visit_id') }).strict();
export type GeneratePlyRequest = z.input<typeof generatePlySchema>;

/** A keyframe pinned to a point of the plan (in imageWidth × imageHeight pixels). */
export const controlPointSchema = z
  .object({
    /** Keyframe index (VideoKeyframe.index); the first and last keyframes are the start and end of the walk. */
    keyframe: z.number({ message: 'keyframe must be a keyframe number.' }).int('keyframe must be a keyframe number.').min(0, 'keyframe must be a keyframe number.'),
    x: coordinate('x'),
    y: coordinate('y'),
  })
  .strict();
export type ControlPoint = z.infer<typeof controlPointSchema>;

export const projectPointsSchema = z
  .object({
    id_map: idOf('id_map'),
    id_visit: idOf('id_visit'),
    osfmCluster: cluster,
    imageWidth: pixelSize('imageWidth'),
    imageHeight: pixelSize('imageHeight'),
    /**
     * Optional: keyframes pinned on the plan. None: the walk is laid upright
     * (walls along the sheet's axes), scaled to fit and centred — a proposal to
     * adjust. One: moves it there. Two or more: scale, rotation and position
     * are fitted to them (least squares).
     */
    control_points: z
      .array(controlPointSchema)
      .max(200, 'At most 200 control points.')
      .refine((a) => new Set(a.map((c) => c.keyframe)).size === a.length, { message: 'Each keyframe may be pinned only once.' })
      .optional(),
  })
  .strict();
export type ProjectPointsRequest = z.input<typeof projectPointsSchema>;

export const confirmProjectionSchema = z
  .object({
    id_map: idOf('id_map'),
    id_visit: idOf('id_visit'),
    osfmCluster: cluster,
    /** Optional: positions moved by hand in the editor (sheet pixels); keyframes left out keep the proposal's. */
    positions: z
      .array(
        z
          .object({
            keyframe: z.number({ message: 'keyframe must be a keyframe number.' }).int('keyframe must be a keyframe number.').min(0, 'keyframe must be a keyframe number.'),
            x: coordinate('x'),
            y: coordinate('y'),
            heading: z.number({ message: 'heading must be an angle in radians.' }).min(-2 * Math.PI).max(2 * Math.PI).optional(),
          })
          .strict(),
      )
      .max(5000)
      .optional(),
  })
  .strict();
export type ConfirmProjectionRequest = z.input<typeof confirmProjectionSchema>;

/** A failure of the run: `title` is the SPEC §8 message of the step, `reason` says why in words for the user. */
export interface VideoRunError {
  step: VideoStep;
  title: string;
  reason: string;
}

/**
 * What the running step measured, for its remaining time: the phase
 * (keyframes: seconds of video scanned; structure-from-motion: views with
 * features, blocks of pairs matched, images placed), its rate over the last
 * reports, and the seconds left in the whole step as of `measured_at` (count
 * down from there between reports). null values: not measured yet.
 */
export interface VideoStepRate {
  phase: string | null;
  unit: 'video_seconds' | 'views' | 'blocks' | 'images' | 'percent';
  done: number;
  total: number;
  per_second: number | null;
  remaining_seconds: number | null;
  measured_at: string;
}

export interface VideoStepState {
  step: VideoStep;
  status: VideoStepStatus;
  /** 0..100 */
  percent: number;
  message: string;
  /** How many times the step was tried in this generation (retries of transient failures count). */
  attempts: number;
  started_at: string | null;
  finished_at: string | null;
  /** The reason, when it failed. */
  error: string | null;
  /** While active: the measured rate and the time left (absent before the first measure). */
  rate?: VideoStepRate | null;
}

/** A frame kept from the video: one room when the projection is confirmed. */
export interface VideoKeyframe {
  index: number;
  /** Seconds from the start of the video. */
  time: number;
  /** Signed URL of the 360 frame (JPEG). */
  image_url: string | null;
}

/** One connected reconstruction (COLMAP model). */
export interface VideoCluster {
  osfm_cluster: number;
  /** Keyframe indices placed in this cluster, in walking order. */
  keyframes: number[];
  /** Points in the PLY. */
  points: number;
  ply_url: string | null;
  path_url: string | null;
  /**
   * A walk that took the stairs is cut into one cluster per storey (kind 'floor', `floor` 0 the lowest) and one
   * for the stairs (kind 'stairs', floor null); absent on a walk of one storey. The user picks the sheet of each.
   */
  level?: { kind: 'floor' | 'stairs'; floor: number | null };
}

/** `path_url`: the camera path of a cluster, in the PLY's coordinates. */
export interface VideoCameraPath {
  osfm_cluster: number;
  cameras: { keyframe: number; time: number; position: [number, number, number] }[];
  /** Unit vector of "up" found from the floor plane (the PLY's frame is arbitrary). */
  up: [number, number, number] | null;
}

/** A proposed (or confirmed) position of a keyframe on the sheet. */
export interface VideoPosition {
  keyframe: number;
  x: number;
  y: number;
  /** Radians clockwise from the sheet's up where the panorama's centre looks. */
  heading: number;
}

export type ProjectionFit = 'initial' | 'controls' | 'plan';

/**
 * How sure the placement is, room by room (with two or more control points;
 * workers/src/video/placement-confidence.ts): each room's standard error in
 * metres (from the fit's conditioning, the reconstruction's drift along the
 * walk away from the control points, weak joins and loop closures, calibrated
 * by leaving each control point out). Rooms less sure than `threshold_m` are
 * `unsure`: the stepper says so and asks for one more control point at
 * `suggested_keyframe` (the place it helps most) instead of proposing them
 * silently.
 */
export interface ProjectionCertainty {
  /** A room whose error exceeds this many metres is unsure. */
  threshold_m: number;
  /** Standard error of each room's place, metres, in the order of `positions`. */
  error_m: number[];
  /** The largest of them. */
  worst_m: number;
  /** Keyframes of the unsure rooms, in walking order (empty: every room is vouched for). */
  unsure: number[];
  /** Runs of consecutive unsure keyframes (first and last keyframe number), for words like "rooms 12 to 30". */
  stretches: { from: number; to: number }[];
  /** Where one more control point helps most; null when no room is unsure. */
  suggested_keyframe: number | null;
  /** Sheet pixels per metre of the fit (the reconstruction's metre: the camera held 1.6 m above the floor). */
  px_per_metre: number;
  /** With three or more control points: how far off each was when predicted from the others, metres. */
  leave_one_out_m: number[] | null;
}

/** A cluster laid on a sheet. */
export interface VideoProjection {
  osfm_cluster: number;
  id_map: number;
  image_width: number;
  image_height: number;
  control_points: ControlPoint[];
  /** In sheet pixels (SheetDetail width × height). */
  positions: VideoPosition[];
  /** Sheet pixels per reconstruction unit (the fitted scale). */
  scale: number;
  /** Mean distance between control points and where the fit puts them, sheet pixels; null with fewer than 2. */
  residual_px: number | null;
  /**
   * How the walk was laid on the sheet: 'initial' a first guess without control points,
   * 'controls' fitted to the control points, 'plan' fitted to them and then snapped to the walls the sheet draws.
   */
  fitted_by?: ProjectionFit;
  /** How sure each room's place is (two or more control points; absent or null otherwise). */
  certainty?: ProjectionCertainty | null;
  preview_url: string | null;
  /** Set once confirmed: the rooms made, in walking order. */
  confirmed_at: string | null;
  room_ids: number[];
}

export interface VideoArtifacts {
  /** After process. */
  keyframes: VideoKeyframe[];
  /** After generate-ply, biggest first. */
  clusters: VideoCluster[];
  /** After project-points, one per (cluster, sheet) asked for. */
  projections: VideoProjection[];
}

/** The processing run of a video: the single source of truth of the stepper. */
export interface VideoRun {
  id_video: number;
  /** Goes up by one each time the run is (re)started with POST /python/videos/process. */
  generation: number;
  status: VideoRunStatus;
  /** The step running or waiting, else the last one that ran; null before the first. */
  step: VideoStep | null;
  /** Percent of `step`, 0..100. */
  percent: number;
  message: string;
  error: VideoRunError | null;
  /** Always the four steps, in order. */
  steps: VideoStepState[];
  artifacts: VideoArtifacts;
  /** Seconds spent, by step and by phase within a step ('process.motion', …). */
  timings: Record<string, number>;
  started_at: string | null;
  finished_at: string | null;
  updated_at: string;
}

export interface VideoDetail {
  id: number;
  id_visit: number;
  id_project: number;
  original_name: string;
  size_bytes: number;
  /** From ffprobe at upload. */
  codec: string;
  /** Seconds. */
  duration: number;
  /** Displayed size (rotation applied). */
  width: number;
  height: number;
  fps: number;
  /** Degrees the picture is turned by the player. */
  rotation: number;
  /**
   * '360' when equirectangular (2:1): keyframes become 360 rooms; 'flat' otherwise. A flat video is processed
   * too: its one view per keyframe is reconstructed with the video's own camera (focal length refined by
   * COLMAP from a typical phone's), and each keyframe becomes a flat room (the frame laid on the sphere where
   * the camera looked, grey elsewhere). Show the kind at upload so the user knows what to expect.
   */
  kind: '360' | 'flat';
  /** Signed URL of the uploaded file. */
  url: string | null;
  /** The server's upload limit, bytes. */
  max_bytes: number;
  can_edit: boolean;
  run: VideoRun;
  created_at: string;
}

export interface VideoDeleteResponse {
  id_visit: number;
  id_video: number;
  /** Rooms made from the video that went with it. */
  rooms_removed: number;
}

/** `detail` of a 'job:progress' event of the video.* jobs. */
export interface VideoProgressDetail {
  id_visit: number;
  id_video: number;
  step: VideoStep;
  generation: number;
  /** The run's status after this event. */
  status: VideoRunStatus;
  /** While the step runs: its measured rate and time left. */
  rate?: VideoStepRate | null;
  /** project-points and confirm-projection: which cluster and sheet. */
  osfm_cluster?: number;
  id_map?: number;
}
