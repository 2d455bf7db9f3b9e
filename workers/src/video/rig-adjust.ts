/**
 * One window's direction models adjusted together as the rig they come from.
 *
 * Each view direction of a window is mapped on its own (reconstruct.ts
 * mapSubmaps): three narrow cameras, each of which drifts in scale on its
 * own down a long corridor (the one looking along it sees the far end with
 * little parallax). The three views of a keyframe are cut from one 360
 * frame: they share one centre and turn together by fixed yaws. Written
 * into one model in a common frame and bundle-adjusted with that rig held
 * (COLMAP's `rig_bundle_adjuster`, relative poses given and fixed), each
 * keyframe is one pose seen all round, as a 360 camera is.
 *
 * The text model's combination is pure (combineTextModels); the run is in
 * adjustRigWindow.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { ColmapError, modelToText, rigBundleAdjust } from '../adapters/colmap.js';
import { parseImages, parsePoints } from './colmap-model.js';
import { mul, matToQuat, norm, quatToMat, rotate, sub, transpose, type Mat3, type Vec3 } from './linear-algebra.js';
import { alignSightings, applySimilarity3, sightingsOf, type RigModel, type Sighting, type Similarity3, type ViewRef } from './rig-merge.js';

/** A COLMAP text model as its three files' contents. */
export interface TextModel {
  cameras: string;
  images: string;
  points: string;
}

const dataLines = (text: string) => text.split('\n').filter((l) => l.trim() && !l.startsWith('#'));

/** images.txt: the pose line and the 2D points line of each image. */
function imageEntries(text: string): { head: string[]; points: string[] }[] {
  const lines = text.split('\n');
  const out: { head: string[]; points: string[] }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (!l.trim() || l.startsWith('#')) continue;
    out.push({ head: l.trim().split(/\s+/), points: (lines[i + 1] ?? '').trim().split(/\s+/).filter(Boolean) });
    i++;
  }
  return out;
}

/**
 * World → camera pose moved by a similarity of the world (X' = s R X + T): x = R_c X + t becomes
 * s x = R_c Rᵀ (X' − T) + s t, so R_c' = R_c Rᵀ and t' = s t − R_c' T.
 */
export function movePose(sim: Similarity3, q: readonly number[], t: Vec3): { q: [number, number, number, number]; t: Vec3 } {
  const r: Mat3 = mul(quatToMat(q), transpose(sim.rotation));
  const rt = rotate(r, sim.translation);
  return { q: matToQuat(r), t: [sim.scale * t[0] - rt[0], sim.scale * t[1] - rt[1], sim.scale * t[2] - rt[2]] };
}

/**
 * Several models of one database (the same image ids) written as one, each moved into the common frame by its
 * similarity. An image in more than one model is kept from the first (its observations in the others are dropped,
 * as are points left seen by fewer than two images); point ids are numbered afresh.
 */
export function combineTextModels(models: { text: TextModel; sim: Similarity3 }[]): TextModel & { imageCount: number; pointCount: number } {
  const cameras = new Map<string, string>();
  const taken = new Set<string>();
  const imageLines: string[] = [];
  const pointLines: string[] = [];
  let nextPoint = 1;
  for (const { text, sim } of models) {
    for (const l of dataLines(text.cameras)) cameras.set(l.trim().split(/\s+/)[0], l.trim());
    const entries = imageEntries(text.images);
    // This model's own images (not already taken from an earlier model).
    const own = new Set(entries.map((e) => e.head[0]).filter((id) => !taken.has(id)));
    const newId = new Map<string, number>();
    for (const l of dataLines(text.points)) {
      const f = l.trim().split(/\s+/);
      const track: string[] = [];
      for (let i = 8; i + 1 < f.length; i += 2) if (own.has(f[i])) track.push(f[i], f[i + 1]);
      if (track.length < 4) continue;
      const id = nextPoint++;
      newId.set(f[0], id);
      const xyz = applySimilarity3(sim, [Number(f[1]), Number(f[2]), Number(f[3])]);
      pointLines.push([id, ...xyz, f[4], f[5], f[6], f[7], ...track].join(' '));
    }
    for (const { head, points } of entries) {
      if (!own.has(head[0])) continue;
      taken.add(head[0]);
      const pose = movePose(sim, head.slice(1, 5).map(Number), [Number(head[5]), Number(head[6]), Number(head[7])]);
      const p2d: string[] = [];
      for (let i = 0; i + 2 < points.length; i += 3) p2d.push(points[i], points[i + 1], String(newId.get(points[i + 2]) ?? -1));
      imageLines.push([head[0], ...pose.q, ...pose.t, head[8], ...head.slice(9)].join(' '), p2d.join(' '));
    }
  }
  return {
    cameras: [...cameras.values()].join('\n') + '\n',
    images: imageLines.join('\n') + '\n',
    points: pointLines.join('\n') + '\n',
    imageCount: imageLines.length / 2,
    pointCount: pointLines.length,
  };
}

