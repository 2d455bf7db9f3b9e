import { JOB_POLICIES, PLAN_EXPIRY_NOTICE_DAYS, notice, type NoticeText } from '@sitewalk/proto';
import { startWaitingPlans } from './billing.service.js';
import { db } from '../db/index.js';
import { claimPlanNotice, subscriptionsExpiringBetween } from '../repositories/plans.repository.js';
import { queue } from '../queue/index.js';
import { logger } from '../logger.js';
import { notify, notifySuperAdmins, type NotifyInput } from './notifications.service.js';
import { getSettings } from './settings.service.js';
import { EXPIRED_NOTICE_WINDOW_DAYS, addDays, dayInZone, noticeDue, type ExpiryNotice } from './plan-expiry-rules.js';

/** The id of the one daily scheduler (workers/src/schedules.ts); upserting it again replaces it, never adds one. */
export const PLAN_EXPIRY_SCHEDULER_ID = 'plan-expiry-daily';
/** Ten past midnight in the site's time zone: the day has changed everywhere the notices speak of. */
export const PLAN_EXPIRY_CRON = '10 0 * * *';


export interface ExpiryScanResult {
  date: string;
  expiring: number;
  expired: number;
}

const TEXT: Record<ExpiryNotice, (plan: string, day: string, left: number) => NoticeText & { type: string }> = {
  expiring: (plan, day, left) => ({ ...notice('planExpiring', { plan, day: { day }, n: left }), type: 'info' }),
  expired: (plan, day) => ({ ...notice('planExpired', { plan, day: { day } }), type: 'error' }),
};

/**
 * The daily scan: for each subscription whose expiry is near or just past,
 * the notice due today goes to its owner (their "plan" preference decides
 * in-app and e-mail) and, when notify_plan_expiring / notify_plan_expires
 * is on, to super admins. The notice row is written in the same transaction
 * that queues the notification, and its key (subscription, kind, expiry
 * date) is unique: a second scan the same day, or a concurrent one, sends
 * nothing more; a renewal (a new expiry date) gets its own notices.
 */
export async function scanPlanExpiry(date?: string): Promise<ExpiryScanResult> {
  const settings = await getSettings();
  const today = date ?? dayInZone(new Date(), settings.timezone);
  const k = db();
  // A plan bought while another ran starts the day that one ends.
  await startWaitingPlans(today, k);
  const subs = await subscriptionsExpiringBetween(k, addDays(today, -EXPIRED_NOTICE_WINDOW_DAYS), addDays(today, PLAN_EXPIRY_NOTICE_DAYS));
  const result: ExpiryScanResult = { date: today, expiring: 0, expired: 0 };
  for (const s of subs) {
    const kind = noticeDue(s.expires_at, today, PLAN_EXPIRY_NOTICE_DAYS);
    if (!kind) continue;
    const sent = await k.transaction(async (trx) => {
      if (!(await claimPlanNotice(trx, s.id, kind, s.expires_at))) return false;
      const left = Math.max(0, Math.round((Date.parse(s.expires_at) - Date.parse(today)) / 86_400_000));
      const input: NotifyInput = { kind: 'plan', ...TEXT[kind](s.plan, s.expires_at, left), link: '/profile' };
      const key = `plan-${kind}-${s.id}-${s.expires_at}`;
      await notify(s.id_owner, input, { key });
      const trigger = kind === 'expiring' ? settings.notify_plan_expiring : settings.notify_plan_expires;
      if (trigger) await notifySuperAdmins({ ...input, link: '/plans' }, { key: `${key}-admins` });
      return true;
    });
    if (sent) result[kind] += 1;
  }
  logger.info(result, 'plan expiry scan');
  return result;
}
