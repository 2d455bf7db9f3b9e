import type { Knex } from 'knex';

/** A connection or a transaction: what every query of a service runs on. */
export type Db = Knex | Knex.Transaction;

/** A timestamp column as the API shows it (ISO 8601, UTC). */
export const iso = (d: Date | string) => new Date(d).toISOString();

/** A nullable timestamp column as the API shows it: ISO 8601, or null. */
export const isoOrNull = (d: Date | string | null | undefined): string | null => (d ? iso(d) : null);

/** Whether a query failed with this PostgreSQL error code (objection wraps the driver's error as nativeError). */
export const isPgError = (err: unknown, code: string): boolean =>
  (err as { code?: string }).code === code || (err as { nativeError?: { code?: string } }).nativeError?.code === code;

/** A unique index refused the row (23505). */
export const isUniqueViolation = (err: unknown): boolean => isPgError(err, '23505');

/** A foreign key refused the change (23503), e.g. a row that others still point to. */
export const isForeignKeyViolation = (err: unknown): boolean => isPgError(err, '23503');
