import type { Job } from 'bullmq';

/**
 * A key that names one job across its retries and stalls: what handlers
 * store to recognise work they already did. A custom job id names an event
 * and is used as is; BullMQ's own numeric ids start again at 1 when Redis
 * loses its data, so they are joined with the job's creation time.
 */
export function jobKey(job: Pick<Job, 'id' | 'name' | 'timestamp'>): string {
  const id = String(job.id);
  return /^\d+$/.test(id) ? `${job.name}#${id}@${job.timestamp}` : `${job.name}#${id}`;
}
