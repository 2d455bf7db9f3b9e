import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@sitewalk/proto';
import { showToast } from '../../lib/toast';
import { Spinner } from '../../components/spinner';
import { visitLoadScreen } from '../../components/visit-load-guard';
import { useVisitWithSheets } from '../../components/use-visit-query';
import { useVideoRun } from './use-video-run';
import { VideoStepper, RUN_STATUS_TEXT } from './video-stepper';
import { VideoFileCard } from './video-file-card';
import { ProjectionPanel } from './projection-panel';
import { videoApi } from './video-api';
import '../projects/projects.css';
import '../visits/visits.css';
import './visit-video.css';

const positiveInt = (s: string | null | undefined) => (s && /^[1-9]\d{0,9}$/.test(s) ? Number(s) : null);

/**
 * /visitvideo/{id}: a visit's walk-through video (issue 8) — upload it, watch
 * the processing live (the stepper), see the point cloud in 3D, lay the walk
 * on a sheet, adjust and confirm: the visit gets its rooms, placed and linked.
 */
export default function VisitVideoPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const visitId = positiveInt(id);
  const { visit, sheets, load, retry: retryLoad } = useVisitWithSheets(visitId);
  const [busy, setBusy] = useState(false);

  const run = useVideoRun(visitId ?? 0, visit?.id_project ?? null);
  const video = run.video;

  const retry = async () => {
    if (!video || !visit) return;
    setBusy(true);
    try {
      const failedStep = video.run.error?.step;
      if (failedStep === 'generate-ply') run.accept(await videoApi.generatePly(video.id, visit.id));
      else run.accept(await videoApi.process(video.id));
    } catch (err) {
      showToast('error', t((err as Error).message || MESSAGES.processVideoFailed));
    } finally {
      setBusy(false);
    }
  };

  const waiting = visitLoadScreen(visitId, load, retryLoad);
  if (waiting || !visit) return waiting ?? <Spinner size="lg" />;

  return (
    <div className="d-flex flex-column gap-3" data-testid="visit-video-page">
      <div className="d-flex flex-wrap align-items-center gap-2">
        <h2 className="h5 mb-0 me-auto text-break">{visit.name}</h2>
        {run.live && (
          <span className="badge rounded-pill bg-body-secondary text-body border sw-live" title={t('Changes to this project appear here as they happen.')}>
            <span className="sw-live-dot" aria-hidden="true" /> {t('Live updates')}
          </span>
        )}
        <Link to={`/editvisit/${visit.id}`} className="btn btn-outline-secondary btn-sm">
          <i className="bi bi-pencil me-1" aria-hidden="true" />
          {t('Edit visit')}
        </Link>
      </div>

      {run.load.state === 'loading' && <Spinner />}
      {run.load.state === 'error' && (
        <div className="alert alert-danger d-flex flex-wrap align-items-center gap-2" role="alert">
          <span className="me-auto">{t(run.load.message)}</span>
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void run.reload()}>
            {t('Try again')}
          </button>
        </div>
      )}
      {run.load.state === 'ready' && (
        <>
          <VideoFileCard visitId={visit.id} canEdit={visit.can_edit} video={video} onVideo={run.accept} />
          {video && (
            <section className="card border-0 shadow-sm" aria-labelledby="video-progress-heading" data-testid="video-progress-card">
              <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
                <h2 id="video-progress-heading" className="h6 mb-0 me-auto">
                  {t('Processing')}
                </h2>
                <span className="small text-body-secondary" role="status" data-testid="video-run-status">
                  {t(RUN_STATUS_TEXT[video.run.status])}
                </span>
              </div>
              <div className="card-body">
                <VideoStepper run={video.run} now={run.now} />
                {video.run.status === 'failed' && video.can_edit && (
                  <button type="button" className="btn btn-sm btn-primary mt-3" onClick={() => void retry()} disabled={busy}>
                    <i className="bi bi-arrow-clockwise me-1" aria-hidden="true" />
                    {t('Try again')}
                  </button>
                )}
                {video.run.status === 'uploaded' && video.can_edit && (
                  <button type="button" className="btn btn-sm btn-primary mt-3" onClick={() => void retry()} disabled={busy}>
                    <i className="bi bi-play-fill me-1" aria-hidden="true" />
                    {t('Start processing')}
                  </button>
                )}
              </div>
            </section>
          )}
          {video && video.run.artifacts.clusters.length > 0 && <ProjectionPanel visit={visit} video={video} sheets={sheets} onVideo={run.accept} />}
        </>
      )}
    </div>
  );
}
