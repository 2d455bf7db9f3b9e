/**
 * Lets stores and the HTTP client navigate without importing the router
 * (which imports them): the router registers itself here at start-up.
 */
type Navigate = (to: string, opts?: { replace?: boolean; state?: unknown }) => void;

let navigateImpl: Navigate = (to) => window.location.assign(to);

export function setNavigator(fn: Navigate): void {
  navigateImpl = fn;
}

export const navigateTo: Navigate = (to, opts) => navigateImpl(to, opts);

/** The public sign-in screens: an expired session does not send the user there again. */
export const LOGIN_PATHS = ['/login', '/register', '/recover', '/activate', '/reset-password'] as const;

export const isLoginPath = (pathname: string) =>
  LOGIN_PATHS.some((p) => pathname === p || pathname.startsWith(p + '/'));

/**
 * Opens a link in a new tab. A link into SiteWalk keeps its opener so the new
 * tab gets a copy of this tab's session storage, and with it the sign-in of a
 * user who did not ask to be remembered; other sites get no opener.
 */
export function openInNewTab(link: string): void {
  let url: URL;
  try {
    url = new URL(link, window.location.href);
  } catch {
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
  if (url.origin === window.location.origin) window.open(url.href, '_blank');
  else window.open(url.href, '_blank', 'noopener,noreferrer');
}
