import * as proto from '@sitewalk/proto';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouter } from '../src/routes/index.js';
import { ROUTE_CONTRACTS } from '../src/openapi/route-contracts.js';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { issueSession } from '@sitewalk/core/services/session.service.js';
import { api, createUser, uniqueIp, uniqueName, type TestUser } from './helpers.js';
import { newProject } from './project-helpers.js';

/**
 * Every route of the API router, found by walking router.stack so a route
 * added later is covered without touching this file, gets NUL bytes, lone
 * surrogates and over-long texts in its query string, its body and its path,
 * as a normal user and as an administrator. Whatever it answers, it must not
 * be a 5xx: bad input is the client's mistake and is told as such.
 */

afterAll(async () => {
  await closeQueues();
  await closeEmitter();
});

const BAD = {
  nul: 'a\u0000b',
  surrogate: 'x\ud800y',
  // Longer than any text limit of the contracts (the longest is 5,000), short enough for a URL.
  long: 'x'.repeat(5_500),
} as const;

/** The field names an object schema reads (through unions, pipes and optional wrappers). */
function collectKeys(s: unknown, out: Set<string>): void {
  if (s instanceof z.ZodObject) for (const k of Object.keys(s.shape)) out.add(k);
  else if (s instanceof z.ZodUnion) for (const o of s.options) collectKeys(o, out);
  else if (s instanceof z.ZodType) {
    const def = (s as unknown as { _zod: { def: { in?: unknown; innerType?: unknown } } })._zod.def;
    if (def.in) collectKeys(def.in, out);
    else if (def.innerType) collectKeys(def.innerType, out);
  }
}

/** The keys of every object schema proto exports (query schemas apart), so each route meets the names it reads. */
function schemaKeys(): { query: string[]; body: string[] } {
  const query = new Set<string>();
  const body = new Set<string>();
  for (const [name, value] of Object.entries(proto)) {
    if (!name.endsWith('Schema') || name === 'settingsUpdateSchema') continue;
    collectKeys(value, name.endsWith('QuerySchema') ? query : body);
  }
  return { query: [...query], body: [...body] };
}

/**
 * The keys a route's own schemas read (its line in the OpenAPI contracts, which names the very
 * schemas the route validates with). Each is also sent alone: a strict schema that refuses the
 * other keys would hide what one key does. A route with no schema reads no such key, and the
 * request with every key at once covers it; a route missing from the contracts (openapi.test.ts
 * fails on that) is sent every key alone.
 */
function ownKeys(route: Route, all: { query: string[]; body: string[] }): { query: string[]; body: string[] } {
  const contract = ROUTE_CONTRACTS.find((c) => c.method.toUpperCase() === route.method && `/api${c.path}` === route.path);
  if (!contract) return all;
  const query = new Set<string>();
  const body = new Set<string>();
  collectKeys(contract.query, query);
  collectKeys(contract.body, body);
  collectKeys(contract.fields, body);
  return { query: [...query], body: [...body] };
}

interface Route {
  method: string;
  path: string;
}

/** Every method and path the API router serves (HEAD is GET's twin). */
function routes(): Route[] {
  const out: Route[] = [];
  for (const layer of apiRouter().stack) {
    for (const method of layer.methods) if (method !== 'HEAD') out.push({ method, path: String(layer.path) });
  }
  // Signing sessions out would end the sessions the sweep sends its other requests with (sessions.test.ts covers them).
  return out.filter((r) => !(r.method !== 'GET' && r.path.startsWith('/api/sessions')));
}

interface Fixture {
  user: TestUser;
  admin: TestUser;
  /** Objects the paths' :id point at: for reads and changes, and others for DELETE so the rest stays. */
  ids: Record<string, number>;
  victims: Record<string, number>;
}

async function fixture(): Promise<Fixture> {
  const user = await createUser();
  const admin = await createUser({ super_admin: true });
  const victim = await createUser();
  const make = async (owner: TestUser) => {
    const project = await newProject(owner);
    const category = (await api().post('/api/categories').set(owner.auth).send({ name: uniqueName('Cat') })).body.data;
    const type = (await api().post('/api/project-types').set(admin.auth).send({ name: uniqueName('Type') })).body.data;
    const map = (await api().post('/api/maps').set(owner.auth).send({ id_project: project.id, name: 'Ground floor' })).body.data;
    return { projects: project.id, categories: category.id, 'project-types': type.id, maps: map.id };
  };
  return { user, admin, ids: { ...(await make(user)), users: user.user.id }, victims: { ...(await make(user)), users: victim.user.id } };
}

/** Percent-encodes a path parameter; a lone surrogate (which encodeURIComponent refuses) goes as its raw UTF-8-style bytes. */
const encodeParam = (v: string) => v.split(/([\ud800-\udfff])/).map((part, i) => (i % 2 ? '%ED%A0%80' : encodeURIComponent(part))).join('');

