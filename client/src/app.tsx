import { useEffect, useMemo, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { ThemeProvider } from 'react-bootstrap';
import { QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isPageReload, useSettingsStore } from './stores/settings.store';
import { useAuthStore } from './stores/auth.store';
import { useUiStore } from './stores/ui.store';
import { startLiveNotifications } from './realtime/live-notifications';
import { directionOf, storedLanguage } from './i18n/language';
import { themeVariables } from './lib/theme-shades';
import { createAppRouter } from './routes/router';
import { setSiteName } from './i18n/i18n';
import { Spinner } from './components/spinner';
import { queryClient } from './lib/query-client';

/**
 * Screens that show before the start below has finished: the public 360 viewer
 * (its answer and sphere are already on their way, see
 * pages/viewer/viewer-preload.ts) needs no setting to start and shows the
 * defaults, then the English texts, until the settings and the language arrive.
 */
const showsAtOnce = (pathname: string) => pathname.startsWith('/viewer/');

/** Loads settings, language and the stored sign-in, then shows the router. */
let booting: Promise<void> | null = null;
const bootOnce = (quiet: boolean) => (booting ??= boot(quiet));
async function boot(quiet: boolean) {
  await Promise.all([
    useSettingsStore.getState().load(isPageReload()),
    useUiStore.getState().setLanguage(storedLanguage(), { quiet }),
    useAuthStore.getState().init(),
  ]);
  startLiveNotifications();
}

let router: ReturnType<typeof createAppRouter> | null = null;
const getRouter = () => (router ??= createAppRouter());

/** Applies the theme colour, its four shades and the dark mode to the page. */
function useTheme() {
  const themeColor = useSettingsStore((s) => s.settings?.theme_color);
  const darkAllowed = useSettingsStore((s) => s.settings?.dark_mode ?? false);
  const darkChosen = useUiStore((s) => s.darkMode);
  const font = useSettingsStore((s) => s.settings?.font_backend);
  const dark = darkAllowed && darkChosen;
  useEffect(() => {
    const root = document.documentElement;
    root.setAttribute('data-bs-theme', dark ? 'dark' : 'light');
    for (const [k, v] of Object.entries(themeVariables(themeColor ?? '', dark))) root.style.setProperty(k, v);
  }, [themeColor, dark]);
  const siteName = useSettingsStore((s) => s.settings?.name);
  useEffect(() => {
    if (siteName) setSiteName(siteName);
  }, [siteName]);
  // The font setting names a family; the system fonts follow it when it is not installed.
  useEffect(() => {
    const family = font?.replace(/["\\;{}]/g, '').trim();
    if (family) document.documentElement.style.setProperty('--sw-font', `"${family}"`);
  }, [font]);
}

/**
 * React Bootstrap places dropdown menus and popovers from its own idea of the
 * direction, not the page's: without it, a menu aligned to the end opens past
 * the screen's edge in Arabic and widens the page on a phone.
 */
export function App() {
  const language = useUiStore((s) => s.language);
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeProvider dir={directionOf(language)}>
        <AppScreens />
      </ThemeProvider>
    </QueryClientProvider>
  );
}

// Another person signed in (or nobody is): nothing read for the last one may show.
useAuthStore.subscribe((now, before) => {
  if (now.user?.id !== before.user?.id) queryClient.clear();
});

function AppScreens() {
  const { t } = useTranslation();
  const status = useSettingsStore((s) => s.status);
  const settings = useSettingsStore((s) => s.settings);
  const error = useSettingsStore((s) => s.error);
  const [booted, setBooted] = useState(false);
  const [atOnce] = useState(() => showsAtOnce(window.location.pathname));
  const router = useMemo(getRouter, []);
  useTheme();

  useEffect(() => {
    void bootOnce(atOnce).finally(() => setBooted(true));
  }, [atOnce]);

  if (atOnce) return <RouterProvider router={router} />;
  if (!settings && status === 'error') {
    return (
      <div className="sw-fullpage-center">
        <p className="text-danger text-center fs-5 m-3" role="alert">
          {t('Error loading settings: {message}', { message: t(error ?? '') })}
        </p>
      </div>
    );
  }
  if (!booted || !settings) return <Spinner size="lg" fullPage />;
  return <RouterProvider router={router} />;
}
