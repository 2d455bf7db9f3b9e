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
