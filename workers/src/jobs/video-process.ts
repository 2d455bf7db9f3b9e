import { enqueue } from '@sitewalk/core/queue';
import { withLocalFile } from '@sitewalk/core/storage';
import { videoJobId } from '@sitewalk/core/services/videos.service.js';
import type { Handler } from '../registry.js';
import { processVideo } from '../video/process.js';
import { runVideoStep, stageTimings } from './video-step.js';

/**
 * video.process: ffprobe, keyframes by motion, the 360 frame of each
 * keyframe and its perspective views (the pipeline core, ffmpeg in child
 * processes). Then generate-ply is queued by itself, so one click starts the
 * whole reconstruction. Running it again replaces the keyframes.
 */
export const videoProcess: Handler<'video.process'> = (data, job) =>
  runVideoStep('process', data, job, async ({ video, workDir, workFolder, progress, signal }) => {
    const manifest = await withLocalFile(video.file_key, (file) => processVideo(file, workDir, progress, { signal }));
    // Queued before the run says so: if this worker dies in between, the retry finds the job already there (same id).
    const jobId = videoJobId(video.id, data.generation, 'generate-ply', 'auto');
    await enqueue('video.generate-ply', { id_video: video.id, generation: data.generation, id_user: data.id_user }, { jobId });
    return {
      type: 'done',
      step: 'process',
      message: `${manifest.keyframes.length} keyframes chosen`,
      artifacts: { keyframes: manifest.keyframes.map((k) => ({ index: k.index, time: k.time, image_key: `${workFolder}/${k.room}` })) },
      timings: stageTimings('process', manifest.timings.wall),
      then: { step: 'generate-ply', jobId },
    };
  });