/** One camera of the rig: its id, the folder its views are in (`v1/`) and how far right of the reference it looks. */
export interface RigCamera {
  cameraId: number;
  prefix: string;
  yawDeg: number;
}

/**
 * COLMAP's rig configuration: the reference camera first; each camera's pose relative to it (rig → camera: a turn
 * about the down axis by its yaw, no shift, as the views are cut from one 360 frame).
 */
export function rigConfig(cameras: RigCamera[]): unknown {
  const ref = cameras[0];
  return [
    {
      ref_camera_id: ref.cameraId,
      cameras: cameras.map((c) => {
        const t = (-(c.yawDeg - ref.yawDeg) * Math.PI) / 180;
        // rotY(θ) turns the optical axis right by θ (colmap-model.ts); the camera's rotation is rotY(−yaw) of the rig's.
        return { camera_id: c.cameraId, image_prefix: c.prefix, rel_tvec: [0, 0, 0], rel_qvec: [Math.cos(t / 2), 0, Math.sin(t / 2), 0] };
      }),
    },
  ];
}

/** A mapper's model with the folder of its text export. */
export interface MappedModel extends RigModel {
  textDir: string;
}

export interface RigAdjustOptions {
  /** Iterations of the adjustment at most (COLMAP's default 100; it converges within a few dozen from the models' own poses). */
  maxIterations: number;
  /**
   * The adjusted window is kept only when no input model is further from it than this many times the furthest input
   * is from the largest (root mean square over the keyframes both place, after the best similarity): else the window's
   * models are joined as they were.
   */
  maxSpreadFactor: number;
}

export const DEFAULT_RIG_ADJUST_OPTIONS: RigAdjustOptions = { maxIterations: 40, maxSpreadFactor: 1.25 };

/** How far two models' keyframes are apart once the first is fitted onto the second: root mean square over all they share, the second's units. */
function apart(source: Map<number, Sighting>, target: Map<number, Sighting>): number {
  const sim = alignSightings(source, target);
  if (!sim) return Infinity;
  const shared = [...source.keys()].filter((k) => target.has(k));
  return Math.sqrt(shared.reduce((sum, k) => sum + norm(sub(applySimilarity3(sim, source.get(k)!.centre), target.get(k)!.centre)) ** 2, 0) / shared.length);
}

const IDENTITY: Similarity3 = { scale: 1, rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0, 0, 0] };

/** The view direction of a view name (`v1/000042.jpg` → 1) and the keyframe part shared by its rig's views. */
const viewName = (name: string) => {
  const m = /^v(\d+)\/(.+)$/.exec(name);
  return m ? { direction: Number(m[1]), suffix: m[2] } : null;
};

/**
 * One window's models adjusted as one rig: the largest model of each direction, each brought into the frame of the
 * largest by the keyframes both place (rig-merge.ts alignSightings). Null when fewer than two directions come together
 * or COLMAP cannot adjust them (the window's models are then joined as they are). `replaced` are the models the
 * adjusted one stands for.
 */
