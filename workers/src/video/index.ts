/**
 * The walk-through video pipeline (issue 8), worker side. Three steps, each
 * a plain async function over one work folder, so a BullMQ job per step is
 * a thin wrapper (load the row, call, store the files, report progress):
 *
 *   const manifest = await processVideo(videoFile, workDir, onProgress);
 *     // ffprobe check, keyframes chosen by motion while decoding once (only
 *     // the reference frames), workDir/rooms/NNNN.jpg (360 rooms),
 *     // workDir/views/vK/NNNN.jpg (perspective views for reconstruction, cut
 *     // at fixed world directions: the measured turn is taken out),
 *     // workDir/manifest.json. A flat video (not 2:1) gives flat rooms (the
 *     // frame laid on the sphere ahead) and one view per keyframe whose
 *     // focal length COLMAP refines.
 *   const rec = await reconstruct(workDir, onProgress);
 *     // COLMAP: features, matching of walking-order view pairs, mapping
 *     // with the known focal; workDir/reconstruction/cluster-N.ply (binary
 *     // little-endian x y z float, red green blue uchar), cluster-N.path.json
 *     // (per keyframe: keyframe, frame, time, centre, rotation) and
 *     // reconstruction.json; rec.clusters[i].id is the osfm_cluster number,
 *     // rec.unplaced the keyframes in no cluster
 *   const projection = projectCluster({ points, path, sheet: { width, height }, controls });
 *     // floor, top-down, similarity to the sheet; rooms in sheet pixels
 *   const png = await renderPreview({ width, height, image: sheetFile }, projection, colours);
 *
 * `onProgress(percent 0–100, message in words)`. Failures are classes with
 * the SPEC §8 title of their step and a reason for the user:
 * `VideoRejected` ('Failed to process video'), `ReconstructionFailed`
 * ('Failed to generate PLY file', with `unplacedFrames`), `ProjectionFailed`
 * ('Failed to project points'); `isInputError` tells which ones retrying
 * cannot fix (→ UnrecoverableError). `ToolMissing` means ffmpeg, ffprobe or
 * colmap is not installed (FFMPEG_PATH, FFPROBE_PATH, COLMAP_PATH). A step
 * that fails leaves nothing half-made in the work folder; running a step
 * again replaces its previous results.
 */
export { processVideo, readManifest, DEFAULT_PROCESS_OPTIONS, type ProcessManifest, type ProcessOptions, type KeyframeInfo, type OnProgress } from './process.js';
export { reconstruct, DEFAULT_RECONSTRUCT_OPTIONS, RECONSTRUCTION_DIR, type Reconstruction, type Cluster, type PathPose, type ReconstructOptions } from './reconstruct.js';
export { projectCluster, fitSimilarity2D, type Projection, type ProjectionInput, type ControlPoint, type RoomPosition } from './projection.js';
export { applySimilarity, type Similarity2D } from './linear-algebra.js';
export { renderPreview, drawOverlay } from './preview.js';
export { decodePly, encodePly, writePly, type PointCloud } from './ply.js';
export { VideoRejected, ReconstructionFailed, ProjectionFailed, ToolMissing, isInputError } from '@sitewalk/core/tools/errors.js';
export { probeVideo, type VideoProbe } from '@sitewalk/core/tools/ffprobe.js';
