import { logger } from '../logger.js';
import { notify, notifySuperAdmins, type NotifyInput } from './notifications.service.js';
import { getSettings } from './settings.service.js';

/** The settings that copy a plan notice to super admins. */
type AdminTrigger = 'notify_plan_changes' | 'notify_plan_cancels' | 'notify_useradd';

/**
 * Tells the person concerned by a plan change (their "plan" preference
 * decides in-app and e-mail), and super admins too when the setting
 * `trigger` is on. Best effort: the change is made either way; false when
 * the notice could not be queued.
 */
export async function tellAboutPlan(userId: number, input: NotifyInput, key: string, trigger: AdminTrigger | null): Promise<boolean> {
  try {
    await notify(userId, input, { key: `${key}-u${userId}` });
    if (trigger && (await getSettings())[trigger]) await notifySuperAdmins({ ...input, link: '/plans' }, { key: `${key}-admins` });
    return true;
  } catch (err) {
    logger.error({ err, key }, 'could not send a plan notification');
    return false;
  }
}
