import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@sitewalk/proto';
import { Spinner } from './spinner';
import NotFoundPage from '../pages/not-found/not-found-page';

/** How far a visit screen got loading its visit. */
export type VisitLoad = { status: 'loading' } | { status: 'missing' } | { status: 'error' } | { status: 'ready' };

/** What a visit screen shows before its visit is there (see visitLoadScreen). */
function VisitLoadState({ visitId, load, retry }: { visitId: number | null; load: VisitLoad; retry: () => void }) {
  const { t } = useTranslation();
  if (visitId === null) {
    return (
      <div className="alert alert-danger" role="alert">
        {t(MESSAGES.visitIdRequired)}
      </div>
    );
  }
  if (load.status === 'missing') return <NotFoundPage />;
  if (load.status === 'error') {
    return (
      <div className="alert alert-danger d-flex flex-wrap align-items-center gap-2" role="alert">
        <span className="me-auto">{t('Error loading {entity} data', { entity: t('Visit') })}</span>
        <button type="button" className="btn btn-sm btn-outline-danger" onClick={retry}>
          {t('Try again')}
        </button>
      </div>
    );
  }
  return <Spinner size="lg" />;
}

/**
 * The screen every visit screen shows instead of itself until its visit is
 * loaded — no id in the address, a visit the user may not see (404), a failed
 * load with a retry, or the spinner — and null once it is ready.
 */
export function visitLoadScreen(visitId: number | null, load: VisitLoad, retry: () => void): ReactElement | null {
  if (visitId !== null && load.status === 'ready') return null;
  return <VisitLoadState visitId={visitId} load={load} retry={retry} />;
}
