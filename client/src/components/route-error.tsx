import { useEffect } from 'react';
import { useRouteError } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

/** SPEC §8: any uncaught error in a route shows 'Something went wrong. Please refresh.' */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <div className="container py-5">
      <div className="alert alert-danger text-center" role="alert">
        {t('Something went wrong. Please refresh.')}
      </div>
    </div>
  );
}
