import sharp from 'sharp';
import type { Test } from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectPermission } from '@sitewalk/proto';
import { Project, db } from '@sitewalk/core/db';
import { closeQueues } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { newProjectCode } from '@sitewalk/core/services/project-code.service.js';
import { useOwnRedisPrefix } from '../../workers/test/helpers.js';
import { PAPER, planPdf } from '../../workers/test/pdf-fixtures.js';
import { api, createUser, uniqueName, type TestUser } from './helpers.js';
import { addMember } from './project-helpers.js';

/**
 * Every endpoint of teams and projects against every kind of caller: what is
 * allowed succeeds; what is refused is 404 when the caller may not know the
 * project exists and 403 when they may see it. Each call gets a project of
 * its own, so one caller's success never changes the next one's answer.
 */

// Own queues: the notifications and PDF jobs queued here are nobody else's.
useOwnRedisPrefix('team-matrix');
afterAll(async () => {
  await closeQueues();
  await closeEmitter();
});

type ActorName =
  | 'anonymous'
  | 'outsider'
  | 'guest'
  | 'viewer'
  | 'upload'
  | 'edit'
  | 'manage_snags'
  | 'manage_team'
  | 'project_admin'
  | 'owner'
  | 'super_admin';

const ACTORS: ActorName[] = ['anonymous', 'outsider', 'guest', 'viewer', 'upload', 'edit', 'manage_snags', 'manage_team', 'project_admin', 'owner', 'super_admin'];
/** Members whose role is viewer with one extra permission each. */
const ONE_PERMISSION = ['upload', 'edit', 'manage_snags', 'manage_team'] as const;

const users = {} as Record<Exclude<ActorName, 'anonymous'> | 'target' | 'invitee' | 'requester', TestUser>;
let pdf: Buffer;
let png: Buffer;

beforeAll(async () => {
  for (const name of [...ACTORS.filter((a) => a !== 'anonymous'), 'target', 'invitee', 'requester'] as const) {
    users[name as keyof typeof users] = await createUser({ super_admin: name === 'super_admin' });
  }
  pdf = await planPdf([{ size: PAPER.A6 }]);
  png = await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 100, b: 50 } } }).png().toBuffer();
});

interface Fixture {
  id: number;
  code: string;
  targetMemberId: number;
  categoryId: number;
}

/** A fresh active project of `owner` with every member kind, a plain member to act on, and a category of the owner. */
async function fixture(opts: { active?: boolean } = {}): Promise<Fixture> {
  const project = await Project.query().insertAndFetch({
    id_owner: users.owner.user.id,
    name: uniqueName('Matrix'),
    project_code: await newProjectCode(),
    active: opts.active ?? true,
    validated: true,
  });
  await addMember(project.id, users.guest, 'guest');
  await addMember(project.id, users.viewer, 'viewer');
  for (const p of ONE_PERMISSION) await addMember(project.id, users[p], 'viewer', { [p]: true });
  await addMember(project.id, users.project_admin, 'project_admin');
  await addMember(project.id, users.target, 'viewer');
  const target = await db()('project_members').where({ id_project: project.id, id_user: users.target.user.id }).first('id');
  const [category] = await db()('categories').insert({ id_owner: users.owner.user.id, name: uniqueName('cat') }).returning('id');
  return { id: project.id, code: project.project_code, targetMemberId: target.id, categoryId: category.id };
}

type Need = 'read' | ProjectPermission | 'manage' | 'super_admin';

/** What each caller may do, by the rule of access.service. */
function mayDo(actor: ActorName, need: Need): boolean {
  if (actor === 'anonymous' || actor === 'outsider') return false;
  if (actor === 'super_admin') return true;
  if (need === 'super_admin') return false;
  if (actor === 'owner') return true;
  if (need === 'manage') return false;
  if (actor === 'project_admin') return true;
  if (need === 'read' || need === 'view') return true;
  return actor === need;
}

/** The expected status: success, 401 signed out, 404 for those who may not know the project, else 403. */
function expected(actor: ActorName, need: Need, success: number): number {
  if (actor === 'anonymous') return 401;
  if (mayDo(actor, need)) return success;
  return actor === 'outsider' ? 404 : 403;
}

interface Case {
  name: string;
  need: Need;
  success: number;
  /** Done before the call, on the fresh project. */
  prepare?: (f: Fixture) => Promise<void>;
  call: (f: Fixture) => (r: ReturnType<typeof api>) => Test;
}

const auth = (actor: ActorName) => (actor === 'anonymous' ? {} : users[actor].auth);

const pendingInvitation = async (f: Fixture) => {
  await db()('invitations').insert({ kind: 'project', id_project: f.id, id_user: users.invitee.user.id, role: 'viewer', invited_by: users.owner.user.id, sent: true });
};
const pendingRequest = async (f: Fixture) => {
  await db()('project_join_requests').insert({ id_project: f.id, id_user: users.requester.user.id });
};

