/**
 * The design-cloud link of SPEC §4 as a pure state machine (no React, no
 * HTTP): the store feeds it events and runs the effects it asks for.
 *
 * unknown ──user changed (adsk_enable on, a user)──▶ checking (cookie token) / not_connected (no token)
 * checking ──check ok──▶ connected;  ──check failed──▶ refreshing
 * refreshing ──refresh ok──▶ connected;  ──refresh failed──▶ not_connected
 * not_connected ──connect──▶ redirecting (the browser leaves for Autodesk)
 * connected ──disconnect──▶ disconnecting ──done──▶ not_connected (cookie, token and flag cleared)
 * any ──a token refresh fails──▶ not_connected
 */

export type LinkState = 'unknown' | 'disabled' | 'checking' | 'refreshing' | 'connected' | 'not_connected' | 'redirecting' | 'disconnecting';

export type LinkEvent =
  | { type: 'user-changed'; enabled: boolean; hasUser: boolean; hasToken: boolean }
  | { type: 'check-ok'; authenticated: boolean }
  | { type: 'check-failed' }
  | { type: 'refresh-ok' }
  | { type: 'refresh-failed' }
  | { type: 'connect' }
  | { type: 'connect-failed' }
  | { type: 'disconnect' }
  | { type: 'disconnect-done' }
  | { type: 'disconnect-failed' }
  /** The return from Autodesk (?adsk_callback): success re-checks; an error re-checks a link held from before. */
  | { type: 'callback'; status: 'success' | 'error'; hasToken: boolean };

/** Side effects the store carries out after a transition. */
export type LinkEffect = 'check' | 'refresh' | 'fetch-auth-url' | 'logout' | 'clear-token' | 'reload-profile';

export interface Transition {
  state: LinkState;
  effects: LinkEffect[];
}

const to = (state: LinkState, ...effects: LinkEffect[]): Transition => ({ state, effects });

export function nextLink(state: LinkState, event: LinkEvent): Transition {
  switch (event.type) {
    case 'user-changed':
      if (!event.enabled || !event.hasUser) return to(event.enabled ? 'unknown' : 'disabled');
      return event.hasToken ? to('checking', 'check') : to('not_connected');
    case 'check-ok':
      if (state !== 'checking') return to(state);
      // The check answered "not authenticated": a refresh may still save the link.
      return event.authenticated ? to('connected') : to('refreshing', 'refresh');
    case 'check-failed':
      return state === 'checking' ? to('refreshing', 'refresh') : to(state);
    case 'refresh-ok':
      return state === 'disconnecting' ? to(state) : to('connected');
    case 'refresh-failed':
      return to('not_connected', 'clear-token');
    case 'connect':
      return state === 'not_connected' || state === 'unknown' ? to('redirecting', 'fetch-auth-url') : to(state);
    case 'connect-failed':
      return to('not_connected');
    case 'disconnect':
      return state === 'connected' || state === 'refreshing' || state === 'checking' ? to('disconnecting', 'logout') : to(state);
    case 'disconnect-done':
      return to('not_connected', 'clear-token');
    case 'disconnect-failed':
      return state === 'disconnecting' ? to('connected') : to(state);
    case 'callback':
      if (event.status === 'success') return to('checking', 'check', 'reload-profile');
      return event.hasToken ? to('checking', 'check') : to('not_connected');
  }
}

/** True while a call of the link is on its way (buttons wait). */
export const linkBusy = (s: LinkState) => s === 'checking' || s === 'refreshing' || s === 'redirecting' || s === 'disconnecting';

/** The value of the adsk_access_token cookie in `cookieHeader` (document.cookie), or null. */
export function cookieValue(cookieHeader: string, name: string): string | null {
  for (const part of cookieHeader.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('=')) || null;
  }
  return null;
}

/** The query string without `param` (the URL after the callback toast is shown). */
export function withoutParam(search: string, param: string): string {
  const q = new URLSearchParams(search);
  q.delete(param);
  const s = q.toString();
  return s ? `?${s}` : '';
}
