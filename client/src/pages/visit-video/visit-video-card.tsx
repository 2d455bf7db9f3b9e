import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { VisitDetail } from '@sitewalk/proto';
import { useVideoRun } from './use-video-run';
import { VideoStepper } from './video-stepper';
import './visit-video.css';

/**
 * The walk-through video on the visit's edit page: the live, compact stepper
 * (or an invitation to upload one) and the way to the video screen.
 */
export function VisitVideoCard({ visit }: { visit: VisitDetail }) {
  const { t } = useTranslation();
  const { video, load, now } = useVideoRun(visit.id, visit.id_project);
  return (
    <section className="card border-0 shadow-sm" aria-labelledby="visit-video-heading" data-testid="visit-video-card">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h2 id="visit-video-heading" className="h6 mb-0 me-auto">
          {t('Walk-through video')}
        </h2>
        <Link to={`/visitvideo/${visit.id}`} className="btn btn-sm btn-outline-primary">
          <i className="bi bi-camera-reels me-1" aria-hidden="true" />
          {video ? t('Open the video') : visit.can_edit ? t('Upload a video') : t('Open the video')}
        </Link>
      </div>
      <div className="card-body">
        {load.state === 'error' && <p className="small text-danger mb-0">{t(load.message)}</p>}
        {load.state === 'ready' && !video && <p className="small text-body-secondary mb-0">{t('Make rooms from a 360° video of a walk through the floor: they are placed on the sheet and linked in walking order.')}</p>}
        {video && <VideoStepper run={video.run} now={now} compact />}
      </div>
    </section>
  );
}
