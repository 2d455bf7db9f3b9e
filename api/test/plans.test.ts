import { describe, expect, it } from 'vitest';
import { api, createUser, uniqueName, type TestUser } from './helpers.js';
import { queuedMails } from './mail-jobs.js';

async function newPlan(admin: TestUser, over: Record<string, unknown> = {}) {
  const res = await api().post('/api/plans').set(admin.auth).send({ name: uniqueName('Plan'), price: 49.5, period: 'month', member_slots: 2, max_projects: 10, ...over });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number; name: string };
}

async function subscribe(admin: TestUser, planId: number, owner: TestUser, expires_at = '2099-12-31') {
  const res = await api().post(`/api/plans/${planId}/subscriptions`).set(admin.auth).send({ user: owner.user.username, expires_at });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: number };
}

const profile = (u: TestUser) => api().get(`/api/users/${u.user.id}/profile`).set(u.auth);

describe('plans', () => {
  it('lets administrators create, read, change and delete plans, refusing a duplicate name and a plan in use', async () => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const plan = await newPlan(admin, { name: 'Team Pro', currency: 'eur', max_storage_mb: 5000, max_video_minutes: null });
    const read = await api().get(`/api/plans/${plan.id}`).set(admin.auth);
    expect(read.body.data).toMatchObject({ name: 'Team Pro', price: 49.5, currency: 'EUR', period: 'month', member_slots: 2, max_projects: 10, max_storage_mb: 5000, max_video_minutes: null, active: true, subscribers: 0, subscriptions: [] });
    expect((await api().get('/api/plans').set(admin.auth)).body.data.some((p: { id: number }) => p.id === plan.id)).toBe(true);

    const dup = await api().post('/api/plans').set(admin.auth).send({ name: 'team pro', price: 1, period: 'year', member_slots: 0 });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A plan named "team pro" already exists.');
    expect((await api().post('/api/plans').set(admin.auth).send({ name: ' ', price: 1, period: 'year', member_slots: 0 })).body.message).toBe('Plan name is required');
    expect((await api().post('/api/plans').set(admin.auth).send({ name: 'X', price: 1, period: 'week', member_slots: 0 })).status).toBe(400);
    expect((await api().post('/api/plans').set(admin.auth).send({ name: 'X', price: 1.001, period: 'year', member_slots: 0 })).status).toBe(400);

    const changed = await api().put(`/api/plans/${plan.id}`).set(admin.auth).send({ price: 59, period: 'year' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ price: 59, period: 'year' });
    expect((await api().put(`/api/plans/${plan.id}`).set(admin.auth).send({})).status).toBe(400);

    const sub = await subscribe(admin, plan.id, owner, '2030-06-30');
    const inUse = await api().delete(`/api/plans/${plan.id}`).set(admin.auth);
    expect(inUse.status).toBe(409);
    expect(inUse.body.message).toMatch(/has 1 subscriber/);
    expect((await api().get(`/api/plans/${plan.id}`).set(admin.auth)).body.data.subscriptions).toMatchObject([{ id: sub.id, owner: { id: owner.user.id }, expires_at: '2030-06-30', slots_used: 0 }]);
    expect((await api().post(`/api/plans/${plan.id}/subscriptions`).set(admin.auth).send({ user: owner.user.email, expires_at: '2031-01-01' })).status).toBe(409);
    expect((await api().post(`/api/plans/${plan.id}/subscriptions`).set(admin.auth).send({ user: 'nobody-here', expires_at: '2031-01-01' })).status).toBe(404);
    expect((await api().put(`/api/plan-subscriptions/${sub.id}`).set(admin.auth).send({ expires_at: '2031-01-31' })).body.data.expires_at).toBe('2031-01-31');

    expect((await api().delete(`/api/plan-subscriptions/${sub.id}`).set(admin.auth)).status).toBe(200);
    expect((await api().delete(`/api/plans/${plan.id}`).set(admin.auth)).status).toBe(200);
    expect((await api().get(`/api/plans/${plan.id}`).set(admin.auth)).status).toBe(404);
  });

  it('lets a plan owner invite people into the free slots and remove them; the profile load shows plan, slots and members', async () => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const colleague = await createUser();
    const outsider = await createUser();
    const plan = await newPlan(admin, { member_slots: 2 });
    await subscribe(admin, plan.id, owner);

    const colleagueEmail = colleague.user.email.toLowerCase();
    const invited = await api().post('/api/plan-members/invite').set(owner.auth).send({ email: colleagueEmail.toUpperCase() });
    expect(invited.status).toBe(201);
    const stranger = `new_${uniqueName()}@example.test`;
    const pending = await api().post('/api/plan-members/invite').set(owner.auth).send({ email: stranger });
    expect(pending.status).toBe(201);
    // The same answer whether the address has an account or not: no id, no name.
    for (const [res, email] of [[invited, colleagueEmail], [pending, stranger]] as const) {
      expect(res.body.data).toMatchObject({ status: 'invited', id_user: null, user: null, email, role: 'member', plan_name: plan.name });
      expect(res.body.message).toBe(`An invitation was sent to ${email}.`);
    }
    const mails = await queuedMails(stranger);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toMatch(/\/register/);
    // The colleague is not in the plan until they accept.
    expect((await profile(colleague)).body.data.plan_info).toBeNull();
    const waiting = await api().get('/api/plan-members/invitations').set(colleague.auth);
    expect(waiting.body.data).toMatchObject([{ id: invited.body.data.id, plan_name: plan.name, status: 'invited' }]);
    expect((await api().post(`/api/plan-members/${invited.body.data.id}/accept`).set(outsider.auth)).status).toBe(404);
    const accepted = await api().post(`/api/plan-members/${invited.body.data.id}/accept`).set(colleague.auth);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data).toMatchObject({ status: 'active', id_user: colleague.user.id });
    expect((await api().post(`/api/plan-members/${invited.body.data.id}/accept`).set(colleague.auth)).status).toBe(404);

    const full = await api().post('/api/plan-members/invite').set(owner.auth).send({ email: outsider.user.email });
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('All 2 member slot(s) of your plan are in use. Remove someone or move to a larger plan.');

    const load = await profile(owner);
    expect(load.status).toBe(200);
    expect(load.body.data.plan_info).toMatchObject({ id_plan: plan.id, name: plan.name, price: 49.5, is_owner: true, expired: false, expires_at: '2099-12-31', max_projects: 10 });
    expect(load.body.data.plan_slot).toEqual({ total: 2, used: 2, free: 0 });
    expect(load.body.data.plan_members.id_owner).toBe(owner.user.id);
    expect(load.body.data.plan_members.members.map((m: { id_user: number }) => m.id_user)).toEqual([colleague.user.id]);
    expect(load.body.data.plan_members.invites.map((m: { email: string }) => m.email)).toEqual([stranger]);
    // The member sees the plan they belong to.
    const theirs = await profile(colleague);
    expect(theirs.body.data.plan_info).toMatchObject({ name: plan.name, is_owner: false, role: 'member' });
    expect((await profile(outsider)).body.data).toMatchObject({ plan_info: null, plan_slot: null, plan_members: { members: [], invites: [], id_owner: null } });

    // Somebody else's membership does not exist for an outsider; members may not invite.
    const memberId = invited.body.data.id;
    expect((await api().get(`/api/plan-members/${memberId}`).set(outsider.auth)).status).toBe(404);
    expect((await api().delete(`/api/plan-members/${memberId}`).set(outsider.auth)).status).toBe(404);
    expect((await api().post('/api/plan-members/invite').set(outsider.auth).send({ email: 'a@example.test' })).status).toBe(404);
    expect((await api().get(`/api/plan-members/${memberId}`).set(colleague.auth)).status).toBe(200);
    expect((await api().put(`/api/plan-members/${memberId}`).set(colleague.auth).send({ role: 'manager' })).status).toBe(404);
    expect((await api().put(`/api/plan-members/${memberId}`).set(owner.auth).send({ role: 'boss' })).status).toBe(400);
    expect((await api().put(`/api/plan-members/${memberId}`).set(admin.auth).send({ role: 'manager' })).body.data.role).toBe('manager');
    expect((await api().post('/api/plan-members/invite').set(owner.auth).send({ email: 'not-an-email' })).status).toBe(400);

    // The owner removes the pending invitation; the freed slot takes someone new.
    expect((await api().delete(`/api/plan-members/${pending.body.data.id}`).set(owner.auth)).status).toBe(200);
    const later = await api().post('/api/plan-members/invite').set(owner.auth).send({ email: outsider.user.email });
    expect(later.status).toBe(201);
    expect((await api().post(`/api/plan-members/${later.body.data.id}/accept`).set(outsider.auth)).status).toBe(200);
    // A member leaves by themself.
    expect((await api().delete(`/api/plan-members/${memberId}`).set(colleague.auth)).status).toBe(200);
    expect((await profile(colleague)).body.data.plan_info).toBeNull();
    expect((await api().get('/api/plan-members').set(owner.auth)).body.data.members.map((m: { id_user: number }) => m.id_user)).toEqual([outsider.user.id]);
  });

  it('lets someone who registers after the invitation accept or decline it; nobody joins without saying yes', async () => {
    const admin = await createUser({ super_admin: true });
    const owner = await createUser();
    const plan = await newPlan(admin, { member_slots: 3 });
    await subscribe(admin, plan.id, owner);
    const username = uniqueName();
    const email = `${username.toLowerCase()}@example.test`;
    const invite = await api().post('/api/plan-members/invite').set(owner.auth).send({ email });
    expect(invite.body.data.status).toBe('invited');
    const newcomer = await createUser({ username });
    expect((await profile(newcomer)).body.data.plan_info).toBeNull();
    expect((await api().get('/api/plan-members').set(owner.auth)).body.data).toMatchObject({ members: [], invites: [{ email, status: 'invited', id_user: null }] });
    expect((await api().post(`/api/plan-members/${invite.body.data.id}/accept`).set(newcomer.auth)).status).toBe(200);
    expect((await profile(newcomer)).body.data.plan_info).toMatchObject({ name: plan.name, is_owner: false });
    expect((await api().get('/api/plan-members').set(owner.auth)).body.data).toMatchObject({ invites: [], members: [{ id_user: newcomer.user.id, status: 'active' }] });

    const other = await createUser();
    const second = await api().post('/api/plan-members/invite').set(owner.auth).send({ email: other.user.email });
    const declined = await api().post(`/api/plan-members/${second.body.data.id}/decline`).set(other.auth);
    expect(declined.status).toBe(200);
    expect((await api().get('/api/plan-members/invitations').set(other.auth)).body.data).toEqual([]);
    expect((await api().get('/api/plan-members').set(owner.auth)).body.data.invites).toEqual([]);
  });
});
