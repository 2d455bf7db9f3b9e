import type { Job } from 'bullmq';
import { JOB_NAMES, JOB_POLICIES, type JobName, type JobOf, type QueueName } from '@sitewalk/proto';

/** What a handler gets: the validated payload and the BullMQ job (for progress). */
export type Handler<N extends JobName> = (data: JobOf<N>, job: Job<JobOf<N>>) => Promise<unknown>;
export type HandlerTable = { [N in JobName]: Handler<N> };

/**
 * Jobs of the registry with no handler, among the jobs of the given queues
 * (all queues when none are given). A process refuses to serve a queue when
 * any of its jobs has none.
 */
export function missingHandlers(table: Partial<Record<JobName, unknown>>, queues?: readonly QueueName[]): JobName[] {
  return JOB_NAMES.filter((n) => (!queues || queues.includes(JOB_POLICIES[n].queue)) && typeof table[n] !== 'function');
}
