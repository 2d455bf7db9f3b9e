import { z } from 'zod';

/** The largest id PostgreSQL's integer columns hold. */
export const MAX_ID = 2_147_483_647;

/**
 * An id in a body or a query string: a positive whole number, given as a
 * number or as digits — never coerced from anything else (true is not 1, an
 * empty text is not 0). A missing one reads "<field> is required.".
 */
const id = (message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v) : v),
    z.number({ message }).int(message).positive(message).max(MAX_ID, message),
  );

export const idField = id('Use the id number.');

/** The same, with a message that names the field (for forms where the field is not obvious). */
export const idOf = (field: string) => id(`${field} must be an id number.`);

/** A whole number in a query string (digits), with a message people understand. */
export const queryInt = (field: string, min: number, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d{1,9}$/.test(v.trim()) ? Number(v) : v),
    z.number({ message: `${field} must be a whole number.` }).int(`${field} must be a whole number.`).min(min, `${field} must be at least ${min}.`).max(max, `${field} must be at most ${max}.`),
  );

/** A query-string boolean (true/false or 1/0) named `field` in its error message. */
export const queryBoolean = (field: string) =>
  z.enum(['true', 'false', '1', '0'], { message: `${field} must be true or false.` }).transform((v) => v === 'true' || v === '1');
