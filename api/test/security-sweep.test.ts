import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { buildOpenApiDocument } from '../src/openapi/document.js';
import { ACTORS, judge, operationsOf, requestsFor, runSweep, sweepFixture, type SweepFixture, type SweepRequest } from './support/security-sweep.js';

/**
 * The security sweep over the OpenAPI document. On every test run: a sample
 * (a few routes, every bad input, the three callers) — quick. By hand,
 * SECURITY_SWEEP=full (scripts/security-sweep.sh): every route.
 */
const FULL = process.env.SECURITY_SWEEP === 'full';
const SAMPLE = ['post /projects', 'put /visits/{id}', 'get /projects', 'post /api-keys', 'delete /maps/{id}'];

afterAll(async () => {
  await closeQueues();
  await closeEmitter();
});

let f: SweepFixture;
beforeAll(async () => {
  f = await sweepFixture();
}, 120_000);

describe('the security sweep', () => {
  it('judges a 5xx and another user’s data in an answer as failures, and a plain refusal as fine', () => {
    const owner = { marker: 'markA' } as SweepFixture['owner'];
    const stranger = { marker: 'markB' } as SweepFixture['stranger'];
    const fx = { owner, stranger };
    const req = (actor: SweepRequest['actor']) => ({ label: 'x', actor });
    expect(judge(req('owner'), { status: 500, text: '{}' }, fx)?.problem).toMatch(/answered 500/);
    expect(judge(req('stranger'), { status: 200, text: '{"name":"markA tower"}' }, fx)?.problem).toMatch(/another user/);
    expect(judge(req('anonymous'), { status: 200, text: 'markB' }, fx)?.problem).toMatch(/another user/);
    expect(judge(req('owner'), { status: 200, text: '{"name":"markA tower"}' }, fx)).toBeNull();
    expect(judge(req('stranger'), { status: 404, text: '{"message":"Not found."}' }, fx)).toBeNull();
  });

  it(`sends ${FULL ? 'every' : 'a sample of'} route(s) of the document each bad input as anonymous, stranger and owner: no 5xx, no leak`, async () => {
    const ops = operationsOf(buildOpenApiDocument() as unknown as Record<string, unknown>).filter(
      (op) => FULL || SAMPLE.includes(`${op.method} ${op.path}`),
    );
    expect(ops.length).toBe(FULL ? ops.length : SAMPLE.length);
    const requests = ops.flatMap((op) => ACTORS.flatMap((actor) => requestsFor(op, actor, f, FULL ? Infinity : 2)));
    const { problems, statuses } = await runSweep(requests, f);
    if (FULL) console.log(`security sweep: ${ops.length} operations, ${requests.length} requests; answers by status:`, Object.fromEntries([...statuses].sort()));
    expect(problems).toEqual([]);
    // The requests were read and refused as bad input, not all turned away at the door.
    const refusedAsBad = (statuses.get(400) ?? 0) + (statuses.get(404) ?? 0) + (statuses.get(413) ?? 0) + (statuses.get(431) ?? 0);
    expect(refusedAsBad).toBeGreaterThan(requests.length / 3);
    expect(statuses.get(401) ?? 0).toBeGreaterThan(0);
  }, FULL ? 3_600_000 : 300_000);
});