/** The path with its parameters filled: real ids (by the path's first segment), or the given text. */
function fill(route: Route, f: Fixture, param?: string): string {
  const segment = route.path.split('/')[2];
  const ids = route.method === 'DELETE' ? f.victims : f.ids;
  return route.path
    .replace(/:id\b/, () => (param !== undefined ? encodeParam(param) : String(ids[segment] ?? 1)))
    .replace(/:lang\b/, () => (param !== undefined ? encodeParam(param) : 'en'))
    .replace(/\{\*key\}/, () => (param !== undefined ? encodeParam(param) : 'projects/1/cover/x.webp'));
}

interface Failure {
  request: string;
  status: number;
  message: unknown;
}

/** Runs the requests a few at a time (the API is in this process) and keeps every 5xx. */
async function sweep(requests: { label: string; send: () => Promise<{ status: number; body: { message?: unknown } }> }[]) {
  const failures: Failure[] = [];
  const statuses = new Map<number, number>();
  const queue = [...requests];
  const runNext = async (): Promise<void> => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const res = await r.send();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500) failures.push({ request: r.label, status: res.status, message: res.body?.message });
    }
  };
  await Promise.all(Array.from({ length: 4 }, runNext));
  return { failures, statuses };
}

let f: Fixture;
beforeAll(async () => {
  f = await fixture();
}, 120_000);

describe('bad input on every route', () => {
  const { query: queryKeys, body: bodyKeys } = schemaKeys();
  const all = routes();

  it('finds the routes and the field names to try', () => {
    // A sanity check of the walk itself: a broken walk would make the sweep below prove nothing.
    expect(all.length).toBeGreaterThan(50);
    expect(all).toContainEqual({ method: 'GET', path: '/api/showcase' });
    expect(all).toContainEqual({ method: 'PUT', path: '/api/settings' });
    expect(queryKeys).toEqual(expect.arrayContaining(['search', 'project_code', 'page']));
    expect(bodyKeys).toEqual(expect.arrayContaining(['name', 'notification_id', 'username']));
    // Each route's own keys are found through its contract (a broken lookup would leave only the all-at-once requests).
    const every = { query: queryKeys, body: bodyKeys };
    expect(ownKeys({ method: 'POST', path: '/api/projects' }, every).body).toContain('name');
    expect(ownKeys({ method: 'GET', path: '/api/notifications' }, every).query).toContain('page');
    expect(all.filter((r) => ownKeys(r, every) === every)).toEqual([]);
  });

  for (const who of ['user', 'admin'] as const) {
    it(`never answers 5xx to NUL, lone surrogates or over-long texts, as ${who === 'user' ? 'a normal user' : 'an administrator'}`, async () => {
      const requests: Parameters<typeof sweep>[0] = [];
      for (const route of all) {
        // A session of its own per route: logout and refresh end the one they are sent with.
        const { token } = await issueSession((who === 'user' ? f.user : f.admin).user.id, { remember: false });
        const send = (path: string, q: Record<string, string> | null, body: unknown) => () => {
          let req = api()[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete'](path)
            .set('Authorization', `Bearer ${token}`)
            .set('X-Forwarded-For', uniqueIp());
          if (q) req = req.query(q);
          return body === undefined ? req : req.send(body as object);
        };
        const path = fill(route, f);
        const readsQuery = route.method === 'GET' || route.method === 'DELETE';
        const hasBody = route.method !== 'GET';
        const own = ownKeys(route, { query: queryKeys, body: bodyKeys });
        for (const [kind, value] of Object.entries(BAD)) {
          const label = (what: string) => `${route.method} ${route.path} ${what} ${kind}`;
          // Query: every known key at once (short values), and each key alone where routes read queries
          // (alone, so a strict schema that refuses the other keys does not hide what this one does).
          if (kind !== 'long') requests.push({ label: label('query'), send: send(path, Object.fromEntries(queryKeys.map((k) => [k, value])), undefined) });
          if (readsQuery) for (const k of own.query) requests.push({ label: label(`?${k}=`), send: send(path, { [k]: value }, undefined) });
          if (hasBody) {
            requests.push({ label: label('body'), send: send(path, null, Object.fromEntries(bodyKeys.map((k) => [k, value]))) });
            if (kind !== 'surrogate') for (const k of own.body) requests.push({ label: label(`{${k}}`), send: send(path, null, { [k]: value }) });
            // Nested, and as a key.
            requests.push({ label: label('nested'), send: send(path, null, { rooms: [{ name: value }], global_settings: { [value]: true } }) });
          }
          // The path's own parameter.
          if (/[:{]/.test(route.path)) requests.push({ label: label('param'), send: send(fill(route, f, value), null, undefined) });
        }
      }
      const { failures, statuses } = await sweep(requests);
      expect(failures).toEqual([]);
      // The requests were read, not turned away at the door: most are refused as bad input, not as unauthorised.
      expect(statuses.get(400) ?? 0).toBeGreaterThan(requests.length / 2);
      expect(statuses.get(401) ?? 0).toBeLessThan(requests.length / 20);
    }, 900_000);
  }
});
