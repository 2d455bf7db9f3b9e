import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/** An empty snag list: under filters, a way to clear them; otherwise where snags come from. */
export function SnaglistEmpty({ filtered, onClear }: { filtered: boolean; onClear(): void }) {
  const { t } = useTranslation();
  return (
    <div className="card border-0 shadow-sm sw-empty-state" data-testid="snaglist-empty">
      <i className="bi bi-clipboard-check d-block mb-2" aria-hidden="true" />
      {filtered ? (
        <>
          <p className="mb-3">{t('No snags match these filters.')}</p>
          <div>
            <button type="button" className="btn btn-outline-primary" onClick={onClear}>
              {t('Clear the filters')}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="mb-3">{t('No snags yet. Open a visit in the 360 viewer and use "Add a snag" to pin a defect where you see it.')}</p>
          <div>
            <Link to="/visits" className="btn btn-outline-primary">
              {t('Go to the visits')}
            </Link>
          </div>
        </>
      )}
    </div>
  );
}
