import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { api, uniqueIp } from './helpers.js';

/**
 * Solves the site's captcha as the ALTCHA widget does in a browser: fetch a
 * challenge, find the answer, send base64 of {challenge, solution} as the
 * form field `altcha`.
 */
export async function solvedCaptcha(ip = uniqueIp()): Promise<string> {
  const res = await api().get('/api/captcha/challenge').set('X-Forwarded-For', ip);
  if (res.status !== 200) throw new Error(`No captcha challenge: ${res.status} ${JSON.stringify(res.body)}`);
  const challenge = res.body as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('The captcha could not be solved.');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