const CASES: Case[] = [
  // Teams
  { name: 'GET /team-members', need: 'read', success: 200, call: (f) => (r) => r.get('/api/team-members').query({ id_project: f.id }) },
  {
    name: "GET /team-members/permissions (another member's)",
    need: 'manage_team',
    success: 200,
    call: (f) => (r) => r.get('/api/team-members/permissions').query({ id_project: f.id, id_user: users.target.user.id }),
  },
  {
    name: 'PUT /team-members/update-permissions',
    need: 'manage_team',
    success: 200,
    call: (f) => (r) => r.put('/api/team-members/update-permissions').send({ id_project: f.id, id_user: users.target.user.id, permissions: { upload: true } }),
  },
  {
    name: 'POST /team-members/remove-team-member {id_project, id_user}',
    need: 'manage_team',
    success: 200,
    call: (f) => (r) => r.post('/api/team-members/remove-team-member').send({ id_project: f.id, id_user: users.target.user.id }),
  },
  {
    name: 'POST /team-members/remove-team-member {id_member}',
    need: 'manage_team',
    success: 200,
    call: (f) => (r) => r.post('/api/team-members/remove-team-member').send({ id_member: f.targetMemberId }),
  },
  {
    name: 'POST /team-members/invite-team-member',
    need: 'manage_team',
    success: 201,
    call: (f) => (r) => r.post('/api/team-members/invite-team-member').send({ email: users.invitee.user.email, role: 'viewer', id_project: f.id }),
  },
  {
    name: 'POST /team-members/cancel-invitation',
    need: 'manage_team',
    success: 200,
    prepare: pendingInvitation,
    call: (f) => (r) => r.post('/api/team-members/cancel-invitation').send({ id_project: f.id, id_user: users.invitee.user.id }),
  },
  {
    name: 'POST /join-requests/accept',
    need: 'manage_team',
    success: 200,
    prepare: pendingRequest,
    call: (f) => (r) => r.post('/api/join-requests/accept').send({ id_project: f.id, id_user: users.requester.user.id }),
  },
  {
    name: 'POST /join-requests/decline',
    need: 'manage_team',
    success: 200,
    prepare: pendingRequest,
    call: (f) => (r) => r.post('/api/join-requests/decline').send({ id_project: f.id, id_user: users.requester.user.id }),
  },
  {
    name: 'POST /team-members/transfer-ownership',
    need: 'manage',
    success: 200,
    call: (f) => (r) => r.post('/api/team-members/transfer-ownership').send({ id_project: f.id, id_user: users.target.user.id }),
  },
  // Projects
  { name: 'GET /projects/{id}', need: 'read', success: 200, call: (f) => (r) => r.get(`/api/projects/${f.id}`) },
  { name: 'PUT /projects/{id}', need: 'manage', success: 200, call: (f) => (r) => r.put(`/api/projects/${f.id}`).send({ description: 'changed' }) },
  { name: 'DELETE /projects/{id}', need: 'manage', success: 200, call: (f) => (r) => r.delete(`/api/projects/${f.id}`) },
  { name: 'POST /projects/star', need: 'read', success: 200, call: (f) => (r) => r.post('/api/projects/star').send({ id_project: f.id, starred: true }) },
  ...(['activate', 'deactivate', 'validate', 'invalidate'] as const).map(
    (action): Case => ({ name: `POST /projects/${action}/{id}`, need: 'super_admin', success: 200, call: (f) => (r) => r.post(`/api/projects/${action}/${f.id}`) }),
  ),
  { name: 'POST /projects/{id}/cover', need: 'manage', success: 200, call: (f) => (r) => r.post(`/api/projects/${f.id}/cover`).attach('file', png, 'cover.png') },
  { name: 'DELETE /projects/{id}/cover/delete', need: 'manage', success: 200, call: (f) => (r) => r.delete(`/api/projects/${f.id}/cover/delete`) },
  { name: 'POST /projects/{id}/pdf-sheet', need: 'upload', success: 202, call: (f) => (r) => r.post(`/api/projects/${f.id}/pdf-sheet`).attach('file', pdf, 'plans.pdf') },
  { name: 'DELETE /projects/{id}/pdf-sheet/delete', need: 'edit', success: 200, call: (f) => (r) => r.delete(`/api/projects/${f.id}/pdf-sheet/delete`) },
  { name: 'GET /categories?id_project', need: 'read', success: 200, call: (f) => (r) => r.get('/api/categories').query({ id_project: f.id }) },
  { name: 'POST /categories/assign', need: 'manage', success: 200, call: (f) => (r) => r.post('/api/categories/assign').send({ id_category: f.categoryId, id_project: f.id }) },
  { name: 'POST /categories/remove', need: 'manage', success: 200, call: (f) => (r) => r.post('/api/categories/remove').send({ id_category: f.categoryId, id_project: f.id }) },
];

