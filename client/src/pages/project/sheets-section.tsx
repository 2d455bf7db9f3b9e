import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { SheetSummary } from '@sitewalk/proto';
import { formatNumber } from '../../lib/format';
import { Spinner } from '../../components/spinner';

interface Props {
  projectId: number;
  sheets: SheetSummary[];
  canEdit: boolean;
  /** Sheets that arrived live, drawn with a short fade-in. */
  fresh: ReadonlySet<number>;
  /** The upload button and progress, placed above the grid. */
  uploader: ReactNode;
}

/** The project's sheets as thumbnails, each opening the zoomable plan. */
export function SheetsSection({ projectId, sheets, canEdit, fresh, uploader }: Props) {
  const { t, i18n } = useTranslation();
  return (
    <section className="card border-0 shadow-sm mb-3" aria-labelledby="sheets-heading">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h2 id="sheets-heading" className="h6 mb-0 me-auto">
          {t('Sheets')} <span className="badge text-bg-secondary" data-testid="sheets-count">{formatNumber(sheets.length, i18n.language)}</span>
        </h2>
        {canEdit && (
          <Link to={`/editsheet/new?project=${projectId}`} className="btn btn-outline-secondary btn-sm">
            <i className="bi bi-plus-lg me-1" aria-hidden="true" />
            {t('Empty sheet')}
          </Link>
        )}
      </div>
      <div className="card-body">
        {uploader}
        {sheets.length === 0 ? (
          <div className="sw-empty-state py-4" data-testid="sheets-empty">
            <i className="bi bi-map d-block mb-2" aria-hidden="true" />
            <p className="mb-0 text-body-secondary">
              {canEdit ? t('No sheets yet. Upload the PDF plans of this project: every page becomes a sheet.') : t('This project has no sheets yet.')}
            </p>
          </div>
        ) : (
          <ul className="sw-sheet-grid list-unstyled mb-0" aria-label={t('Sheets')}>
            {sheets.map((s) => (
              <li key={s.id} className={`sw-sheet-card${fresh.has(s.id) ? ' is-new' : ''}`} data-testid="sheet-card">
                <Link to={`/sheet/${s.id}`} className="d-block text-decoration-none" aria-label={t('Open sheet {name}', { name: s.name })}>
                  <div className="sw-sheet-thumb mb-2">
                    {s.thumbnail_url ? (
                      <img src={s.thumbnail_url} alt="" loading="lazy" />
                    ) : s.status === 'processing' ? (
                      <Spinner size="sm" hideText />
                    ) : (
                      <i className="bi bi-file-earmark" aria-hidden="true" />
                    )}
                  </div>
                </Link>
                <div className="d-flex align-items-start gap-1">
                  <div className="flex-grow-1 min-w-0">
                    <div className="fw-semibold text-truncate" title={s.name}>
                      {s.name}
                    </div>
                    <div className="small text-body-secondary">
                      {s.status === 'processing' ? t('Being drawn…') : s.status === 'empty' ? t('No plan yet') : s.page_label || (s.page ? t('Page {n}', { n: formatNumber(s.page, i18n.language) }) : '\u00a0')}
                    </div>
                  </div>
                  {canEdit && (
                    <Link to={`/editsheet/${s.id}`} className="btn btn-link btn-sm p-1" aria-label={t('Edit sheet {name}', { name: s.name })} title={t('Edit sheet')}>
                      <i className="bi bi-pencil" aria-hidden="true" />
                    </Link>
                  )}
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
