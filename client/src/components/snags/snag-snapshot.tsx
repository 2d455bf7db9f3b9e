import { useTranslation } from 'react-i18next';
import type { Annotation } from '@sitewalk/proto';
import { snapshotView } from './snag-logic';
import './snags.css';

/**
 * A quick look at where the snag is: the room's 360 picture, zoomed on the
 * pin (a dot in the snag's status colour). Nothing when the room has no
 * picture yet; the whole picture when the snag has no place in it.
 */
export function SnagSnapshot({ snag }: { snag: Pick<Annotation, 'snapshot_url' | 'yaw' | 'pitch' | 'status' | 'room_name'> }) {
  const { t } = useTranslation();
  if (!snag.snapshot_url) return null;
  const label = t('The room where the snag is');
  if (snag.yaw === null || snag.pitch === null) {
    return <img src={snag.snapshot_url} alt={label} className="img-fluid rounded w-100" data-testid="snag-snapshot" />;
  }
  const view = snapshotView(snag.yaw, snag.pitch, 2);
  return (
    <div
      role="img"
      aria-label={label}
      className="sw-snag-snapshot rounded"
      style={{ backgroundImage: `url("${snag.snapshot_url}")`, backgroundSize: view.size, backgroundPosition: view.position }}
      data-testid="snag-snapshot"
      dir="ltr"
    >
      <span className={`sw-snag-dot sw-snag-${snag.status}`} style={{ left: `${view.pin.left}%`, top: `${view.pin.top}%` }} aria-hidden="true" />
    </div>
  );
}
