import { createChallenge, randomInt, verifySolution, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { z } from 'zod';
import { config } from '../config.js';
import { HttpError, badRequest } from '../errors.js';
import { redis } from '../redis.js';
import { hmac } from '../secrets.js';

/**
 * The self-hosted captcha (issue 24 item 2): ALTCHA proof of work. The
 * server hands out challenges signed with keys derived from the app secret;
 * the browser's widget finds the answer (about a second of work for a person,
 * costly for a bot sending thousands); the server checks the signature and
 * the answer, and remembers each solved challenge in Redis until it expires,
 * so an answer works once. Nothing goes to a third party.
 */

const ALGORITHM = 'PBKDF2/SHA-256';
/** How long a challenge may be solved and sent. */
export const CAPTCHA_TTL_SEC = 10 * 60;

// Separate keys for the challenge's signature and the answer's, both derived from the app secret.
const signatureSecret = () => hmac('altcha-challenge-signature');
const keySignatureSecret = () => hmac('altcha-key-signature');

/** The sentences the API answers with (the client translates them). */
export const CAPTCHA_MESSAGES = {
  missing: 'Solve the captcha first: tick "I\'m not a robot" and wait for the check mark.',
  invalid: 'The captcha answer is not valid. Solve the captcha again.',
  expired: 'The captcha has expired. Solve it again.',
  replayed: 'This captcha answer was already used. Solve the captcha again.',
} as const;

/** 428: the form must be sent again with a solved captcha (the client then shows the widget). */
export const captchaRequired = () => new HttpError(428, CAPTCHA_MESSAGES.missing);

/** A fresh signed challenge, as the ALTCHA widget fetches it. */
export async function newCaptchaChallenge(): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: config.captchaCost,
    // Deterministic mode: the server picks the answer's counter and signs the derived key, so checking is one HMAC.
    counter: randomInt(Math.ceil(config.captchaMaxCounter / 5), config.captchaMaxCounter),
    deriveKey,
    expiresAt: Math.floor(Date.now() / 1000) + CAPTCHA_TTL_SEC,
    hmacSignatureSecret: signatureSecret(),
    hmacKeySignatureSecret: keySignatureSecret(),
  });
}

const payloadSchema = z.object({
  challenge: z.object({
    parameters: z
      .object({
        algorithm: z.literal(ALGORITHM),
        nonce: z.string().regex(/^[0-9a-f]{2,128}$/),
        salt: z.string().regex(/^[0-9a-f]{2,128}$/),
        cost: z.number().int().positive(),
        keyLength: z.number().int().positive().max(64),
        keyPrefix: z.string().max(128),
        keySignature: z.string().max(256).optional(),
        expiresAt: z.number().optional(),
      })
      .passthrough(),
    signature: z.string().max(256),
  }),
  solution: z.object({ counter: z.number(), derivedKey: z.string().max(256), time: z.number().optional() }),
});

function decode(payload: string): z.infer<typeof payloadSchema> | null {
  try {
    const r = payloadSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64').toString('utf8')));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/**
 * Checks a solved captcha and spends it: 428 when missing, 400 with a
 * sentence when altered, expired or already used. Call it before anything
 * else of the request (before the password is even looked at).
 */
export async function verifyCaptcha(payload: string | undefined): Promise<void> {
  if (!payload) throw captchaRequired();
  const decoded = decode(payload);
  if (!decoded) throw badRequest(CAPTCHA_MESSAGES.invalid);
  const result = await verifySolution({
    challenge: decoded.challenge as Challenge,
    solution: decoded.solution,
    deriveKey,
    hmacSignatureSecret: signatureSecret(),
    hmacKeySignatureSecret: keySignatureSecret(),
  }).catch(() => null);
  if (result?.expired) throw badRequest(CAPTCHA_MESSAGES.expired);
  if (!result?.verified) throw badRequest(CAPTCHA_MESSAGES.invalid);
  // Single use: the first request to record the challenge's nonce wins, until the challenge would expire anyway.
  const expiresAt = decoded.challenge.parameters.expiresAt ?? Math.floor(Date.now() / 1000) + CAPTCHA_TTL_SEC;
  const ttl = Math.max(1, Math.ceil(expiresAt - Date.now() / 1000));
  const fresh = await redis().set(`${config.redisPrefix}:captcha-used:${decoded.challenge.parameters.nonce}`, '1', 'EX', ttl, 'NX');
  if (fresh !== 'OK') throw badRequest(CAPTCHA_MESSAGES.replayed);
}
