import fsp from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { normaliseYaw, type ProjectionCertainty, type VideoPosition } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { sheetById } from '@sitewalk/core/repositories/sheets.repository.js';
import { readBuffer } from '@sitewalk/core/storage';
import type { StoredProjection } from '@sitewalk/core/services/video-run.service.js';
import type { Handler } from '../registry.js';
import { ProjectionFailed } from '@sitewalk/core/tools/errors.js';
import { logger } from '@sitewalk/core/logger.js';
import { decodePly } from '../video/ply.js';
import { applySimilarity, type Vec2 } from '../video/linear-algebra.js';
import { quatToMat } from '../video/linear-algebra.js';
import { projectCluster, toTopDown, type Projection } from '../video/projection.js';
import type { PlacementConfidence } from '../video/placement-confidence.js';
import { drawOverlay } from '../video/preview.js';
import type { PathPose } from '../video/reconstruct.js';
import { readSheetRaster } from '../video/sheet-raster.js';
import { runVideoStep } from './video-step.js';

const FITTED_BY_WORDS: Record<Projection['fittedBy'], string> = {
  initial: '',
  controls: ' (fitted to your control points)',
  plan: " (fitted to your control points and snapped to the plan's walls)",
};

/** The loop closures the reconstruction found (reconstruction.json), or none when it recorded none. */
async function readLoops(workDir: string): Promise<{ a: number; b: number }[]> {
  try {
    const rec = JSON.parse(await fsp.readFile(path.join(workDir, 'reconstruction', 'reconstruction.json'), 'utf8')) as { loops?: { a: number; b: number }[] };
    return (rec.loops ?? []).filter((l) => Number.isInteger(l.a) && Number.isInteger(l.b));
  } catch {
    return [];
  }
}

/** The stored form of the placement's confidence (metres rounded to the millimetre). */
export function certaintyOf(c: PlacementConfidence | null): ProjectionCertainty | null {
  if (!c) return null;
  const mm = (m: number) => Math.round(m * 1000) / 1000;
  return {
    threshold_m: c.thresholdM,
    error_m: c.errorM.map(mm),
    worst_m: mm(c.worstM),
    unsure: c.unsure,
    stretches: c.stretches,
    suggested_keyframe: c.suggested,
    px_per_metre: c.pxPerMetre,
    leave_one_out_m: c.leaveOneOutM?.map(mm) ?? null,
  };
}

/** The step's message about unsure rooms (the stepper says it in the user's language from `certainty`). */
function unsureWords(c: PlacementConfidence | null): string {
  if (!c || !c.unsure.length) return '';
  return `; ${c.unsure.length} of them may be up to ${c.worstM.toFixed(1)} m off: add one more control point at keyframe ${c.suggested}`;
}

/** Widest preview image, pixels. */
const PREVIEW_MAX_WIDTH = 2048;

/** Where the centre of each keyframe's panorama looks on the sheet: radians clockwise from the sheet's up. */
export function headingsOf(proj: Projection, poses: PathPose[]): number[] {
  const origin = applySimilarity(proj.transform, [0, 0]);
  return poses.map((p) => {
    const r = quatToMat(p.rotation);
    // View 0 (yaw 0 of the 360 image) looks along its camera's z axis: the third row of world → camera.
    const f = toTopDown(proj.topDown, [r[6], r[7], r[8]]);
    const [x, y] = applySimilarity(proj.transform, f);
    const dx = x - origin[0];
    const dy = y - origin[1];
    return normaliseYaw(Math.atan2(dx, -dy));
  });
}

/**
 * The preview: a transparent PNG with the sheet's aspect ratio, at most
 * PREVIEW_MAX_WIDTH wide, of the core's overlay (points in their colours,
 * the walk as a red line, rooms as rings), to be laid over the sheet.
 */
export async function renderPreview(sheet: { width: number; height: number }, proj: Pick<Projection, 'points' | 'rooms'>, rgb?: Uint8Array): Promise<Buffer> {
  const w = Math.max(1, Math.min(PREVIEW_MAX_WIDTH, Math.round(sheet.width)));
  const k = w / sheet.width;
  const h = Math.max(1, Math.round(sheet.height * k));
  const points = proj.points.map((v) => v * k);
  const rooms = proj.rooms.map((r) => ({ ...r, x: r.x * k, y: r.y * k }));
  const img = drawOverlay(w, h, { points, rooms }, rgb);
  return sharp(Buffer.from(img.buffer, img.byteOffset, img.byteLength), { raw: { width: w, height: h, channels: 4 } }).png({ compressionLevel: 6 }).toBuffer();
}

/**
 * video.project-points: lays one cluster on a sheet (the pipeline core's
 * floor, top-down and fit; to the control points when given), stores the
 * proposed room positions with their headings and a preview image. Asking
 * again replaces the proposal of that (cluster, sheet).
 */
