import { lazy, Suspense } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../lib/format';
import { joinIsolated } from '../../lib/bidi';
import { Spinner } from '../../components/spinner';
import NotFoundPage from '../not-found/not-found-page';
import { useSheetSnags } from '../../components/snags/use-sheet-snags';
import { usePageMeta } from '../../stores/page-meta.store';
import { SheetPlanUpload } from '../../components/sheet-plan-upload';
import { useSheetQuery } from '../../components/use-sheet-query';
import '../projects/projects.css';

// Leaflet (and its stylesheet) load with the viewer, only when a sheet is opened.
const SheetViewer = lazy(() => import('./sheet-viewer'));

/** /sheet/{id}: one sheet as a zoomable plan. */
export default function SheetPage() {
  const { t, i18n } = useTranslation();
  const { id } = useParams();
  const sheetId = id && /^[1-9]\d{0,9}$/.test(id) ? Number(id) : null;
  const query = useSheetQuery(sheetId);
  const fetchSheet = () => void query.refetch();
  const shown = query.data ?? null;
  const snags = useSheetSnags(shown);
  // The tab and the trail name the sheet and its project, not just "Sheet"; name
  // and label are isolated runs, so "Roof plan · A-105" keeps its order in Arabic.
  usePageMeta(
    shown ? joinIsolated([shown.name, shown.page_label !== shown.name && shown.page_label]) : null,
    shown ? [{ label: shown.project_name ?? t('Project'), to: `/project/${shown.id_project}`, raw: true }] : [],
  );

  if (sheetId === null || query.missing) return <NotFoundPage />;
  if (query.isPending || (query.isError && query.isFetching)) return <Spinner size="lg" />;
  if (!shown) {
    return (
      <div className="alert alert-danger d-flex align-items-center gap-2" role="alert">
        <span className="me-auto">{t('Error loading {entity} data', { entity: t('Sheet') })}</span>
        <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => fetchSheet()}>
          {t('Try again')}
        </button>
      </div>
    );
  }
  const s = shown;
  const n = (v: number) => formatNumber(v, i18n.language);
  return (
    <div className="sw-sheet" data-testid="sheet-page">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        <h2 className="h5 mb-0 text-break me-auto" data-testid="sheet-name">
          <bdi>{s.name}</bdi>
          {s.page_label && s.page_label !== s.name && (
            <>
              {' '}
              <bdi className="text-body-secondary fw-normal ms-1" data-testid="sheet-label">{s.page_label}</bdi>
            </>
          )}
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
          {/* No dead end: the plan of an empty sheet is one upload away. */}
          {s.status === 'empty' && <SheetPlanUpload sheet={s} onDone={fetchSheet} />}
        </div>
      )}
    </div>
  );
}
