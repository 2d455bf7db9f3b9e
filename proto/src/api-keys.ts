import { z } from 'zod';

/** What a personal API key may do: read only (GET), or read and change like its owner. */
export const API_KEY_SCOPES = ['read', 'read-write'] as const;
export const apiKeyScopeSchema = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof apiKeyScopeSchema>;

/** The header other tools may send a key in, besides `Authorization: Bearer`. */
export const API_KEY_HEADER = 'x-api-key';

/** The settings' site-wide key (api_key) is an administrator's text: shorter than this it could be guessed, and is refused. */
export const SITE_API_KEY_MIN_LENGTH = 20;

/** Keys an account may hold at once (revoked ones do not count). */
export const API_KEYS_PER_USER = 20;

/** POST /api-keys: a name that says which tool uses the key, and what it may do. */
export const apiKeyCreateSchema = z
  .object({
    name: z
      .string({ error: 'Give the key a name.' })
      .trim()
      .min(1, 'Give the key a name.')
      .max(100, 'The name of a key has at most 100 characters.'),
    scope: z.enum(API_KEY_SCOPES, { error: 'The scope of a key is "read" or "read-write".' }),
  })
  .strict()
  .meta({ examples: [{ name: 'Site reports export', scope: 'read' }] });
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

/** One personal API key as its owner sees it (never the key itself). */
export const apiKeySchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    scope: apiKeyScopeSchema,
    /** The first characters of the key (sw_ and 12 hex digits), to tell keys apart. */
    prefix: z.string(),
    last_used_at: z.string().nullable(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
  })
  .meta({
    examples: [
      {
        id: 3,
        name: 'Site reports export',
        scope: 'read',
        prefix: 'sw_4f1c2a9b7e01',
        last_used_at: '2026-11-29T08:15:00.000Z',
        created_at: '2026-11-20T10:00:00.000Z',
        revoked_at: null,
      },
    ],
  });
export type ApiKey = z.infer<typeof apiKeySchema>;

/** POST /api-keys answers the new key in full, this one time. */
export const apiKeyCreatedSchema = apiKeySchema.extend({ key: z.string() }).meta({
  examples: [
    {
      id: 3,
      name: 'Site reports export',
      scope: 'read',
      prefix: 'sw_4f1c2a9b7e01',
      last_used_at: null,
      created_at: '2026-11-29T08:15:00.000Z',
      revoked_at: null,
      key: 'sw_4f1c2a9b7e01_pX3m0b9QkzF2c1tYh8wq5rVj6nLd4sAeGiUoK7yTzM0',
    },
  ],
});
export type ApiKeyCreated = z.infer<typeof apiKeyCreatedSchema>;

/** The form of a personal key: sw_, 12 hex digits (the lookup part), _, 43 base64url characters (256 random bits). */
export const PERSONAL_API_KEY_PATTERN = /^sw_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;
