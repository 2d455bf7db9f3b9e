import type { z } from 'zod';

/**
 * Proto's zod schemas asked on the client, so a form shows the server's own
 * rule and message before anything is sent (the rule is written once, in proto).
 */

/** The first message `schema` gives for `value`, or null when it passes. */
export function schemaError(schema: z.ZodType, value: unknown): string | null {
  const r = schema.safeParse(value);
  return r.success ? null : (r.error.issues[0]?.message ?? null);
}
