import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formMessages, type MapDetail } from '@sitewalk/proto';
import { ApiError, api } from '../../lib/api-client';
import { formatNumber } from '../../lib/format';
import { Spinner } from '../../components/spinner';
import NotFoundPage from '../not-found/not-found-page';
import { useSheetSnags } from '../../components/snags/use-sheet-snags';
import '../projects/projects.css';

// Leaflet (and its stylesheet) load with the viewer, only when a sheet is opened.
const SheetViewer = lazy(() => import('./sheet-viewer'));

const M = formMessages('Sheet');

type Load = { status: 'loading' } | { status: 'missing' } | { status: 'error' } | { status: 'ready'; sheet: MapDetail };

/** /sheet/{id}: one sheet as a zoomable plan. */
export default function SheetPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const sheetId = id && /^[1-9]\d{0,9}$/.test(id) ? Number(id) : null;
  const [load, setLoad] = useState<Load>({ status: 'loading' });

  const fetchSheet = useCallback(() => {
    if (sheetId === null) return () => undefined;
    let live = true;
    setLoad({ status: 'loading' });
    api.get<MapDetail>(`/maps/${sheetId}`, M.loadFailed).then(
      (sheet) => live && setLoad({ status: 'ready', sheet }),
      (err: unknown) => {
        if (!live) return;
        const status = err instanceof ApiError ? err.status : null;
        setLoad(status === 404 || status === 403 ? { status: 'missing' } : { status: 'error' });
      },
    );
    return () => {
      live = false;
    };
  }, [sheetId]);
  useEffect(() => fetchSheet(), [fetchSheet]);
  const snags = useSheetSnags(load.status === 'ready' ? load.sheet : null);

  if (sheetId === null || load.status === 'missing') return <NotFoundPage />;
  if (load.status === 'loading') return <Spinner size="lg" />;
  if (load.status === 'error') {
    return (
      <div className="alert alert-danger d-flex align-items-center gap-2" role="alert">
        <span className="me-auto">{t('Error loading {entity} data', { entity: t('Sheet') })}</span>
        <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => fetchSheet()}>
          {t('Try again')}
        </button>
      </div>
    );
  }
  const s = load.sheet;
  const n = (v: number) => formatNumber(v, i18n.language);
  return (
    <div className="sw-sheet" data-testid="sheet-page">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h2 className="h5 mb-0 text-break me-auto" data-testid="sheet-name">
          {s.name}
          {s.page_label && s.page_label !== s.name && <span className="text-body-secondary fw-normal ms-2">{s.page_label}</span>}
        </h2>
        <Link to={`/project/${s.id_project}`} className="btn btn-outline-secondary btn-sm">
          <i className="bi bi-building me-1" aria-hidden="true" />
          {t('Back to the project')}
        </Link>
        <Link to={`/editsheet/${s.id}`} className="btn btn-outline-primary btn-sm">
          <i className="bi bi-pencil me-1" aria-hidden="true" />
          {t('Edit sheet')}
        </Link>
      </div>
      {s.status === 'ready' && s.width && s.height && (
        <p className="small text-body-secondary mb-2">
          {t('{width} × {height} pixels', { width: n(s.width), height: n(s.height) })}
          {s.dpi ? ` · ${t('{dpi} dpi', { dpi: n(s.dpi) })}` : ''}
          {s.page ? ` · ${t('Page {n}', { n: n(s.page) })}` : ''}
        </p>
      )}
      {s.status === 'ready' ? (
        <Suspense fallback={<Spinner />}>
          <div className="position-relative">
            <SheetViewer sheet={s} snagPins={snags.pins} onSnagSelect={snags.open} />
            {snags.panel}
          </div>
        </Suspense>
      ) : (
        <div className="card border-0 shadow-sm sw-empty-state">
          <i className="bi bi-hourglass-split d-block mb-2" aria-hidden="true" />
          <p className="mb-3">{s.status === 'processing' ? t('This sheet is still being drawn from its PDF page.') : t('This sheet has no plan yet.')}</p>
          {s.status === 'processing' && (
            <div>
              <button type="button" className="btn btn-outline-primary" onClick={() => fetchSheet()}>
                {t('Check again')}
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
