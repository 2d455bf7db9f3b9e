import fsp from 'node:fs/promises';
import type { VideoCameraPath } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { sheetById } from '@sitewalk/core/repositories/sheets.repository.js';
import { visitById } from '@sitewalk/core/repositories/visits.repository.js';
import type { StoredCluster } from '@sitewalk/core/services/video-run.service.js';
import type { Handler } from '../registry.js';
import { RECONSTRUCTION_DIR, reconstruct } from '../video/reconstruct.js';
import type { Vec3 } from '../video/linear-algebra.js';
import { quatToMat } from '../video/linear-algebra.js';
import { upFromRotations } from '../video/projection.js';
import { runVideoStep, stageTimings, tellOwner } from './video-step.js';

/** Worker threads COLMAP may use: VIDEO_COLMAP_THREADS, else the core's default. */
const colmapThreads = () => {
  const v = Number(process.env.VIDEO_COLMAP_THREADS);
  return Number.isInteger(v) && v > 0 ? { threads: v } : {};
};

/**
 * video.generate-ply: structure-from-motion with COLMAP on the processed
 * keyframes (the pipeline core; COLMAP runs as child processes). Each
 * connected reconstruction is a cluster with a binary PLY and a camera path.
 * Running it again replaces the clusters; proposals made on the old ones go
 * (confirmed projections stay: their rooms exist).
 */
export const videoGeneratePly: Handler<'video.generate-ply'> = (data, job) =>
  runVideoStep(
    'generate-ply',
    data,
    job,
    async ({ run, workDir, workFolder, progress, signal }) => {
      const rec = await reconstruct(workDir, progress, { signal, ...colmapThreads() });
      const clusters: StoredCluster[] = [];
      for (const c of rec.clusters) {
        let up: Vec3 | null = null;
        try {
          up = upFromRotations(c.path.map((p) => quatToMat(p.rotation)));
        } catch {
          up = null; // the projection step finds the floor itself; the preview just goes without "up"
        }
        const camera: VideoCameraPath = {
          osfm_cluster: c.id,
          cameras: c.path.map((p) => ({ keyframe: p.keyframe, time: p.time, position: [p.centre[0], p.centre[1], p.centre[2]] as Vec3 })),
          up: up ? [up[0], up[1], up[2]] : null,
        };
        const cameraFile = `cluster-${c.id}.camera.json`;
        await fsp.writeFile(`${workDir}/${RECONSTRUCTION_DIR}/${cameraFile}`, JSON.stringify(camera));
        clusters.push({
          osfm_cluster: c.id,
          keyframes: c.path.map((p) => p.keyframe),
          points: c.points,
          ply_key: `${workFolder}/${RECONSTRUCTION_DIR}/cluster-${c.id}.ply`,
          path_key: `${workFolder}/${RECONSTRUCTION_DIR}/${cameraFile}`,
          ...(c.level ? { level: c.level } : {}),
        });
      }
      const placed = clusters.reduce((n, c) => n + c.keyframes.length, 0);
      const total = run.artifacts.keyframes?.length ?? placed;
      // A walk that took the stairs: say which cluster is which storey, so that each is laid on the sheet of its floor.
      const levels = rec.clusters.filter((c) => c.level);
      const storeys = levels.length
        ? `; the walk took the stairs: ${levels.map((c) => `cluster ${c.id} is ${c.level!.kind === 'stairs' ? 'the stairs' : `floor ${c.level!.floor! + 1} from the bottom`}`).join(', ')} — lay each floor on the sheet of its storey`
        : '';
      return {
        type: 'done',
        step: 'generate-ply',
        message: `${placed} of ${total} keyframes placed in ${clusters.length} ${clusters.length === 1 ? 'cluster' : 'clusters'}${storeys}`,
        artifacts: { clusters, projections: (run.artifacts.projections ?? []).filter((p) => p.confirmed_at) },
        timings: stageTimings('generate-ply', rec.timings.wall),
      };
    },
    async (video, run) => {
      const visit = await visitById(db(), video.id_visit);
      const sheet = visit?.id_map ? await sheetById(db(), visit.id_map) : null;
      await tellOwner(
        video,
        run,
        `${run.message}. ${sheet ? `Lay the walk on the sheet "${sheet.name}"` : 'Choose the sheet to lay the walk on'} and confirm to make the rooms.`,
        'success',
        'Walk-through video reconstructed',
      );
    },
  );
