import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../../stores/auth.store';
import { usePageMeta } from '../../stores/page-meta.store';

/** SPEC §2: any unknown path shows a 404 Not Found page. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const signedIn = useAuthStore((s) => s.status === 'authenticated');
  // Shown in place of a screen (a record that is not there, a page turned off): the tab says so too.
  usePageMeta(t('Page not found'));
  return (
    <div className="sw-fullpage-center text-center p-4">
      <div>
        <p className="display-1 fw-bold text-primary mb-0" aria-hidden="true">
          404
        </p>
        <h1 className="h3 mb-3">{t('Page not found')}</h1>
        <p className="text-body-secondary mb-4">{t('The page you are looking for does not exist or was moved.')}</p>
        <Link to={signedIn ? '/dashboard' : '/login'} className="btn btn-primary">
          {signedIn ? t('Back to the dashboard') : t('Go to sign in')}
        </Link>
      </div>
    </div>
  );
}
