import type { Job } from 'bullmq';
import { JOB_NAMES, type JobName, type JobOf } from '@sitewalk/proto';

/** What a handler gets: the validated payload and the BullMQ job (for progress). */
export type Handler<N extends JobName> = (data: JobOf<N>, job: Job<JobOf<N>>) => Promise<unknown>;
export type HandlerTable = { [N in JobName]: Handler<N> };

/** Jobs of the registry with no handler; the process refuses to start when any. */
export function missingHandlers(table: Partial<Record<JobName, unknown>>): JobName[] {
  return JOB_NAMES.filter((n) => typeof table[n] !== 'function');
}
