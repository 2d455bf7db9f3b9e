import { describe, expect, it } from 'vitest';
import { parseAdskCallback } from '@sitewalk/proto';
import { cookieValue, linkBusy, nextLink, withoutParam, type LinkEvent, type LinkState } from './design-cloud-link';

const run = (start: LinkState, events: LinkEvent[]) =>
  events.reduce<{ state: LinkState; effects: string[] }>(
    (acc, e) => {
      const t = nextLink(acc.state, e);
      return { state: t.state, effects: [...acc.effects, ...t.effects] };
    },
    { state: start, effects: [] },
  );

const user = (hasToken: boolean, enabled = true): LinkEvent => ({ type: 'user-changed', enabled, hasUser: true, hasToken });

describe('design-cloud link (SPEC §4)', () => {
  it('with a cookie token, checks; a good check means connected', () => {
    expect(run('unknown', [user(true), { type: 'check-ok', authenticated: true }])).toEqual({ state: 'connected', effects: ['check'] });
  });

  it('a failed check tries a refresh: success connects, failure does not', () => {
    expect(run('unknown', [user(true), { type: 'check-failed' }, { type: 'refresh-ok' }])).toEqual({ state: 'connected', effects: ['check', 'refresh'] });
    expect(run('unknown', [user(true), { type: 'check-ok', authenticated: false }, { type: 'refresh-failed' }])).toEqual({
      state: 'not_connected',
      effects: ['check', 'refresh', 'clear-token'],
    });
  });

  it('without a token the state is not connected, with no call', () => {
    expect(run('unknown', [user(false)])).toEqual({ state: 'not_connected', effects: [] });
  });

  it('is not checked when the integration is off or nobody is signed in', () => {
    expect(run('connected', [user(true, false)]).state).toBe('disabled');
    expect(nextLink('unknown', { type: 'user-changed', enabled: true, hasUser: false, hasToken: true })).toEqual({ state: 'unknown', effects: [] });
  });

  it('is checked again on each current-user change', () => {
    expect(run('connected', [user(true)]).effects).toEqual(['check']);
  });

  it('connect fetches the auth URL (the browser then leaves); a failure falls back', () => {
    expect(run('not_connected', [{ type: 'connect' }])).toEqual({ state: 'redirecting', effects: ['fetch-auth-url'] });
    expect(run('not_connected', [{ type: 'connect' }, { type: 'connect-failed' }]).state).toBe('not_connected');
    expect(run('connected', [{ type: 'connect' }])).toEqual({ state: 'connected', effects: [] });
  });

  it('disconnect clears the token; a failed disconnect stays connected', () => {
    expect(run('connected', [{ type: 'disconnect' }, { type: 'disconnect-done' }])).toEqual({ state: 'not_connected', effects: ['logout', 'clear-token'] });
    expect(run('connected', [{ type: 'disconnect' }, { type: 'disconnect-failed' }]).state).toBe('connected');
  });

  it('a refresh failure at any time means not connected', () => {
    expect(run('connected', [{ type: 'refresh-failed' }]).state).toBe('not_connected');
  });

  it('a successful return from Autodesk re-checks and reloads the profile', () => {
    expect(run('not_connected', [{ type: 'callback', status: 'success', hasToken: true }, { type: 'check-ok', authenticated: true }])).toEqual({
      state: 'connected',
      effects: ['check', 'reload-profile'],
    });
  });

  it('a failed return leaves a link held from before as it was (checked again), else not connected', () => {
    expect(run('redirecting', [{ type: 'callback', status: 'error', hasToken: false }])).toEqual({ state: 'not_connected', effects: [] });
    expect(run('unknown', [{ type: 'callback', status: 'error', hasToken: true }, { type: 'check-ok', authenticated: true }])).toEqual({ state: 'connected', effects: ['check'] });
  });

  it('knows when a call is on its way', () => {
    expect(linkBusy('checking')).toBe(true);
    expect(linkBusy('connected')).toBe(false);
  });
});

describe('callback query and cookie', () => {
  it('reads the status and message of ?adsk_callback', () => {
    expect(parseAdskCallback(JSON.stringify({ status: 'success', message: 'Connected to Autodesk.' }))).toEqual({ status: 'success', message: 'Connected to Autodesk.' });
    expect(parseAdskCallback('error')).toEqual({ status: 'error', message: 'Failed to connect to Autodesk' });
    expect(parseAdskCallback('{"status":"maybe"}')).toBeNull();
    expect(parseAdskCallback(null)).toBeNull();
  });

  it('removes only the callback parameter from the address', () => {
    expect(withoutParam('?adsk_callback=%7B%7D&tab=2', 'adsk_callback')).toBe('?tab=2');
    expect(withoutParam('?adsk_callback=x', 'adsk_callback')).toBe('');
  });

  it('reads the link cookie', () => {
    expect(cookieValue('XSRF-TOKEN=a; adsk_access_token=abc%3D', 'adsk_access_token')).toBe('abc=');
    expect(cookieValue('XSRF-TOKEN=a', 'adsk_access_token')).toBeNull();
    expect(cookieValue('adsk_access_token=', 'adsk_access_token')).toBeNull();
  });
});
