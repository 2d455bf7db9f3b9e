import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Offcanvas } from 'react-bootstrap';
import type { Annotation } from '@sitewalk/proto';
import { SnagPanel } from '../../components/snags/snag-panel';
import { SnagSnapshot } from '../../components/snags/snag-snapshot';
import { snagViewerPath } from '../../components/snags/snag-logic';

interface Props {
  /** The snag shown, or null when the quick view is closed. */
  snagId: number | null;
  /** Its row in the list, for the snapshot and the deep link (absent once it left the page). */
  row: Annotation | null;
  onClose(): void;
  /** The snag was saved or deleted here. */
  onChanged(): void;
}

/** The side sheet of /snaglist: the snag's snapshot, a link into the 360 view, and the snag panel to change it. */
export function SnagQuickView({ snagId, row, onClose, onChanged }: Props) {
  const { t, i18n } = useTranslation();
  return (
    <Offcanvas show={snagId !== null} onHide={onClose} placement={i18n.dir() === 'rtl' ? 'start' : 'end'} className="sw-snag-quick" aria-labelledby="snag-quick-title">
      <Offcanvas.Header closeButton closeLabel={t('Close')}>
        <Offcanvas.Title id="snag-quick-title" className="h6">
          {t('Snag')}
        </Offcanvas.Title>
      </Offcanvas.Header>
      <Offcanvas.Body className="p-0">
        {row && (
          <div className="px-3 pt-2">
            <div className="mb-2">
              <SnagSnapshot snag={row} />
            </div>
            <Link to={snagViewerPath(row)} className="btn btn-sm btn-outline-primary mb-2" data-testid="snag-open-viewer">
              <i className="bi bi-badge-vr me-1" aria-hidden="true" />
              {t('Open in the 360 view')}
            </Link>
          </div>
        )}
        {snagId !== null && <SnagPanel snagId={snagId} className="is-inline" onClose={onClose} onSaved={onChanged} onDeleted={onChanged} />}
      </Offcanvas.Body>
    </Offcanvas>
  );
}
