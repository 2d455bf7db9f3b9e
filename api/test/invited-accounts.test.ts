import { afterAll, describe, expect, it } from 'vitest';
import { ACTIVATION_PATH, ACTIVATION_TTL_MS } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { closeQueues, enqueue, queue } from '@sitewalk/core/queue';
import { closeEmitter } from '@sitewalk/core/realtime/emitter.js';
import { settled, useOwnRedisPrefix, waitFor } from '../../workers/test/helpers.js';
import { useMailDelivery } from '../../workers/test/mail-delivery.js';
import { ensureSchedules } from '../../workers/src/schedules.js';
import { readMail, tokenLink } from '../../test/support/mime.js';
import { api, createUser, uniqueIp, uniqueName, type TestUser } from './helpers.js';
import { newProject } from './project-helpers.js';

/*
 * The inactive accounts that invitations to unknown e-mails make: they go
 * when their invitation expires (the users.purge-invited job, run here by
 * real workers on this file's own queues) or when their last pending
 * invitation is cancelled; people who activated or have anything of their
 * own stay.
 */

useOwnRedisPrefix('invited-accounts');
afterAll(async () => {
  await closeQueues();
  await closeEmitter();
});
const delivery = useMailDelivery({ queues: ['mail', 'notifications'], settings: { name: 'SiteWalk' } });

async function invite(owner: TestUser, projectId: number, email: string) {
  const res = await api().post('/api/team-members/invite-team-member').set(owner.auth).send({ email, role: 'viewer', id_project: projectId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (await db()('users').whereRaw('lower(email) = ?', [email]).first('id', 'active', 'invited_at')) as { id: number; active: boolean; invited_at: Date | null };
}

const cancel = (owner: TestUser, projectId: number, userId: number) =>
  api().post('/api/team-members/cancel-invitation').set(owner.auth).send({ id_project: projectId, id_user: userId });

const userExists = async (id: number) => !!(await db()('users').where({ id }).first('id'));

/** Moves an invitation and its link into the past, as if `ms` had gone by. */
async function age(userId: number, ms: number) {
  const back = (col: string) => db().raw(`${col} - (? * interval '1 millisecond')`, [ms]);
  await db()('users').where({ id: userId }).update({ invited_at: back('invited_at'), created_at: back('created_at') });
  await db()('user_tokens').where({ user_id: userId }).update({ expires_at: back('expires_at'), created_at: back('created_at') });
  await db()('invitations').where({ kind: 'project', id_user: userId }).update({ created_at: back('created_at') });
}

async function purge(): Promise<number> {
  const { state, job } = await settled(await enqueue('users.purge-invited', {}));
  expect(state).toBe('completed');
  return (job.returnvalue as { removed: number }).removed;
}

describe('invited accounts that are never activated', () => {
  it('go with their pending invitations once the invitation link has expired; younger ones and activated ones stay', async () => {
    const owner = await createUser();
    const project = await newProject(owner);
    const expired = await invite(owner, project.id, `${uniqueName('late')}@example.test`);
    const fresh = await invite(owner, project.id, `${uniqueName('fresh')}@example.test`);
    const activatedEmail = `${uniqueName('quick')}@example.test`;
    const activated = await invite(owner, project.id, activatedEmail);
    expect(expired).toMatchObject({ active: false });
    expect(expired.invited_at).not.toBeNull();

    // The third person opens their link and activates, then their invitation ages like the first.
    const [raw] = await waitFor(() => (delivery.sink.to(activatedEmail).length ? delivery.sink.to(activatedEmail) : null), 'the invitation mail');
    const link = tokenLink(readMail(raw.raw).text, ACTIVATION_PATH)!;
    const done = await api().post('/api/activate-account').set('X-Forwarded-For', uniqueIp()).send({ username: uniqueName('quick'), password: 'activated in time 1', token: link.token });
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    await age(expired.id, ACTIVATION_TTL_MS + 60_000);
    await age(activated.id, ACTIVATION_TTL_MS + 60_000);
    // Just inside the lifetime: kept.
    await age(fresh.id, ACTIVATION_TTL_MS - 60_000);

    expect(await purge()).toBeGreaterThanOrEqual(1);
    expect(await userExists(expired.id)).toBe(false);
    expect(await db()('invitations').where({ kind: 'project', id_user: expired.id }).first('id')).toBeUndefined();
    expect(await userExists(fresh.id)).toBe(true);
    expect(await userExists(activated.id)).toBe(true);
    const team = await api().get('/api/team-members').query({ id_project: project.id }).set(owner.auth);
    expect(team.status).toBe(200);
    expect(team.body.data.invitations.map((i: { id_user: number }) => i.id_user).sort()).toEqual([fresh.id, activated.id].sort());

    // A second run finds nothing more of these.
    await purge();
    expect(await userExists(fresh.id)).toBe(true);
  });

  it('keeps an expired invited account that has something of its own (a plan of its own)', async () => {
    const owner = await createUser();
    const project = await newProject(owner);
    const invited = await invite(owner, project.id, `${uniqueName('holder')}@example.test`);
    const [plan] = await db()('plans').insert({ name: uniqueName('Plan'), price: 1, period: 'month', member_slots: 0 }).returning('id');
    await db()('plan_subscriptions').insert({ id_plan: plan.id, id_owner: invited.id, expires_at: '2099-01-01' });
    await age(invited.id, ACTIVATION_TTL_MS + 60_000);
    await purge();
    expect(await userExists(invited.id)).toBe(true);
  });

  it('cancelling the last pending invitation removes the account and its link; an earlier cancel, or an existing user, keeps it', async () => {
    const owner = await createUser();
    const [a, b] = [await newProject(owner), await newProject(owner)];
    const email = `${uniqueName('twice')}@example.test`;
    const invited = await invite(owner, a.id, email);
    await invite(owner, b.id, email);
    const mails = await waitFor(() => (delivery.sink.to(email).length >= 2 ? delivery.sink.to(email) : null), 'the second invitation mail');
    const link = tokenLink(readMail(mails.at(-1)!.raw).text, ACTIVATION_PATH)!;

    expect((await cancel(owner, a.id, invited.id)).status).toBe(200);
    expect(await userExists(invited.id)).toBe(true);
    expect((await cancel(owner, b.id, invited.id)).status).toBe(200);
    expect(await userExists(invited.id)).toBe(false);
    // The mailed link no longer opens anything.
    const check = await api().get('/api/check-invitation-token').set('X-Forwarded-For', uniqueIp()).query({ token: link.token });
    expect(check.status).toBeGreaterThanOrEqual(400);
    expect(check.status).toBeLessThan(500);

    // Someone who already had an account is only uninvited.
    const colleague = await createUser();
    const again = await invite(owner, a.id, colleague.user.email);
    expect(again.id).toBe(colleague.user.id);
    expect((await cancel(owner, a.id, colleague.user.id)).status).toBe(200);
    expect(await userExists(colleague.user.id)).toBe(true);
  });

  it('is cleaned up by one hourly job scheduler per environment', async () => {
    await Promise.all([ensureSchedules(['notifications']), ensureSchedules(['notifications'])]);
    const mine = (await queue('notifications').getJobSchedulers()).filter((s) => s.key === 'users-purge-invited-hourly' || s.id === 'users-purge-invited-hourly');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ name: 'users.purge-invited', every: 3600_000 });
  });
});
