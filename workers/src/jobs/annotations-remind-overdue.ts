import { sendOverdueReminders } from '@sitewalk/core/services/annotation-notifications.service.js';
import { siteToday } from '@sitewalk/core/services/site-today.js';
import { logger } from '@sitewalk/core/logger.js';
import type { Handler } from '../registry.js';

/** The daily overdue-snag reminder: one notification per person per day (the rule lives in the core service). */
export const annotationsRemindOverdue: Handler<'annotations.remind-overdue'> = async (data, job) => {
  const day = data.day ?? (await siteToday());
  const reminded = await sendOverdueReminders(day);
  logger.info({ job: job.name, day, reminded: reminded.length }, 'overdue reminders sent');
  return { day, reminded };
};
