import { z } from 'zod';

/**
 * The self-hosted captcha (ALTCHA), issue 24 items 2 and 8: captcha_login /
 * captcha_register ask every sign-in / registration for it, and an address
 * with a few failed sign-ins is asked for it too.
 */

/**
 * The ALTCHA widget's payload (base64 of the challenge and its solution), as
 * the form field `altcha` carries it. Checked by the server before anything else.
 */
export const captchaSolutionSchema = z.string().trim().min(1, 'Solve the captcha first: tick "I\'m not a robot" and wait for the check mark.').max(8_000, 'The captcha answer is not valid. Solve the captcha again.');
