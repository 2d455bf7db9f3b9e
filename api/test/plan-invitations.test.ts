import { describe, expect, it } from 'vitest';
import { api, createUser, uniqueName, type TestUser } from './helpers.js';

/*
 * Plan invitations on the invitation model teams use: one waiting per
 * address, answered once, taken back by the owner; the API shows an
 * invitation and the membership it becomes under one id.
 */

async function ownerOfPlan(slots: number): Promise<TestUser> {
  const admin = await createUser({ super_admin: true });
  const owner = await createUser();
  const plan = await api().post('/api/plans').set(admin.auth).send({ name: uniqueName('Plan'), price: 10, period: 'month', member_slots: slots });
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  const sub = await api().post(`/api/plans/${plan.body.data.id}/subscriptions`).set(admin.auth).send({ user: owner.user.username, expires_at: '2099-12-31' });
  expect(sub.status, JSON.stringify(sub.body)).toBe(201);
  return owner;
}

const invite = (owner: TestUser, email: string) => api().post('/api/plan-members/invite').set(owner.auth).send({ email });
const slots = async (owner: TestUser) => (await api().get(`/api/users/${owner.user.id}/profile`).set(owner.auth)).body.data.plan_slot;

describe('plan invitations', () => {
  it('the role an owner gives a waiting invitation is the role the person joins with, under the same id', async () => {
    const owner = await ownerOfPlan(2);
    const colleague = await createUser();
    const invited = await invite(owner, colleague.user.email);
    const id = invited.body.data.id;
    const changed = await api().put(`/api/plan-members/${id}`).set(owner.auth).send({ role: 'manager' });
    expect(changed.body.data).toMatchObject({ id, status: 'invited', role: 'manager' });
    const joined = await api().post(`/api/plan-members/${id}/accept`).set(colleague.auth);
    expect(joined.body.data).toMatchObject({ id, status: 'active', role: 'manager', id_user: colleague.user.id, email: colleague.user.email });
    expect((await api().get(`/api/plan-members/${id}`).set(colleague.auth)).body.data).toMatchObject({ id, status: 'active' });
    // A manager may invite.
    expect((await invite(colleague, `${uniqueName('friend')}@example.test`)).status).toBe(201);
  });

  it('one invitation waits per address, a member is not invited twice, and an address declined or taken back may be invited again', async () => {
    const owner = await ownerOfPlan(3);
    const colleague = await createUser();
    const first = await invite(owner, colleague.user.email);
    expect(first.status).toBe(201);
    const again = await invite(owner, colleague.user.email.toUpperCase());
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`${colleague.user.email.toLowerCase()} is already invited to your plan.`);

    // Taken back: the slot is free, and the invitation cannot be accepted any more.
    expect((await api().delete(`/api/plan-members/${first.body.data.id}`).set(owner.auth)).status).toBe(200);
    expect(await slots(owner)).toEqual({ total: 3, used: 0, free: 3 });
    expect((await api().get('/api/plan-members/invitations').set(colleague.auth)).body.data).toEqual([]);
    expect((await api().post(`/api/plan-members/${first.body.data.id}/accept`).set(colleague.auth)).status).toBe(404);
    expect((await api().get(`/api/plan-members/${first.body.data.id}`).set(owner.auth)).status).toBe(404);

    // Declined: the same.
    const second = await invite(owner, colleague.user.email);
    expect(second.status).toBe(201);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect((await api().post(`/api/plan-members/${second.body.data.id}/decline`).set(colleague.auth)).status).toBe(200);
    expect((await api().post(`/api/plan-members/${second.body.data.id}/decline`).set(colleague.auth)).status).toBe(404);
    expect((await api().post(`/api/plan-members/${second.body.data.id}/accept`).set(colleague.auth)).status).toBe(404);
    expect(await slots(owner)).toEqual({ total: 3, used: 0, free: 3 });

    // Accepted: a member's address is not invited again until they leave.
    const third = await invite(owner, colleague.user.email);
    expect((await api().post(`/api/plan-members/${third.body.data.id}/accept`).set(colleague.auth)).status).toBe(200);
    expect((await invite(owner, colleague.user.email)).status).toBe(409);
    expect(await slots(owner)).toEqual({ total: 3, used: 1, free: 2 });
    expect((await api().delete(`/api/plan-members/${third.body.data.id}`).set(colleague.auth)).status).toBe(200);
    const fourth = await invite(owner, colleague.user.email);
    expect(fourth.status).toBe(201);
    expect((await api().get('/api/plan-members').set(owner.auth)).body.data).toMatchObject({ members: [], invites: [{ id: fourth.body.data.id, status: 'invited' }] });
  });
});
