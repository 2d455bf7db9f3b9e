import { useTranslation } from 'react-i18next';
import type { VideoKeyframe } from '@sitewalk/proto';
import { formatClock, formatNumber } from '../../lib/format';

interface Props {
  /** The keyframe of the marked point the walk passes furthest from. */
  frame: VideoKeyframe;
  /** How far, metres. */
  distanceM: number;
  /** The user is clicking the sheet for it again. */
  pinning: boolean;
  canEdit: boolean;
  disabled: boolean;
  onRepin(): void;
  onCancel(): void;
}

/**
 * Names the control point the walk passes far from — most often one clicked in
 * the wrong place — with the photo taken there, and lets the user mark it
 * again with one click on the sheet (the other points stay), instead of
 * leaving them to guess which of their points is off.
 */
export function FarControlPoint({ frame, distanceM, pinning, canEdit, disabled, onRepin, onCancel }: Props) {
  const { t, i18n } = useTranslation();
  const time = formatClock(frame.time, i18n.language);
  return (
    <div className="alert alert-warning d-flex flex-wrap gap-3 align-items-start mb-0" role="status" data-testid="far-control-point">
      {frame.image_url && <img src={frame.image_url} alt={t('The point you marked: the video at {time}', { time })} className="sw-unsure-photo rounded" />}
      <div className="flex-grow-1 sw-unsure-text">
        <p className="mb-1 fw-semibold">{t('The point you marked at {time} of the video is {m} m from where the walk passes.', { time, m: formatNumber(Math.round(distanceM * 10) / 10, i18n.language) })}</p>
        <p className="mb-2 small">{t('If it was marked in the wrong place, mark it again where the camera was at that moment; the other points stay.')}</p>
        {canEdit &&
          (pinning ? (
            <button type="button" className="btn btn-sm btn-outline-secondary" onClick={onCancel}>
              {t('Cancel pinning')}
            </button>
          ) : (
            <button type="button" className="btn btn-sm btn-warning" onClick={onRepin} disabled={disabled} data-testid="repin-far-point">
              <i className="bi bi-crosshair me-1" aria-hidden="true" />
              {t('Mark this point again')}
            </button>
          ))}
      </div>
    </div>
  );
}
