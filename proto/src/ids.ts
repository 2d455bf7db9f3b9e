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
