import { JOB_POLICIES, jobPayloads, type JobName, type QueueName } from '@sitewalk/proto';
import { queue } from '@sitewalk/core/queue';
import { getSettings } from '@sitewalk/core/services/settings.service.js';
import { logger } from '@sitewalk/core/logger.js';
import { PLAN_EXPIRY_CRON, PLAN_EXPIRY_SCHEDULER_ID } from '@sitewalk/core/services/plan-expiry.service.js';

/**
 * The repeating jobs. BullMQ job schedulers are kept in Redis under their id,
 * so every workers process may upsert them at start: however many run, each
 * environment (Redis prefix) has one scheduler per id, and one job per tick.
 */
export interface Schedule {
  id: string;
  job: JobName;
  /** A cron pattern in the site's timezone, or a period in ms. */
  repeat: { pattern: string } | { every: number };
}

export const SCHEDULES: readonly Schedule[] = [
  // Mornings, site time: the day's list of overdue snags.
  { id: 'annotations-remind-overdue-daily', job: 'annotations.remind-overdue', repeat: { pattern: '0 8 * * *' } },
  { id: 'annotations-exports-sweep-hourly', job: 'annotations.exports-sweep', repeat: { every: 3600_000 } },
  // Just after midnight, site time: plans that expire soon or today.
  { id: PLAN_EXPIRY_SCHEDULER_ID, job: 'plan.expiry-scan', repeat: { pattern: PLAN_EXPIRY_CRON } },
  // Invited accounts nobody activated go an hour or less after their invitation link expires.
  { id: 'users-purge-invited-hourly', job: 'users.purge-invited', repeat: { every: 3600_000 } },
  // Resumable video uploads abandoned half-way (a closed laptop never reopened) give their disk back.
  { id: 'video-uploads-sweep-hourly', job: 'video.uploads-sweep', repeat: { every: 3600_000 } },
];

/** Upserts the schedulers of the queues this process serves. */
export async function ensureSchedules(queues: readonly QueueName[]): Promise<string[]> {
  let tz = 'UTC';
  try {
    tz = (await getSettings()).timezone || 'UTC';
  } catch (err) {
    logger.warn({ err }, 'could not read the timezone setting; schedules use UTC');
  }
  const done: string[] = [];
  for (const s of SCHEDULES) {
    const policy = JOB_POLICIES[s.job];
    if (!queues.includes(policy.queue)) continue;
    await queue(policy.queue).upsertJobScheduler(s.id, 'pattern' in s.repeat ? { pattern: s.repeat.pattern, tz } : { every: s.repeat.every }, {
      name: s.job,
      data: jobPayloads[s.job].parse({}),
      opts: { attempts: policy.attempts, backoff: { type: 'exponential', delay: policy.backoffMs }, removeOnComplete: { age: 7 * 24 * 3600 }, removeOnFail: { age: 30 * 24 * 3600 } },
    });
    done.push(s.id);
  }
  return done;
}
