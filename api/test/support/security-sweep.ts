import crypto from 'node:crypto';
import type { Test } from 'supertest';
import { issueSession } from '@sitewalk/core/services/session.service.js';
import { api, createUser, uniqueIp, type TestUser } from '../helpers.js';

/**
 * The security sweep (issue 24 item 9): every operation of the OpenAPI
 * document gets each bad input of BAD_VALUES — in its path parameters, its
 * query parameters and its JSON body fields, and as whole malformed bodies —
 * as someone not signed in, as a stranger and as the owner of the objects
 * the path points at. It fails on any 5xx, and on any answer that shows a
 * user's data to someone else (each user's objects carry a marker in their
 * names that must never appear in an answer to another).
 *
 * api/test/security-sweep.test.ts runs a small sample on every test run;
 * `scripts/security-sweep.sh` runs all of it (README "Security sweep").
 */

type Json = Record<string, unknown>;

/** The bad inputs: text no database can store, sizes, wrong types, impossible ids, shapes. */
export const BAD_VALUES: Record<string, unknown> = {
  nul: 'a\u0000b',
  'lone surrogate': 'x\ud800y',
  '1 MB string': 'x'.repeat(1024 * 1024),
  'huge id': 99_999_999_999_999_999_999,
  'negative id': -1,
  'wrong type (object)': { unexpected: true },
  'wrong type (boolean)': true,
  'array for a scalar': ['a', 'b'],
  'deep JSON': deepJson(2_000),
};

/** The same list as text, for path and query parameters. */
export const BAD_TEXTS: Record<string, string> = {
  nul: 'a\u0000b',
  'lone surrogate': 'x\ud800y',
  'long string': 'x'.repeat(6_000),
  'huge id': '99999999999999999999',
  'negative id': '-1',
  'not a number': 'abc',
};

/** Whole request bodies that are not what any route reads. */
export const BAD_BODIES: Record<string, string> = {
  'deep JSON body': `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  'array body': '[1,2,3]',
  'null body': 'null',
  'broken JSON': '{"name": "x",',
};

function deepJson(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

export type Actor = 'anonymous' | 'stranger' | 'owner';
export const ACTORS: Actor[] = ['anonymous', 'stranger', 'owner'];

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head';
  /** OpenAPI path, relative to /api ('/projects/{id}'). */
  path: string;
  queryKeys: string[];
  bodyKeys: string[];
}

/** The operations of the document, with the names of their query parameters and JSON body fields. */
export function operationsOf(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item) as [Operation['method'], Json][]) {
      const params = (op.parameters ?? []) as { in: string; name: string }[];
      const content = ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, { schema?: Json }>;
      const schema = (content['application/json'] ?? content['multipart/form-data'])?.schema;
      out.push({
        method,
        path,
        queryKeys: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyKeys: Object.keys((schema?.properties as Json | undefined) ?? {}),
      });
    }
  }
  return out;
}

/** One user and the objects of theirs a path may point at; their names carry the user's marker. */
interface Owner {
  user: TestUser;
  marker: string;
  ids: Record<string, number>;
  /** Other objects of the same kinds, for DELETE, so the ones above stay for the other requests. */
  spare: Record<string, number>;
}

async function ownerWithObjects(): Promise<Owner> {
  const user = await createUser();
  const marker = `mark${crypto.randomBytes(6).toString('hex')}`;
  const objects = async (set: string) => {
    const post = async (path: string, body: object) => {
      const res = await api().post(path).set(user.auth).send(body);
      if (res.status >= 300) throw new Error(`sweep fixture: ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data.id as number;
    };
    const project = await post('/api/projects', { name: `${marker} tower`, description: `${marker} description` });
    const map = await post('/api/maps', { id_project: project, name: `${marker} ground floor` });
    const visit = await post('/api/visits', { id_project: project, name: `${marker} walk` });
    const category = await post('/api/categories', { name: `${marker} category ${set}` });
    const apiKey = await post('/api/api-keys', { name: `${marker} key`, scope: 'read' });
    return { projects: project, maps: map, visits: visit, categories: category, 'api-keys': apiKey, users: user.user.id };
  };
  return { user, marker, ids: await objects('a'), spare: await objects('b') };
}

export interface SweepFixture {
  owner: Owner;
  stranger: Owner;
}

export async function sweepFixture(): Promise<SweepFixture> {
  return { owner: await ownerWithObjects(), stranger: await ownerWithObjects() };
}

/** Percent-encodes a path parameter; a lone surrogate (which encodeURIComponent refuses) goes as raw bytes. */
const encodeParam = (v: string) => v.split(/([\ud800-\udfff])/).map((part, i) => (i % 2 ? '%ED%A0%80' : encodeURIComponent(part))).join('');

