import type { HandlerTable } from '../registry.js';

/**
 * One handler per job of the registry in proto/src/jobs.ts. Each is
 * idempotent: running it twice for the same payload has the effect of once.
 */
export const handlers: HandlerTable = {} as HandlerTable;
