import type { AxiosProgressEvent } from 'axios';
import {
  MESSAGES,
  type ConfirmProjectionRequest,
  type ProjectPointsRequest,
  type VideoDeleteResponse,
  type VideoDetail,
} from '@sitewalk/proto';
import { VIDEO_UPLOAD_TIMEOUT, api, apiRequest } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';
import { uploadResumable } from './resumable-upload';

/**
 * The calls of the walk-through video screens (contract in proto videos.ts),
 * through the app's one HTTP client. Defaults are the SPEC §8 messages.
 */

export const VIDEO_LOAD_FAILED = tk('Failed to load the video.');
export const VIDEO_DELETE_FAILED = tk('Failed to delete the video.');

export const videoApi = {
  /** The visit's video and its run; null when the visit has none. */
  get: (visitId: number) => api.get<VideoDetail | null>(`/visits/${visitId}/video`, VIDEO_LOAD_FAILED),

  /**
   * Sends the video resumably (tus, resumable-upload.ts) with progress
   * (0..100) and no timeout (SPEC §9): a dropped connection or a closed tab
   * carries on where the server stopped. `signal` cancels it (and the server
   * drops what it received); a cancelled upload rejects with an error whose
   * `cancelled` is true.
   */
  upload: (visitId: number, file: File, onProgress: (percent: number, loaded: number) => void, signal: AbortSignal, onResumed?: () => void) =>
    uploadResumable(visitId, file, { onProgress, onResumed }, signal, () => videoApi.get(visitId)),

  /** The one-request multipart upload (POST /visits/{id}/video), same progress and cancel. */
  uploadMultipart: async (visitId: number, file: File, onProgress: (percent: number, loaded: number) => void, signal: AbortSignal) => {
    const form = new FormData();
    form.append('file', file);
    try {
      return (
        await apiRequest<VideoDetail>(
          {
            url: `/visits/${visitId}/video`,
            method: 'POST',
            data: form,
            timeout: VIDEO_UPLOAD_TIMEOUT,
            signal,
            onUploadProgress: (e: AxiosProgressEvent) => {
              const total = e.total ?? file.size;
              if (total) onProgress(Math.min(100, Math.round((e.loaded / total) * 100)), e.loaded);
            },
          },
          MESSAGES.uploadVideoFailed,
        )
      ).data;
    } catch (err) {
      if (signal.aborted) throw Object.assign(new Error('cancelled'), { cancelled: true });
      throw err;
    }
  },

  remove: (visitId: number) => api.delete<VideoDeleteResponse>(`/visits/${visitId}/video/delete`, VIDEO_DELETE_FAILED),

  process: (videoId: number) => api.post<VideoDetail>('/python/videos/process', { video_id: videoId }, MESSAGES.processVideoFailed),

  generatePly: (videoId: number, visitId: number) => api.post<VideoDetail>('/python/videos/generate-ply', { video_id: videoId, visit_id: visitId }, MESSAGES.generatePlyFailed),

  projectPoints: (body: ProjectPointsRequest) => api.post<VideoDetail>('/python/videos/project-points', body, MESSAGES.projectPointsFailed),

  confirm: (body: ConfirmProjectionRequest) => api.post<VideoDetail>('/python/videos/confirm-projection', body, MESSAGES.projectPointsFailed),
};

export const isCancelled = (err: unknown) => !!err && typeof err === 'object' && (err as { cancelled?: boolean }).cancelled === true;
