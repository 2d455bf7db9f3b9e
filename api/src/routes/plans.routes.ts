import {
  planCreateSchema,
  planInviteSchema,
  planMemberUpdateSchema,
  planUpdateSchema,
  subscriptionCreateSchema,
  subscriptionUpdateSchema,
  type Plan,
  type PlanDetail,
  type PlanMember,
  type PlanMembersView,
  type PlanSubscription,
} from '@sitewalk/proto';
import { currentUser, requireAuth, requireSuperAdmin } from '../http/auth.js';
import { created, ok } from '../http/envelope.js';
import { body, idParam } from '../http/validate.js';
import { createPlan, deletePlan, getPlan, listPlans, updatePlan } from '@sitewalk/core/services/plans.service.js';
import { cancelSubscription, createSubscription, updateSubscription } from '@sitewalk/core/services/subscriptions.service.js';
import {
  acceptInvitation,
  declineInvitation,
  getMember,
  inviteMember,
  myPlanInvitations,
  planMembersOf,
  removeMember,
  updateMember,
} from '@sitewalk/core/services/plan-members.service.js';
import type { RouteModule } from './types.js';

/** Subscription plans, their subscriptions and members (contract in proto/src/plans.ts). */
const plansRoutes: RouteModule = (r) => {
  const admin = [requireAuth, requireSuperAdmin] as const;
  r.get('/plans', ...admin, async (ctx) => {
    ok<Plan[]>(ctx, await listPlans());
  });
  r.post('/plans', ...admin, async (ctx) => {
    created<Plan>(ctx, await createPlan(body(ctx, planCreateSchema)), 'Plan created successfully!');
  });
  r.get('/plans/:id', ...admin, async (ctx) => {
    ok<PlanDetail>(ctx, await getPlan(idParam(ctx)));
  });
  r.put('/plans/:id', ...admin, async (ctx) => {
    const id = idParam(ctx);
    ok<Plan>(ctx, await updatePlan(id, body(ctx, planUpdateSchema)), 'Plan updated successfully!');
  });
  r.delete('/plans/:id', ...admin, async (ctx) => {
    ok(ctx, await deletePlan(idParam(ctx)), 'Plan deleted successfully!');
  });
  r.post('/plans/:id/subscriptions', ...admin, async (ctx) => {
    const id = idParam(ctx);
    created<PlanSubscription>(ctx, await createSubscription(id, body(ctx, subscriptionCreateSchema)), 'The user has the plan now.');
  });
  r.put('/plan-subscriptions/:id', ...admin, async (ctx) => {
    const id = idParam(ctx);
    ok<PlanSubscription>(ctx, await updateSubscription(id, body(ctx, subscriptionUpdateSchema)), 'Subscription updated.');
  });
  r.delete('/plan-subscriptions/:id', ...admin, async (ctx) => {
    ok(ctx, await cancelSubscription(idParam(ctx)), 'Subscription cancelled.');
  });

  r.get('/plan-members', requireAuth, async (ctx) => {
    ok<PlanMembersView>(ctx, await planMembersOf(currentUser(ctx)));
  });
  r.post('/plan-members/invite', requireAuth, async (ctx) => {
    const { email } = body(ctx, planInviteSchema);
    const member = await inviteMember(currentUser(ctx), email);
    created<PlanMember>(ctx, member, `An invitation was sent to ${email}.`);
  });
  r.get('/plan-members/invitations', requireAuth, async (ctx) => {
    ok<PlanMember[]>(ctx, await myPlanInvitations(currentUser(ctx)));
  });
  r.post('/plan-members/:id/accept', requireAuth, async (ctx) => {
    const member = await acceptInvitation(currentUser(ctx), idParam(ctx));
    ok<PlanMember>(ctx, member, `You joined the plan "${member.plan_name}".`);
  });
  r.post('/plan-members/:id/decline', requireAuth, async (ctx) => {
    ok(ctx, await declineInvitation(currentUser(ctx), idParam(ctx)), 'Invitation declined.');
  });
  r.get('/plan-members/:id', requireAuth, async (ctx) => {
    ok<PlanMember>(ctx, await getMember(currentUser(ctx), idParam(ctx)));
  });
  r.put('/plan-members/:id', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const { role } = body(ctx, planMemberUpdateSchema);
    ok<PlanMember>(ctx, await updateMember(currentUser(ctx), id, role), 'Member updated.');
  });
  r.delete('/plan-members/:id', requireAuth, async (ctx) => {
    ok(ctx, await removeMember(currentUser(ctx), idParam(ctx)), 'Removed from the plan.');
  });
};

export default plansRoutes;
