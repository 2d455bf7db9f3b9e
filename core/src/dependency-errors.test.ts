import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { KnexTimeoutError } from 'knex';
import { DBError, UniqueViolationError } from 'objection';
import { Redis } from 'ioredis';
import { classifyDependencyError } from './dependency-errors.js';

/**
 * A loopback port nothing listens on. Not one taken from the OS and let go:
 * a test file running alongside may be handed that same port for a server of
 * its own before the connection is tried. Port 1 (tcpmux) lies below the
 * range the OS hands out, and no service of a machine that runs SiteWalk
 * listens there.
 */
const CLOSED_PORT = 1;

// Objection's typings omit the constructors of its database errors; they take one options object.
const wrapped = (C: unknown, args: object): Error => new (C as new (a: object) => Error)(args);
const pgError = (code: string, message: string) => Object.assign(new pg.DatabaseError(message, message.length, 'error'), { code });

describe('classifyDependencyError', () => {
  it('recognises a PostgreSQL that does not listen (a real refused connection)', async () => {
    const port = CLOSED_PORT;
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    const err = await client.connect().then(() => null, (e: unknown) => e);
    expect(classifyDependencyError(err, { databasePort: port })).toEqual({ dependency: 'database', reason: 'ECONNREFUSED' });
    // Without the port hint it is still unavailable, only of unknown origin.
    expect(classifyDependencyError(err)).toEqual({ dependency: 'unknown', reason: 'ECONNREFUSED' });
  });

  it('recognises a Redis command given up after the reconnect attempts (a real MaxRetriesPerRequestError)', async () => {
    const port = CLOSED_PORT;
    const client = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 0, retryStrategy: () => 10 });
    client.on('error', () => undefined);
    const err = await client.get('x').then(() => null, (e: unknown) => e);
    client.disconnect();
    expect(classifyDependencyError(err)).toEqual({ dependency: 'redis', reason: 'MaxRetriesPerRequestError' });
  });

  it.each([
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection because of crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
    ['08006', 'connection failure'],
  ])('recognises PostgreSQL %s (%s)', (code, message) => {
    expect(classifyDependencyError(pgError(code, message))).toEqual({ dependency: 'database', reason: code });
  });

  it('looks through the wrappers of Objection and of `cause`', () => {
    const inner = pgError('57P01', 'terminating connection due to administrator command');
    expect(classifyDependencyError(wrapped(DBError, { nativeError: inner, client: 'postgres' }))?.dependency).toBe('database');
    expect(classifyDependencyError(new Error('query failed', { cause: inner }))?.dependency).toBe('database');
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6390'), { code: 'ECONNREFUSED', port: 6390 });
    expect(classifyDependencyError(new AggregateError([refused], 'all failed'), { redisPort: 6390 })).toEqual({ dependency: 'redis', reason: 'ECONNREFUSED' });
  });

  it('recognises a full pool (knex acquire timeout) and a connection cut under a query', () => {
    expect(classifyDependencyError(new KnexTimeoutError('Knex: Timeout acquiring a connection. The pool is probably full.'))).toEqual({
      dependency: 'database',
      reason: 'pool acquire timeout',
    });
    expect(classifyDependencyError(new Error('Connection terminated unexpectedly'))?.dependency).toBe('database');
    // knex puts the statement in front of the driver's message.
    expect(classifyDependencyError(new Error('select 1 - Connection terminated unexpectedly'))?.dependency).toBe('database');
    expect(classifyDependencyError(new Error('Connection is closed.'))?.dependency).toBe('redis');
  });

  it('leaves everything else alone: bugs and bad input are not "try again later"', () => {
    expect(classifyDependencyError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeNull();
    expect(classifyDependencyError(pgError('22P02', 'invalid input syntax for type integer'))).toBeNull();
    expect(classifyDependencyError(pgError('42P01', 'relation "x" does not exist'))).toBeNull();
    expect(classifyDependencyError(wrapped(UniqueViolationError, { nativeError: pgError('23505', 'duplicate key'), client: 'postgres', table: 't', columns: ['c'], constraint: 'k' }))).toBeNull();
    expect(classifyDependencyError(null)).toBeNull();
    expect(classifyDependencyError('ECONNREFUSED')).toBeNull();
  });

  it('does not loop on an error that wraps itself', () => {
    const e = new Error('odd') as Error & { cause?: unknown };
    e.cause = e;
    expect(classifyDependencyError(e)).toBeNull();
  });
});
