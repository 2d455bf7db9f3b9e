import { z } from 'zod';

/** The answer shape of every /api call (SPEC §7 "Client handling of answers"). */
export interface Envelope<T = unknown> {
  status: 'success' | 'error';
  message: string;
  data: T | null;
}

export const envelopeSchema = <T extends z.ZodTypeAny>(data: T) =>
  z.object({
    status: z.enum(['success', 'error']),
    message: z.string(),
    data: data.nullable(),
  });

/** Paginated list payload used by list endpoints. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  per_page: number;
}

export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
}).strict();