/** The path with its parameters filled: the owner's object of the path's first segment, or the given text. */
export function fillPath(op: Operation, f: SweepFixture, param?: string): string {
  const ids = op.method === 'delete' ? f.owner.spare : f.owner.ids;
  const first = op.path.split('/')[1];
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (param !== undefined) return encodeParam(param);
    if (name === 'id') return String(ids[first] ?? 1);
    if (name === 'lang') return 'en';
    return 'x';
  });
  return `/api${path}`;
}

export interface SweepRequest {
  label: string;
  actor: Actor;
  op: Operation;
  path: string;
  query?: Record<string, unknown>;
  /** A JSON value, or raw text sent as application/json. */
  body?: unknown;
  rawBody?: string;
}

/** Every request of the sweep for one operation and actor; `maxKeys` keeps a sample to the first query and body fields. */
export function requestsFor(op: Operation, actor: Actor, f: SweepFixture, maxKeys = Infinity): SweepRequest[] {
  const out: SweepRequest[] = [];
  const at = (what: string) => `${actor} ${op.method.toUpperCase()} ${op.path} ${what}`;
  const path = fillPath(op, f);
  if (/\{/.test(op.path)) {
    for (const [kind, v] of Object.entries(BAD_TEXTS)) out.push({ label: at(`path parameter: ${kind}`), actor, op, path: fillPath(op, f, v) });
  }
  for (const key of op.queryKeys.slice(0, maxKeys)) {
    for (const [kind, v] of Object.entries(BAD_TEXTS)) out.push({ label: at(`?${key}: ${kind}`), actor, op, path, query: { [key]: v } });
    out.push({ label: at(`?${key}: array for a scalar`), actor, op, path, query: { [key]: ['1', '2'] } });
  }
  if (op.method !== 'get' && op.method !== 'head') {
    for (const key of op.bodyKeys.slice(0, maxKeys)) {
      for (const [kind, v] of Object.entries(BAD_VALUES)) out.push({ label: at(`{${key}}: ${kind}`), actor, op, path, body: { [key]: v } });
    }
    for (const [kind, raw] of Object.entries(BAD_BODIES)) out.push({ label: at(kind), actor, op, path, rawBody: raw });
  }
  return out;
}

export interface SweepAnswer {
  status: number;
  text: string;
}

export interface SweepProblem {
  request: string;
  problem: string;
}

/** What is wrong with an answer: a 5xx, or another user's data (their marker) in it. */
export function judge(req: Pick<SweepRequest, 'label' | 'actor'>, res: SweepAnswer, f: Pick<SweepFixture, 'owner' | 'stranger'>): SweepProblem | null {
  if (res.status >= 500) return { request: req.label, problem: `answered ${res.status}: ${res.text.slice(0, 200)}` };
  const others = req.actor === 'owner' ? [f.stranger.marker] : [f.owner.marker, ...(req.actor === 'anonymous' ? [f.stranger.marker] : [])];
  const leaked = others.find((m) => res.text.includes(m));
  if (leaked) return { request: req.label, problem: `shows another user's data (${leaked})` };
  return null;
}

/** Sends the requests a few at a time (the API runs in this process); each request has a session of its own. */
export async function runSweep(requests: SweepRequest[], f: SweepFixture, concurrency = 4) {
  const problems: SweepProblem[] = [];
  const statuses = new Map<number, number>();
  const queue = [...requests];
  const send = async (r: SweepRequest): Promise<SweepAnswer> => {
    // A session of its own: logout, refresh and "sign out everywhere else" end the one they are sent with.
    const who = r.actor === 'owner' ? f.owner : r.actor === 'stranger' ? f.stranger : null;
    let req: Test = api()[r.op.method](r.path).set('X-Forwarded-For', uniqueIp());
    if (who) req = req.set('Authorization', `Bearer ${(await issueSession(who.user.user.id, { remember: false })).token}`);
    if (r.query) req = req.query(r.query as Record<string, string>);
    if (r.rawBody !== undefined) req = req.set('Content-Type', 'application/json').send(r.rawBody);
    else if (r.body !== undefined) req = req.send(r.body as object);
    try {
      const res = await req;
      return { status: res.status, text: res.text ?? '' };
    } catch (err) {
      // The server closed the connection (a request it would not read to the end): not an answer with data.
      if ((err as NodeJS.ErrnoException).code === 'ECONNRESET' || (err as NodeJS.ErrnoException).code === 'EPIPE') return { status: 0, text: '' };
      throw err;
    }
  };
  const worker = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const res = await send(r);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const problem = judge(r, res, f);
      if (problem) problems.push(problem);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { problems, statuses };
}
