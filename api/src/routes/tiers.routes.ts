import {
  checkUpgradeSchema,
  tierCreateSchema,
  tierLookupSchema,
  tierUpdateSchema,
  usageCurrentQuerySchema,
  usageYearlyQuerySchema,
  type Tier,
  type TierAdminStats,
  type TierUsageMonth,
  type TierUsageYear,
  type UpgradeCheck,
} from '@sitewalk/proto';
import { currentUser, requireAuth, requireSuperAdmin } from '../http/auth.js';
import { created, ok } from '../http/envelope.js';
import { body, idParam, query } from '../http/validate.js';
import { adminStats, checkUpgrade, createTier, deleteTier, findTier, getTier, listTiers, updateTier, usageCurrent, usageYearly } from '@sitewalk/core/services/tiers.service.js';
import type { RouteModule } from './types.js';

const thisMonth = () => {
  const d = new Date();
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 };
};

/** Project tiers (contract in proto/src/tiers.ts). The fixed paths come before /project-tiers/:id. */
const tiersRoutes: RouteModule = (r) => {
  const admin = [requireAuth, requireSuperAdmin] as const;
  r.post('/project-tiers/find-tier', requireAuth, async (ctx) => {
    ok<Tier>(ctx, await findTier(body(ctx, tierLookupSchema)));
  });
  r.post('/project-tiers/check-upgrade', requireAuth, async (ctx) => {
    const input = body(ctx, checkUpgradeSchema);
    ok<UpgradeCheck>(ctx, await checkUpgrade(currentUser(ctx), input));
  });
  r.get('/project-tiers/usage/current', requireAuth, async (ctx) => {
    const q = query(ctx, usageCurrentQuerySchema);
    const now = thisMonth();
    ok<TierUsageMonth>(ctx, await usageCurrent(currentUser(ctx), q.year ?? now.year, q.month ?? now.month));
  });
  r.get('/project-tiers/usage/yearly', requireAuth, async (ctx) => {
    const q = query(ctx, usageYearlyQuerySchema);
    ok<TierUsageYear>(ctx, await usageYearly(currentUser(ctx), q.year ?? thisMonth().year));
  });
  r.get('/project-tiers/admin/stats', ...admin, async (ctx) => {
    ok<TierAdminStats>(ctx, await adminStats());
  });

  r.get('/project-tiers', requireAuth, async (ctx) => {
    ok<Tier[]>(ctx, await listTiers());
  });
  r.post('/project-tiers', ...admin, async (ctx) => {
    created<Tier>(ctx, await createTier(body(ctx, tierCreateSchema)), 'Tier created successfully!');
  });
  r.get('/project-tiers/:id', requireAuth, async (ctx) => {
    ok<Tier>(ctx, await getTier(idParam(ctx)));
  });
  r.put('/project-tiers/:id', ...admin, async (ctx) => {
    const id = idParam(ctx);
    ok<Tier>(ctx, await updateTier(id, body(ctx, tierUpdateSchema)), 'Tier updated successfully!');
  });
  r.delete('/project-tiers/:id', ...admin, async (ctx) => {
    ok(ctx, await deleteTier(idParam(ctx)), 'Tier deleted successfully!');
  });
};

export default tiersRoutes;