export async function adjustRigWindow(
  models: MappedModel[],
  refs: Map<string, ViewRef>,
  workDir: string,
  opts: RigAdjustOptions = DEFAULT_RIG_ADJUST_OPTIONS,
  signal?: AbortSignal,
): Promise<{ model: RigModel; replaced: MappedModel[] } | null> {
  const largest = new Map<number, MappedModel>();
  for (const m of models) {
    const d = viewName(m.images[0]?.name ?? '')?.direction;
    if (d === undefined) continue;
    // A direction's model holds the anchors of other directions too; it is the direction most of its views look.
    const counts = new Map<number, number>();
    for (const img of m.images) {
      const dir = viewName(img.name)?.direction;
      if (dir !== undefined) counts.set(dir, (counts.get(dir) ?? 0) + 1);
    }
    const main = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    if ((largest.get(main)?.images.length ?? 0) < m.images.length) largest.set(main, m);
  }
  const byDirection = [...largest].sort((a, b) => b[1].images.length - a[1].images.length);
  if (byDirection.length < 2) return null;
  const [refDirection, ref] = byDirection[0];
  const target = sightingsOf(ref, refs);
  const joined: { direction: number; model: MappedModel; sim: Similarity3 }[] = [{ direction: refDirection, model: ref, sim: IDENTITY }];
  for (const [direction, model] of byDirection.slice(1)) {
    const sim = alignSightings(sightingsOf(model, refs), target);
    if (sim) joined.push({ direction, model, sim });
  }
  if (joined.length < 2) return null;

  // The rig's cameras: each direction's camera (one a folder) and its yaw from the reference's, read off one keyframe.
  const cameraOf = new Map<number, number>();
  for (const { model } of joined) for (const img of model.images) if (!cameraOf.has(viewName(img.name)!.direction)) cameraOf.set(viewName(img.name)!.direction, img.cameraId);
  const suffix = viewName(ref.images[0].name)!.suffix;
  const refYaw = refs.get(`v${refDirection}/${suffix}`)?.yawDeg;
  const directions = [refDirection, ...[...cameraOf.keys()].filter((d) => d !== refDirection).sort((a, b) => a - b)];
  const cameras: RigCamera[] = directions.flatMap((d) => {
    const yaw = refs.get(`v${d}/${suffix}`)?.yawDeg;
    return refYaw === undefined || yaw === undefined ? [] : [{ cameraId: cameraOf.get(d)!, prefix: `v${d}/`, yawDeg: yaw }];
  });
  if (cameras.length < 2 || cameras[0].cameraId !== cameraOf.get(refDirection)) return null;

  const dir = await fsp.mkdtemp(path.join(workDir, 'rig-'));
  const input = path.join(dir, 'in');
  const output = path.join(dir, 'out');
  await fsp.mkdir(input);
  const texts = await Promise.all(
    joined.map(async ({ model, sim }) => {
      const [cameras, images, points] = await Promise.all(['cameras.txt', 'images.txt', 'points3D.txt'].map((f) => fsp.readFile(path.join(model.textDir, f), 'utf8')));
      return { text: { cameras, images, points }, sim };
    }),
  );
  const combined = combineTextModels(texts);
  await Promise.all([
    fsp.writeFile(path.join(input, 'cameras.txt'), combined.cameras),
    fsp.writeFile(path.join(input, 'images.txt'), combined.images),
    fsp.writeFile(path.join(input, 'points3D.txt'), combined.points),
    fsp.writeFile(path.join(dir, 'rig.json'), JSON.stringify(rigConfig(cameras))),
  ]);
  try {
    await rigBundleAdjust({ inputPath: input, outputPath: output, rigConfigPath: path.join(dir, 'rig.json'), maxIterations: opts.maxIterations, signal });
    const txt = path.join(dir, 'txt');
    await modelToText(output, txt, signal);
    const [images, points] = await Promise.all([fsp.readFile(path.join(txt, 'images.txt'), 'utf8'), fsp.readFile(path.join(txt, 'points3D.txt'), 'utf8')]);
    const source = joined.map((j) => j.model.source).join('+');
    const model: RigModel = { images: parseImages(images), points: parsePoints(points), source: `rig ${source}` };
    // The adjustment must land among its inputs. Held to one rig, a direction model that went wrong in part can drag
    // the others with it: on the building walk one window came out 1.4 m off inside itself, its inputs 0.07–0.43 m.
    const adjusted = sightingsOf(model, refs);
    const toRef = alignSightings(adjusted, target);
    const inputsApart = Math.max(...joined.slice(1).map((j) => apart(sightingsOf(j.model, refs), target)));
    const rigApart = toRef ? toRef.scale * Math.max(...joined.map((j) => apart(sightingsOf(j.model, refs), adjusted))) : Infinity;
    if (!(rigApart <= opts.maxSpreadFactor * inputsApart)) return null;
    return { model, replaced: joined.map((j) => j.model) };
  } catch (err) {
    if (err instanceof ColmapError) return null;
    throw err;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}
