import type { Knex } from 'knex';
import { SETTINGS_DEFAULTS } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { dayInZone } from './plan-expiry-rules.js';
import { settingValue } from '../repositories/settings.repository.js';

/**
 * Today (YYYY-MM-DD) where the site is (setting `timezone`): the one "today"
 * of snag due dates and their overdue flag, the overdue reminders, plan
 * limits and plan expiry. Never the server's own zone: near midnight the two
 * are different days, and the snag list and the reminder must agree.
 */
export async function siteToday(k: Knex = db(), now: Date = new Date()): Promise<string> {
  const zone = await settingValue(k, 'timezone');
  return dayInZone(now, typeof zone === 'string' && zone ? zone : SETTINGS_DEFAULTS.timezone);
}
