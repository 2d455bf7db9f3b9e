/**
 * The errors of the video pipeline. Each names the SPEC §8 message of its
 * step (`title`) and carries a reason in words for the user. `VideoRejected`
 * and `ReconstructionFailed` are the input's fault: a job wrapper turns them
 * into BullMQ `UnrecoverableError` (retrying cannot help). `ToolMissing` is
 * the machine's fault and is worth retrying once the tool is installed.
 */

/** The uploaded file cannot be processed: not a video, cut off, too short, nothing to see. */
export class VideoRejected extends Error {
  override name = 'VideoRejected';
  readonly title = 'Failed to process video';
}

/** Structure-from-motion could not place the walk; `unplacedFrames` lists the keyframes (indices) left out. */
export class ReconstructionFailed extends Error {
  override name = 'ReconstructionFailed';
  readonly title = 'Failed to generate PLY file';
  constructor(message: string, readonly unplacedFrames: number[] = []) {
    super(message);
  }
}

/** The point cloud cannot be laid on the sheet (no floor, degenerate control points, …). */
export class ProjectionFailed extends Error {
  override name = 'ProjectionFailed';
  readonly title = 'Failed to project points';
}

/** A program the pipeline runs (ffmpeg, ffprobe, colmap) is not installed or not where its variable says. */
export class ToolMissing extends Error {
  override name = 'ToolMissing';
  constructor(readonly tool: string, hint: string) {
    super(`${tool} is not installed or not found (${hint}).`);
  }
}

/** Whether retrying the same input can never succeed (a job wrapper maps these to UnrecoverableError). */
export const isInputError = (err: unknown): err is VideoRejected | ReconstructionFailed | ProjectionFailed =>
  err instanceof VideoRejected || err instanceof ReconstructionFailed || err instanceof ProjectionFailed;
