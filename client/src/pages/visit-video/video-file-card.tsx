import { useEffect, useRef, useState } from 'react';
import { ProgressBar } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { MESSAGES, VIDEO_LIMITS, type VideoDetail } from '@sitewalk/proto';
import { formatMegabytes, formatNumber } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { formatElapsed, isRunBusy } from '../../lib/video-run';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { FileButton } from '../../components/file-button';
import { isCancelled, videoApi } from './video-api';
import { LEAVE_PAGE, pendingUploads, type PendingUpload } from './resumable-upload';

const VIDEO_NAME = /\.(mp4|m4v|mov|mkv|webm|avi|insv|360)$/i;

interface Sending {
  name: string;
  size: number;
  percent: number;
  loaded: number;
  controller: AbortController;
  /** Carrying on an upload the browser remembered (a dropped connection, a closed tab). */
  resumed: boolean;
}

interface Props {
  visitId: number;
  canEdit: boolean;
  video: VideoDetail | null;
  onVideo(v: VideoDetail | null): void;
}

/**
 * The visit's walk-through video: upload one (a progress bar with the bytes
 * sent, and Cancel; no time limit — SPEC §9), then processing starts by
 * itself. Shows the video's facts; runs the processing again, replaces or
 * deletes the video after a confirmation.
 */
