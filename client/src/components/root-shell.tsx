import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ToastContainer } from 'react-toastify';
import { findRoute } from '../lib/route-match';
import { ROUTES } from '../routes/route-table';
import { useSettings } from '../stores/settings.store';
import { useUiStore } from '../stores/ui.store';
import { usePageMetaStore } from '../stores/page-meta.store';
import { showToast } from '../lib/toast';
import { Spinner } from './spinner';
import { tk } from '../lib/i18n-keys';

const LogoutModal = lazy(() => import('./layout/logout-modal'));

/**
 * Everything every screen shares: the document title, toasts, the logout
 * modal, the spinner while a language loads, and the message for errors
 * nothing else caught.
 */
export function RootShell() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const settings = useSettings();
  const language = useUiStore((s) => s.language);
  const languageLoading = useUiStore((s) => s.languageLoading);
  const dark = useUiStore((s) => s.darkMode) && settings.dark_mode;
  const rtl = document.documentElement.dir === 'rtl';
  // The modal's code loads the first time it opens, then it stays mounted so it can close by itself.
  const logoutOpen = useUiStore((s) => s.logoutModalOpen);
  const [logoutUsed, setLogoutUsed] = useState(false);
  useEffect(() => {
    if (logoutOpen) setLogoutUsed(true);
  }, [logoutOpen]);

  // SPEC §2: "{translated title} | {site name}".
  // A screen may name itself (a project's name, 'Page not found' for a missing record).
  const title = findRoute(ROUTES, pathname)?.route.title ?? tk('Page not found');
  const ownTitle = usePageMetaStore((s) => s.title);
  useEffect(() => {
    document.title = `${ownTitle ?? t(title)} | ${settings.name}`;
  }, [t, title, ownTitle, settings.name, language]);

  // SPEC §8: an error no screen handled still tells the user what to do.
  useEffect(() => {
    const onRejection = (e: PromiseRejectionEvent) => {
      console.error(e.reason);
      showToast('error', t('Something went wrong. Please refresh.'));
    };
    const onError = (e: ErrorEvent) => {
      // Chromium reports a harmless layout notice as an error event; it is not the user's problem.
      if (/ResizeObserver loop/.test(e.message)) return;
      console.error(e.error ?? e.message);
      showToast('error', t('Something went wrong. Please refresh.'));
    };
    window.addEventListener('unhandledrejection', onRejection);
    window.addEventListener('error', onError);
    return () => {
      window.removeEventListener('unhandledrejection', onRejection);
      window.removeEventListener('error', onError);
    };
  }, [t]);

  return (
    <>
      <Outlet />
      {(logoutUsed || logoutOpen) && (
        <Suspense fallback={null}>
          <LogoutModal />
        </Suspense>
      )}
      <ToastContainer position={rtl ? 'top-left' : 'top-right'} rtl={rtl} theme={dark ? 'dark' : 'light'} newestOnTop closeButton />
      {languageLoading && (
        <div className="sw-overlay" aria-busy="true">
          <Spinner size="lg" />
        </div>
      )}
    </>
  );
}
