import Router from '@koa/router';
import { describe, expect, it } from 'vitest';
import { firstSegment, indexRoutesByFirstSegment } from './route-index.js';

type Matched = { path: { path: string }[]; pathAndMethod: { path: string }[]; route: boolean };
const noop = async () => undefined;

function routes(): Router {
  const r = new Router({ prefix: '/api' });
  r.get('/health', noop);
  r.get('/notifications', noop);
  r.post('/notifications/mark-read', noop);
  r.get('/projects/:id', noop);
  r.put('/projects/:id', noop);
  r.get('/projects/:id/maps', noop);
  r.get('/:anything/about', noop);
  r.use('/users', noop);
  r.get('/users/:id', noop);
  r.get('/Mixed-Case', noop);
  return r;
}

const names = (m: Matched) => ({ path: m.path.map((l) => l.path), pathAndMethod: m.pathAndMethod.map((l) => l.path), route: m.route });

describe('indexRoutesByFirstSegment', () => {
  it('reads the first segment of a route path, or null for a parameter', () => {
    expect(firstSegment('/api/notifications/mark-read', '/api')).toBe('notifications');
    expect(firstSegment('/api/Mixed-Case', '/api')).toBe('mixed-case');
    expect(firstSegment('/api/:id/about', '/api')).toBeNull();
    expect(firstSegment('/api', '/api')).toBeNull();
  });

  it('matches exactly what @koa/router matches, in the same order, for every kind of path', () => {
    const plain = routes();
    const indexed = indexRoutesByFirstSegment(routes());
    const paths = [
      '/api/health', '/api/health/', '/API/HEALTH', '/api/notifications', '/api/notifications/mark-read', '/api/projects/12',
      '/api/projects/12/maps', '/api/projects/about', '/api/x/about', '/api/users', '/api/users/3', '/api/mixed-case',
      '/api/MIXED-CASE', '/api', '/api/', '/apix/health', '/health', '/api//health', '/api/unknown', '/api/notifications%2Fmark-read', '/',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        const want = names(plain.match(path, method) as unknown as Matched);
        expect(names(indexed.match(path, method) as unknown as Matched), `${method} ${path}`).toEqual(want);
      }
    }
    // The cases above do match something, so the comparison is not between empty answers.
    expect((indexed.match('/api/projects/about', 'GET') as unknown as Matched).pathAndMethod.map((l) => l.path)).toEqual(['/api/projects/:id', '/api/:anything/about']);
  });
});
