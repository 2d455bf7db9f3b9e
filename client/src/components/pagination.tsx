import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/format';
import { pageWindow } from '../lib/page-window';

/** Page links for a long list; hidden when everything fits on one page. */
export function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage(page: number): void }) {
  const { t, i18n } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav aria-label={t('Pages')} className="mt-4">
      <ul className="pagination justify-content-center flex-wrap">
        <li className={`page-item${page <= 1 ? ' disabled' : ''}`}>
          <button type="button" className="page-link" onClick={() => onPage(page - 1)} disabled={page <= 1} aria-label={t('Previous page')}>
            <i className="bi bi-chevron-left sw-flip-rtl" aria-hidden="true" />
          </button>
        </li>
        {pageWindow(page, pages).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} className="page-item disabled" aria-hidden="true">
              <span className="page-link">…</span>
            </li>
          ) : (
            <li key={p} className={`page-item${p === page ? ' active' : ''}`}>
              <button
                type="button"
                className="page-link"
                onClick={() => onPage(p)}
                aria-current={p === page ? 'page' : undefined}
                aria-label={t('Page {n}', { n: formatNumber(p, i18n.language) })}
              >
                {formatNumber(p, i18n.language)}
              </button>
            </li>
          ),
        )}
        <li className={`page-item${page >= pages ? ' disabled' : ''}`}>
          <button type="button" className="page-link" onClick={() => onPage(page + 1)} disabled={page >= pages} aria-label={t('Next page')}>
            <i className="bi bi-chevron-right sw-flip-rtl" aria-hidden="true" />
          </button>
        </li>
      </ul>
    </nav>
  );
}
