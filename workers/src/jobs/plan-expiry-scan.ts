import { scanPlanExpiry } from '@sitewalk/core/services/plan-expiry.service.js';
import type { Handler } from '../registry.js';

/** The daily plan-expiry scan (idempotent: the notices table keeps each notice to one). */
export const planExpiryScan: Handler<'plan.expiry-scan'> = async (data) => scanPlanExpiry(data.date);