/** Runs one call per caller, each on its own fresh project; returns the mismatches. */
async function runCase(c: Case, actors: ActorName[] = ACTORS) {
  const wrong: string[] = [];
  for (const actor of actors) {
    const f = await fixture();
    await c.prepare?.(f);
    const res = await c.call(f)(api()).set(auth(actor));
    const want = expected(actor, c.need, c.success);
    if (res.status !== want) wrong.push(`${actor}: ${res.status} (wanted ${want}) ${res.body?.message ?? ''}`);
    else if (res.status >= 400) expect(res.body.message, `${c.name} as ${actor}`).toMatch(/\w/);
  }
  return wrong;
}

describe('access matrix: teams and projects × every kind of caller', () => {
  for (const c of CASES) {
    it(`${c.name} (${c.need})`, async () => {
      expect(await runCase(c)).toEqual([]);
    });
  }

  it('POST /team-members/leave-project: members leave; the owner cannot; an outsider gets 404', async () => {
    const want: Record<ActorName, number> = {
      anonymous: 401,
      outsider: 404,
      guest: 200,
      viewer: 200,
      upload: 200,
      edit: 200,
      manage_snags: 200,
      manage_team: 200,
      project_admin: 200,
      owner: 400,
      // A super admin sees every project but is not in its team.
      super_admin: 400,
    };
    for (const actor of ACTORS) {
      const f = await fixture();
      const res = await api().post('/api/team-members/leave-project').set(auth(actor)).send({ id_project: f.id });
      expect(res.status, `${actor}: ${res.body.message}`).toBe(want[actor]);
    }
  });

  it('POST /join-requests/send: outsiders (and super admins) may ask, the team is told it is already in, and an inactive project is unknown to all', async () => {
    for (const actor of ACTORS) {
      const f = await fixture();
      const res = await api().post('/api/join-requests/send').set(auth(actor)).send({ project_code: f.code });
      const want = actor === 'anonymous' ? 401 : actor === 'outsider' || actor === 'super_admin' ? 201 : 409;
      expect(res.status, `${actor}: ${res.body.message}`).toBe(want);
      const inactive = await fixture({ active: false });
      const hidden = await api().post('/api/join-requests/send').set(auth(actor)).send({ project_code: inactive.code });
      expect(hidden.status, actor).toBe(actor === 'anonymous' ? 401 : 404);
    }
  });

  it("invitations answer only to the invited person: everyone else, super admins included, gets 404", async () => {
    for (const path of ['accept', 'decline'] as const) {
      for (const actor of ACTORS) {
        const f = await fixture();
        await pendingInvitation(f);
        const inv = await db()('invitations').where({ kind: 'project', id_project: f.id }).first('id');
        const res = await api().post(`/api/users/invitations/${path}/${inv.id}`).set(auth(actor));
        expect(res.status, `${path} as ${actor}`).toBe(actor === 'anonymous' ? 401 : 404);
        const own = await api().post(`/api/users/invitations/${path}/${inv.id}`).set(users.invitee.auth);
        expect(own.status).toBe(200);
      }
    }
  });

  it('GET /users/invitations lists only your own', async () => {
    const f = await fixture();
    await pendingInvitation(f);
    const mine = await api().get('/api/users/invitations').set(users.invitee.auth);
    expect(mine.body.data.map((i: { project: { id: number } }) => i.project.id)).toContain(f.id);
    for (const actor of ACTORS.filter((a) => a !== 'anonymous')) {
      const theirs = await api().get('/api/users/invitations').set(auth(actor));
      expect(theirs.status).toBe(200);
      expect(theirs.body.data.map((i: { project: { id: number } }) => i.project.id)).not.toContain(f.id);
    }
    expect((await api().get('/api/users/invitations')).status).toBe(401);
  });

  it('GET /projects and /showcase: the list shows the project to its team and super admins only; the showcase to anybody', async () => {
    const f = await fixture();
    for (const actor of ACTORS) {
      const list = await api().get('/api/projects').query({ per_page: 100, search: '' }).set(auth(actor));
      if (actor === 'anonymous') {
        expect(list.status).toBe(401);
        continue;
      }
      const scope = actor === 'super_admin' ? 'all' : 'mine';
      const scoped = await api().get('/api/projects').query({ per_page: 100, scope, sort: 'created_at' }).set(auth(actor));
      const ids = scoped.body.data.items.map((p: { id: number }) => p.id);
      expect(ids.includes(f.id), actor).toBe(actor !== 'outsider');
      const show = await api().get('/api/showcase').query({ project_code: f.code }).set(auth(actor));
      expect(show.status).toBe(200);
    }
  });
});
