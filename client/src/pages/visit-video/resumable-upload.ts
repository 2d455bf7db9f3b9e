import * as tus from 'tus-js-client';
import { MESSAGES, VIDEO_UPLOAD_PATH, type Envelope, type VideoDetail } from '@sitewalk/proto';
import { authHeaders, refreshAuth } from '../../lib/api-client';

/**
 * Sends a walk-through video with the tus protocol (contract in proto
 * videos.ts): in pieces, carrying on where the server stopped after a
 * dropped connection (retries with growing pauses) or a closed tab (the
 * upload's address is kept in localStorage under a fingerprint of the visit
 * and the file; choosing the same file again resumes it). Cancelling removes
 * what the server received.
 */

/** The abort reason of leaving the page: the upload stops but stays on the server, to be carried on. */
export const LEAVE_PAGE = 'leave-page';

/** Pieces of 64 MiB: few requests, and a proxy's body limit is met by raising it once. */
const CHUNK_BYTES = 64 * 1024 * 1024;
/** Pauses between tries after a dropped connection: a site link can be away for minutes. */
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000, 60_000, 60_000, 60_000, 120_000, 120_000, 300_000, 300_000];

/** The upload's key in localStorage: the visit and the file (name, size, date), so only the same file resumes. */
export const uploadFingerprint = (visitId: number, file: Pick<File, 'name' | 'size' | 'lastModified'>) =>
  `sitewalk-video-${visitId}-${file.size}-${file.lastModified}-${file.name}`;

/** Whether a failed request is worth sending again: not when the server refused the file for good (4xx), except conflicts and locks. */
export function shouldRetry(status: number | null, online = true): boolean {
  if (!online) return true;
  if (status === null || status === 0) return true;
  if (status === 409 || status === 423 || status === 401 || status === 503) return true;
  return !(status >= 400 && status < 500);
}

/** The sentence of a failure: the server's envelope message when there is one. */
export function failureMessage(body: string | null | undefined, fallback: string): string {
  if (!body) return fallback;
  try {
    const env = JSON.parse(body) as Partial<Envelope>;
    return typeof env.message === 'string' && env.message ? env.message : fallback;
  } catch {
    return fallback;
  }
}

/** An unfinished upload of this visit the browser remembers (another tab, before a reload). */
export interface PendingUpload {
  name: string;
  size: number;
}

export async function pendingUploads(visitId: number): Promise<PendingUpload[]> {
  if (!tus.canStoreURLs) return [];
  const all = await tus.defaultOptions.urlStorage.findAllUploads().catch(() => []);
  return all
    .filter((u) => u.metadata?.visit_id === String(visitId) && u.uploadUrl)
    .map((u) => ({ name: u.metadata.filename ?? '', size: u.size ?? 0 }));
}

/** Removes the browser's memory of an upload. */
async function forgetUpload(fingerprint: string): Promise<void> {
  const storage = tus.defaultOptions.urlStorage;
  for (const u of await storage.findUploadsByFingerprint(fingerprint).catch(() => [])) await storage.removeUpload(u.urlStorageKey).catch(() => undefined);
}

export interface ResumableHandlers {
  onProgress(percent: number, loaded: number): void;
  /** The browser remembered an unfinished upload of this file: it carries on from where the server stopped. */
  onResumed?(): void;
}

/**
 * Uploads `file` for the visit; resolves to the video the server made of it
 * (checked by content). `signal` cancels: the server drops what it received,
 * and the promise rejects with `cancelled: true`.
 */
export function uploadResumable(visitId: number, file: File, handlers: ResumableHandlers, signal: AbortSignal, fetchVideo: () => Promise<VideoDetail | null>): Promise<VideoDetail> {
  return new Promise<VideoDetail>((resolve, reject) => {
    let settled = false;
    const cancelled = () => Object.assign(new Error('cancelled'), { cancelled: true });
    const upload = new tus.Upload(file, {
      endpoint: `/api${VIDEO_UPLOAD_PATH}`,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      metadata: { visit_id: String(visitId), filename: file.name, filetype: file.type || 'video/mp4' },
      fingerprint: async (f) => uploadFingerprint(visitId, f as File),
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onBeforeRequest: (req) => {
        for (const [k, v] of Object.entries(authHeaders())) req.setHeader(k, v);
      },
      onShouldRetry: (err) => {
        const status = err.originalResponse?.getStatus() ?? null;
        if (status === 401) void refreshAuth();
        return !signal.aborted && shouldRetry(status, typeof navigator === 'undefined' || navigator.onLine);
      },
      onProgress: (sent, total) => handlers.onProgress(total ? Math.min(100, Math.floor((sent / total) * 100)) : 0, sent),
      onSuccess: ({ lastResponse }) => {
        settled = true;
        // The last PATCH answers the checked video; a resumed upload that was already complete answers nothing: read it.
        const body = lastResponse?.getBody?.();
        const fromBody = (() => {
          try {
            return (JSON.parse(body ?? '') as Envelope<VideoDetail>).data ?? null;
          } catch {
            return null;
          }
        })();
        if (fromBody) resolve(fromBody);
        else fetchVideo().then((v) => (v ? resolve(v) : reject(new Error(MESSAGES.uploadVideoFailed))), reject);
      },
      onError: (err) => {
        if (settled) return;
        settled = true;
        if (signal.aborted) return reject(cancelled());
        const res = (err as tus.DetailedError).originalResponse;
        // Refused for good (not a video, too large …): the server kept nothing, so neither does the browser.
        if (res && !shouldRetry(res.getStatus())) void forgetUpload(uploadFingerprint(visitId, file));
        reject(new Error(failureMessage(res?.getBody(), MESSAGES.uploadVideoFailed)));
      },
    });
    signal.addEventListener(
      'abort',
      () => {
        if (settled) return;
        settled = true;
        // Cancel: the server removes what it received (tus DELETE) and the browser forgets the upload.
        // Leaving the page: both keep it, so choosing the file again carries on.
        upload.abort(signal.reason !== LEAVE_PAGE).catch(() => undefined);
        reject(cancelled());
      },
      { once: true },
    );
    void upload
      .findPreviousUploads()
      .then((previous) => {
        if (signal.aborted) return;
        const resumable = previous.find((p) => p.uploadUrl);
        if (resumable) {
          upload.resumeFromPreviousUpload(resumable);
          handlers.onResumed?.();
        }
        upload.start();
      })
      .catch(() => upload.start());
  });
}
