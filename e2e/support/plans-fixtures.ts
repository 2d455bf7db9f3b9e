import type { Plan, PlanMember } from '@sitewalk/proto';
import { api } from '../../api/test/helpers.js';
import { createUser, uniqueName, type TestUser } from './backend.js';

/**
 * A subscription plan given to `owner` (by the administrator `admin`) with
 * one member who has an account: what the plan screens and the phone check
 * open.
 */
export async function planWithMember(admin: TestUser, owner: TestUser): Promise<{ plan: Plan; member: PlanMember; colleague: TestUser }> {
  const created = await api().post('/api/plans').set(admin.auth).send({ name: uniqueName('Plan'), price: 99, period: 'month', member_slots: 3, max_projects: 20 });
  if (created.status !== 201) throw new Error(`plan not created: ${created.status} ${JSON.stringify(created.body)}`);
  const plan = created.body.data as Plan;
  const sub = await api().post(`/api/plans/${plan.id}/subscriptions`).set(admin.auth).send({ user: owner.user.username, expires_at: '2099-12-31' });
  if (sub.status !== 201) throw new Error(`plan not given: ${sub.status} ${JSON.stringify(sub.body)}`);
  const colleague = await createUser();
  const invited = await api().post('/api/plan-members/invite').set(owner.auth).send({ email: colleague.user.email });
  if (invited.status !== 201) throw new Error(`member not invited: ${invited.status} ${JSON.stringify(invited.body)}`);
  // Nobody joins a plan without saying yes.
  const accepted = await api().post(`/api/plan-members/${invited.body.data.id}/accept`).set(colleague.auth);
  if (accepted.status !== 200) throw new Error(`invitation not accepted: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return { plan, member: accepted.body.data as PlanMember, colleague };
}