export function VideoFileCard({ visitId, canEdit, video, onVideo }: Props) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatNumber(v, i18n.language);
  const mb = (b: number) => formatMegabytes(b, i18n.language);
  const [sending, setSending] = useState<Sending | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<null | { kind: 'replace'; file: File } | { kind: 'rerun' } | { kind: 'delete' }>(null);
  const [busy, setBusy] = useState(false);
  const sendingRef = useRef<Sending | null>(null);
  sendingRef.current = sending;
  const [pending, setPending] = useState<PendingUpload[]>([]);
  useEffect(() => {
    if (!sending) void pendingUploads(visitId).then(setPending);
  }, [visitId, sending]);

  // Leaving the page stops the upload (choosing the file again carries it on): the browser asks first. Unmounting pauses it.
  useEffect(() => {
    if (!sending) return;
    const ask = (e: BeforeUnloadEvent) => {
      e.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [sending]);
  useEffect(() => () => sendingRef.current?.controller.abort(LEAVE_PAGE), []);

  const maxBytes = video?.max_bytes ?? VIDEO_LIMITS.defaultMaxBytes;

  const start = async (file: File) => {
    setUploadError(null);
    const controller = new AbortController();
    const s: Sending = { name: file.name, size: file.size, percent: 0, loaded: 0, controller, resumed: false };
    setSending(s);
    const mine = (change: Partial<Sending>) => setSending((c) => (c && c.controller === controller ? { ...c, ...change } : c));
    try {
      const uploaded = await videoApi.upload(visitId, file, (percent, loaded) => mine({ percent, loaded }), controller.signal, () => mine({ resumed: true }));
      setSending(null);
      onVideo(uploaded);
      showToast('success', t('Video uploaded. Processing starts now.'));
      try {
        onVideo(await videoApi.process(uploaded.id));
      } catch (err) {
        showToast('error', t((err as Error).message || MESSAGES.processVideoFailed));
      }
    } catch (err) {
      setSending(null);
      if (isCancelled(err)) {
        if (controller.signal.reason !== LEAVE_PAGE) showToast('info', t('Upload cancelled.'));
        return;
      }
      setUploadError((err as Error).message || MESSAGES.uploadVideoFailed);
    }
  };

  const pick = (files: File[]) => {
    const file = files[0];
    if (!file) return;
    if (!file.type.startsWith('video/') && !VIDEO_NAME.test(file.name)) {
      setUploadError(tk('Choose a video file (MP4, MOV, MKV or WebM).'));
      return;
    }
    if (file.size > maxBytes) {
      setUploadError(t('The video is larger than {mb} MB.', { mb: n(Math.floor(maxBytes / (1024 * 1024))) }));
      return;
    }
    if (video) setConfirm({ kind: 'replace', file });
    else void start(file);
  };

  const rerun = async () => {
    if (!video) return;
    setBusy(true);
    try {
      onVideo(await videoApi.process(video.id));
      setConfirm(null);
    } catch (err) {
      showToast('error', t((err as Error).message || MESSAGES.processVideoFailed));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      const r = await videoApi.remove(visitId);
      onVideo(null);
      setConfirm(null);
      showToast('success', r.rooms_removed ? t('Video deleted, with the {n} rooms made from it.', { count: r.rooms_removed, n: n(r.rooms_removed) }) : t('Video deleted.'));
    } catch (err) {
      showToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
    }
  };

  const uploadButton = (label: string, primary: boolean) => (
    <FileButton className={`btn btn-sm ${primary ? 'btn-primary' : 'btn-outline-secondary'}`} accept="video/*,.mp4,.mov,.m4v,.mkv,.webm,.insv" inputLabel={t('Walk-through video file')} multiple onFiles={pick} disabled={sending !== null || busy}>
      <i className="bi bi-cloud-arrow-up me-1" aria-hidden="true" />
      {label}
    </FileButton>
  );

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="video-file-heading" data-testid="video-file-card">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h2 id="video-file-heading" className="h6 mb-0 me-auto">
          {t('Walk-through video')}
        </h2>
        {canEdit && video && !sending && (
          <div className="d-flex flex-wrap gap-2">
            <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setConfirm({ kind: 'rerun' })} disabled={busy || isRunBusy(video.run)}>
              <i className="bi bi-arrow-clockwise me-1" aria-hidden="true" />
              {t('Process again')}
            </button>
            {uploadButton(t('Replace the video'), false)}
            <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setConfirm({ kind: 'delete' })} disabled={busy}>
              <i className="bi bi-trash me-1" aria-hidden="true" />
              {t('Delete the video')}
            </button>
          </div>
        )}
      </div>
      <div className="card-body">
        {sending && (
          <div className="border rounded p-2" data-testid="video-upload" aria-live="polite">
            <div className="d-flex flex-wrap align-items-center gap-2 small mb-1">
              <span className="sw-video-upload-name me-auto fw-semibold">{sending.name}</span>
              <span className="text-body-secondary" data-testid="video-upload-bytes">
                {t('{sent} of {total} MB', { sent: mb(sending.loaded), total: mb(sending.size) })}
              </span>
              <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => sending.controller.abort()}>
                {t('Cancel upload')}
              </button>
            </div>
            <ProgressBar now={sending.percent} label={`${n(sending.percent)}%`} animated aria-label={t('Uploading {name}', { name: sending.name })} data-testid="video-upload-bar" />
            {sending.resumed && (
              <p className="small text-body-secondary mb-0 mt-1" data-testid="video-upload-resumed">
                {t('Carrying on where the upload stopped.')}
              </p>
            )}
          </div>
        )}
        {!sending && canEdit && pending.length > 0 && (
          <div className="alert alert-info small mb-2" role="status" data-testid="video-upload-pending">
            {t('The upload of {name} ({mb} MB) did not finish. Choose the same file again to carry on where it stopped.', { name: pending[0].name, mb: mb(pending[0].size) })}
          </div>
        )}
        {uploadError && (
          <div className="alert alert-danger d-flex flex-wrap align-items-center gap-2 mt-2 mb-0" role="alert" data-testid="video-upload-error">
            <span className="me-auto">{t(uploadError)}</span>
            <button type="button" className="btn-close" aria-label={t('Close')} onClick={() => setUploadError(null)} />
          </div>
        )}
        {!video && !sending && (
          <div className="sw-empty-state py-4" data-testid="video-empty">
            <i className="bi bi-camera-reels d-block mb-2" aria-hidden="true" />
            <p className="mb-3">{t('No walk-through video yet. Walk the floor with a 360° camera and upload the video: its frames become rooms placed on the sheet.')}</p>
            {canEdit ? uploadButton(t('Upload a video'), true) : <p className="small text-body-secondary mb-0">{t('Only people who may edit this visit can upload a video.')}</p>}
          </div>
        )}
        {video && !sending && video.kind === 'flat' && (
          <div className="alert alert-warning small" role="status" data-testid="video-flat-warning">
            {t('This is a flat video, not a 360° one: its rooms show only what the camera faced, and their places on the sheet are less sure. A 360° camera gives whole rooms.')}
          </div>
        )}
        {video && !sending && (
          <dl className="row small mb-0" data-testid="video-facts">
            <dt className="col-sm-3">{t('File')}</dt>
            <dd className="col-sm-9 text-break">{video.original_name}</dd>
            <dt className="col-sm-3">{t('Length')}</dt>
            <dd className="col-sm-9">{formatElapsed(video.duration)}</dd>
            <dt className="col-sm-3">{t('Picture')}</dt>
            <dd className="col-sm-9">
              {video.kind === '360' ? t('360° video') : t('Flat video')} · {t('{width} × {height} pixels', { width: n(video.width), height: n(video.height) })} · {t('{fps} frames a second', { fps: n(Math.round(video.fps)) })}
            </dd>
            <dt className="col-sm-3">{t('Size')}</dt>
            <dd className="col-sm-9">{video.size_bytes < 1024 * 1024 ? t('{kb} KB', { kb: n(Math.max(1, Math.round(video.size_bytes / 1024))) }) : t('{mb} MB', { mb: mb(video.size_bytes) })}</dd>
          </dl>
        )}
      </div>
      <ConfirmDialog
        show={confirm !== null}
        title={confirm?.kind === 'delete' ? t('Delete the video') : confirm?.kind === 'rerun' ? t('Process again') : t('Replace the video')}
        body={
          confirm?.kind === 'delete'
            ? t('Delete the video? The rooms made from it go too, with their hotspots and points of interest. This cannot be undone.')
            : confirm?.kind === 'rerun'
              ? t('Process the video again from the start? The rooms made from it are replaced when the new projection is confirmed.')
              : t('Replace the video? The rooms made from the current one go. This cannot be undone.')
        }
        confirmLabel={confirm?.kind === 'delete' ? t('Delete') : confirm?.kind === 'rerun' ? t('Process again') : t('Replace')}
        busy={busy}
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm?.kind === 'delete') void remove();
          else if (confirm?.kind === 'rerun') void rerun();
          else if (confirm?.kind === 'replace') {
            const file = confirm.file;
            setConfirm(null);
            void start(file);
          }
        }}
      />
    </section>
  );
}
