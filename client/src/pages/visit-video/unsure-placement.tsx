import { useTranslation } from 'react-i18next';
import type { VideoKeyframe } from '@sitewalk/proto';
import { formatClock, formatNumber } from '../../lib/format';

interface Props {
  /** How many rooms SiteWalk cannot vouch for. */
  rooms: number;
  /** How far off the least sure of them may be, metres. */
  worstM: number;
  thresholdM: number;
  /** The keyframe where one more control point helps most. */
  frame: VideoKeyframe | null;
  /** The user is clicking the sheet for it. */
  pinning: boolean;
  canEdit: boolean;
  disabled: boolean;
  onPin(): void;
  onCancel(): void;
}

/**
 * Where the proposal is unsure: says how many rooms may be how far off, shows
 * the photo of the place where one more control point helps most (the room
 * highlighted on the sheet) and lets the user pin it with one click on the
 * sheet, instead of confirming rooms placed half a metre off in silence.
 */
export function UnsurePlacement({ rooms, worstM, thresholdM, frame, pinning, canEdit, disabled, onPin, onCancel }: Props) {
  const { t, i18n } = useTranslation();
  const n = (v: number) => formatNumber(v, i18n.language);
  const metres = (m: number) => n(Math.round(m * 10) / 10);
  return (
    <div className="alert alert-warning d-flex flex-wrap gap-3 align-items-start mb-0" role="status" data-testid="projection-unsure">
      {frame?.image_url && <img src={frame.image_url} alt={t('The place to pin: the video at {time}', { time: formatClock(frame.time, i18n.language) })} className="sw-unsure-photo rounded" />}
      <div className="flex-grow-1 sw-unsure-text">
        <p className="mb-1 fw-semibold">
          {t('{n} rooms may be up to {m} m off.', { count: rooms, n: n(rooms), m: metres(worstM) })}
        </p>
        <p className="mb-2 small">
          {t('{site} cannot place them within {limit} m from the control points it has. Add one more control point near them: the highlighted room, at {time} of the video.', {
            limit: metres(thresholdM),
            time: frame ? formatClock(frame.time, i18n.language) : '–',
          })}
        </p>
        {canEdit &&
          (pinning ? (
            <button type="button" className="btn btn-sm btn-outline-secondary" onClick={onCancel}>
              {t('Cancel pinning')}
            </button>
          ) : (
            <button type="button" className="btn btn-sm btn-warning" onClick={onPin} disabled={disabled || !frame} data-testid="pin-unsure">
              <i className="bi bi-pin-angle me-1" aria-hidden="true" />
              {t('Pin this room on the sheet')}
            </button>
          ))}
      </div>
    </div>
  );
}
