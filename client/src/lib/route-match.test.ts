import { describe, expect, it } from 'vitest';
import { fillPattern, findRoute, matchPattern, numericToIdPattern, screenKey } from './route-match';

describe('matchPattern', () => {
  it('matches literal paths exactly, ignoring a trailing slash and the query', () => {
    expect(matchPattern('/dashboard', '/dashboard')).toEqual({});
    expect(matchPattern('/dashboard', '/dashboard/')).toEqual({});
    expect(matchPattern('/dashboard', '/dashboard?tab=1')).toEqual({});
    expect(matchPattern('/dashboard', '/dashboards')).toBeNull();
    expect(matchPattern('/dashboard', '/dashboard/extra')).toBeNull();
  });

  it('gives the value of each :param segment', () => {
    expect(matchPattern('/project/:id', '/project/12')).toEqual({ id: '12' });
    expect(matchPattern('/viewer/:code/:room?/:poi?', '/viewer/AB12/7')).toEqual({ code: 'AB12', room: '7' });
    expect(matchPattern('/project/:id', '/project')).toBeNull();
  });

  it('accepts a missing optional parameter', () => {
    expect(matchPattern('/visits/:id?', '/visits')).toEqual({});
    expect(matchPattern('/visits/:id?', '/visits/3')).toEqual({ id: '3' });
  });

  it('decodes parameters', () => {
    expect(matchPattern('/showcase/:code', '/showcase/a%20b')).toEqual({ code: 'a b' });
  });
});

describe('findRoute', () => {
  const routes = [{ path: '/dashboard' }, { path: '/project/:id' }, { path: '/project/new' }, { path: '/visits/:id?' }];

  it('prefers a literal segment over a parameter', () => {
    expect(findRoute(routes, '/project/new')?.route.path).toBe('/project/new');
    expect(findRoute(routes, '/project/5')).toEqual({ route: { path: '/project/:id' }, params: { id: '5' } });
  });

  it('finds nothing for an unknown path', () => {
    expect(findRoute(routes, '/nowhere')).toBeNull();
  });
});

describe('screenKey', () => {
  const routes = [{ path: '/visits/:id?' }, { path: '/visittour/:id/:room?', sameScreenParams: ['room'] }, { path: '/project/:id' }];

  it('keeps a screen while only a parameter it follows changes', () => {
    expect(screenKey(routes, '/visittour/4')).toBe(screenKey(routes, '/visittour/4/12'));
    expect(screenKey(routes, '/visittour/4/12')).toBe(screenKey(routes, '/visittour/4/13'));
  });

  it('makes a new screen for another object, another route or an unknown path', () => {
    expect(screenKey(routes, '/visittour/4/12')).not.toBe(screenKey(routes, '/visittour/5/12'));
    expect(screenKey(routes, '/visits/1')).not.toBe(screenKey(routes, '/visits/2'));
    expect(screenKey(routes, '/visits')).not.toBe(screenKey(routes, '/visits/1'));
    expect(screenKey(routes, '/project/1')).not.toBe(screenKey(routes, '/visits/1'));
    expect(screenKey(routes, '/nowhere/1')).toBe('/nowhere/1');
  });
});

describe('path helpers', () => {
  it('turns numeric segments into :id', () => {
    expect(numericToIdPattern('/project/12/sheet/4')).toBe('/project/:id/sheet/:id');
    expect(numericToIdPattern('/profile')).toBe('/profile');
  });

  it('fills a pattern, or refuses when a required parameter is missing', () => {
    expect(fillPattern('/project/:id', { id: '9' })).toBe('/project/9');
    expect(fillPattern('/visits/:id?', {})).toBe('/visits');
    expect(fillPattern('/project/:id', {})).toBeNull();
  });
});
