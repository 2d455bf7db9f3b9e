import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { KnexTimeoutError } from 'knex';
import { HTTP_DEFAULTS, MESSAGES } from '@sitewalk/proto';
import { HttpError, ServiceUnavailableError } from '@sitewalk/core/errors.js';
import { mapError } from './error-middleware.js';

const pgError = (code: string, message: string) => Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code });

describe('mapError: a dependency that is briefly away', () => {
  it('answers 503 with the retry delay and a message for people, for the database and for Redis', () => {
    for (const err of [
      pgError('57P01', 'terminating connection due to administrator command'),
      new KnexTimeoutError('Knex: Timeout acquiring a connection. The pool is probably full.'),
      Object.assign(new Error('Reached the max retries per request limit (which is 2).'), { name: 'MaxRetriesPerRequestError' }),
    ]) {
      expect(mapError(err)).toEqual({ status: 503, message: MESSAGES.serviceBrieflyUnavailable, details: { retry_after: 2 } });
    }
  });

  it('keeps a ServiceUnavailableError as it is, and every other error as before', () => {
    expect(mapError(new ServiceUnavailableError('Maintenance until noon.', 600))).toEqual({ status: 503, message: 'Maintenance until noon.', details: { retry_after: 600 } });
    expect(mapError(new HttpError(404))).toMatchObject({ status: 404, message: HTTP_DEFAULTS[404] });
    expect(mapError(new TypeError('x is undefined'))).toEqual({ status: 500, message: HTTP_DEFAULTS[500] });
    expect(mapError(pgError('22P02', 'invalid input syntax for type integer')).status).not.toBe(503);
  });
});
