import { z } from 'zod';

/** One signed-in device of the account (GET /sessions). */
export const accountSessionSchema = z.object({
  id: z.number().int().positive(),
  /** Browser and system in words, from the user agent ("Chrome 131 on Windows"); "Unknown device" when it says nothing. */
  device: z.string(),
  /** The address the session last signed in or refreshed from. */
  ip: z.string().nullable(),
  /** ISO time of the last request, or of the sign-in when none since. */
  last_used_at: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  /** The session of this very request. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;