export const videoProjectPoints: Handler<'video.project-points'> = (data, job) =>
  runVideoStep('project-points', data, job, async ({ run, workDir, workFolder, progress }) => {
    const cluster = (run.artifacts.clusters ?? []).find((c) => c.osfm_cluster === data.osfm_cluster);
    if (!cluster?.ply_key) throw new ProjectionFailed(`This video has no cluster ${data.osfm_cluster}; generate the point cloud again.`);
    const map = await sheetById(db(), data.id_map);
    if (!map || !map.width || !map.height) throw new ProjectionFailed('The sheet is gone or not ready; choose another sheet.');
    const sheet = { width: map.width, height: map.height };
    progress(10, 'Reading the point cloud');
    const cloud = decodePly(await readBuffer(cluster.ply_key));
    const poses = JSON.parse(await fsp.readFile(path.join(workDir, 'reconstruction', `cluster-${cluster.osfm_cluster}.path.json`), 'utf8')) as PathPose[];
    // Control points come in the client's image pixels; the sheet may be shown at another size.
    const sx = sheet.width / data.image_width;
    const sy = sheet.height / data.image_height;
    const controls = data.control_points.map((c) => ({ keyframe: c.keyframe, sheet: [c.x * sx, c.y * sy] as Vec2 }));
    // The sheet's picture, to snap the walk to its walls once control points have placed it roughly.
    const plan =
      controls.length >= 2 && map.folder && map.tile_size && map.max_zoom !== null
        ? await readSheetRaster({ width: sheet.width, height: sheet.height, tileSize: map.tile_size, maxZoom: map.max_zoom, tilesDir: `${map.folder}/tiles`, readTile: (rel) => readBuffer(`${map.folder}/tiles/${rel}`) })
        : null;
    progress(30, 'Finding the floor and laying the walk on the sheet');
    const loops = await readLoops(workDir);
    const proj = projectCluster({ points: cloud.xyz, path: poses, sheet, controls, plan: plan ?? undefined, loops });
    // Why a walk was or was not laid on the plan's walls: the operator's first question when rooms look off.
    if (proj.snap) logger.info({ video: data.id_video, cluster: cluster.osfm_cluster, map: map.id, snap: proj.snap }, 'snap to the plan\'s walls');
    const headings = headingsOf(proj, poses);
    const positions: VideoPosition[] = proj.rooms.map((r, i) => ({ keyframe: r.keyframe, x: r.x, y: r.y, heading: headings[i] }));
    progress(70, 'Drawing the preview');
    // A name of its own per proposal: its signed URL changes with it, so no browser shows a cached earlier picture.
    const base = `cluster-${cluster.osfm_cluster}-map-${map.id}`;
    const previewKey = `${workFolder}/projections/${base}-${Date.now().toString(36)}.png`;
    // The preview is one of the video's work files: written into the step's work folder (see runVideoStep).
    const previewFile = path.join(workDir, previewKey.slice(workFolder.length + 1));
    const previewDir = path.dirname(previewFile);
    await fsp.mkdir(previewDir, { recursive: true });
    const tmp = `${previewFile}.${process.pid}.tmp`;
    await fsp.writeFile(tmp, await renderPreview(sheet, { points: proj.points, rooms: proj.rooms.map((r, i) => ({ ...r, x: positions[i].x, y: positions[i].y })) }, cloud.rgb));
    await fsp.rename(tmp, previewFile);
    const previous = (run.artifacts.projections ?? []).find((p) => p.osfm_cluster === cluster.osfm_cluster && p.id_map === map.id);
    const keep = new Set([path.basename(previewKey), previous?.preview_key ? path.basename(previous.preview_key) : '']);
    for (const name of await fsp.readdir(previewDir)) {
      if ((name === `${base}.png` || name.startsWith(`${base}-`)) && name.endsWith('.png') && !keep.has(name)) await fsp.rm(path.join(previewDir, name), { force: true });
    }
    const residuals = proj.controlResiduals;
    const projection: StoredProjection = {
      osfm_cluster: cluster.osfm_cluster,
      id_map: map.id,
      image_width: data.image_width,
      image_height: data.image_height,
      control_points: data.control_points,
      positions,
      scale: proj.transform.scale,
      residual_px: residuals.length >= 2 ? residuals.reduce((a, b) => a + b, 0) / residuals.length : null,
      fitted_by: proj.fittedBy,
      certainty: certaintyOf(proj.confidence),
      preview_key: previewKey,
      // A new proposal needs confirming again; the rooms confirmed earlier stay until then.
      confirmed_at: null,
      room_ids: previous?.room_ids ?? [],
    };
    const others = (run.artifacts.projections ?? []).filter((p) => !(p.osfm_cluster === cluster.osfm_cluster && p.id_map === map.id));
    return {
      type: 'done',
      step: 'project-points',
      message: `${positions.length} rooms proposed on "${map.name}"${FITTED_BY_WORDS[proj.fittedBy]}${unsureWords(proj.confidence)}`,
      artifacts: { projections: [...others, projection] },
      detail: { osfm_cluster: cluster.osfm_cluster, id_map: map.id },
    };
  });
