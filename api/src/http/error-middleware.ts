import type { Context, Next } from 'koa';
import { HTTP_DEFAULTS, MESSAGES } from '@sitewalk/proto';
import { ValidationError, NotFoundError, UniqueViolationError, ForeignKeyViolationError, NotNullViolationError, CheckViolationError, DataError } from 'objection';
import { HttpError, ServiceUnavailableError } from '@sitewalk/core/errors.js';
import { classifyDependencyError, RETRY_AFTER_SECONDS, type ClassifyHints } from '@sitewalk/core/dependency-errors.js';
import { config } from '@sitewalk/core/config.js';
import { createLogThrottle } from '@sitewalk/core/log-throttle.js';
import { envelope } from './envelope.js';

interface Mapped {
  status: number;
  message: string;
  details?: unknown;
}

const portOf = (url: string, fallback: number): number | undefined => {
  try {
    return Number(new URL(url).port || fallback);
  } catch {
    return undefined;
  }
};
let hints: ClassifyHints | null = null;
const dependencyHints = (): ClassifyHints =>
  (hints ??= { databasePort: portOf(config.databaseUrl, 5432), redisPort: portOf(config.redisUrl, 6379) });

/**
 * A database or Redis that is briefly away (restart, failover, full pool)
 * becomes ServiceUnavailableError: 503 with Retry-After, never 500. The one
 * place where connection-level errors are recognised.
 */
export function toServiceUnavailable(err: unknown): ServiceUnavailableError | null {
  if (err instanceof ServiceUnavailableError) return err;
  if (err instanceof HttpError) return null;
  const found = classifyDependencyError(err, dependencyHints());
  return found ? new ServiceUnavailableError(MESSAGES.serviceBrieflyUnavailable, RETRY_AFTER_SECONDS, found.dependency) : null;
}

// While a dependency is away every request fails alike: one log line per dependency per 10 s is enough.
const unavailableLog = createLogThrottle(10_000);

/** Maps every error to a status and a message for people; never leaks SQL or stacks. */
export function mapError(err: unknown): Mapped {
  const unavailable = toServiceUnavailable(err);
  if (unavailable) return { status: 503, message: unavailable.message, details: unavailable.details };
  if (err instanceof HttpError) return { status: err.status, message: err.message, details: err.details };
  if (err instanceof ValidationError) return { status: 400, message: err.message || HTTP_DEFAULTS[400] };
  if (err instanceof NotFoundError) return { status: 404, message: HTTP_DEFAULTS[404] };
  if (err instanceof UniqueViolationError) return { status: 409, message: HTTP_DEFAULTS[409] };
  if (err instanceof ForeignKeyViolationError) return { status: 409, message: 'This refers to something that does not exist or is still in use.' };
  if (err instanceof NotNullViolationError || err instanceof CheckViolationError || err instanceof DataError) {
    return { status: 400, message: HTTP_DEFAULTS[400] };
  }
  const e = err as { status?: number; statusCode?: number; expose?: boolean; message?: string; code?: string };
  const status = e.status ?? e.statusCode;
  // Errors of koa / koa-body / formidable: body too large, bad JSON, aborted upload.
  if (e.code === 'LIMIT_FILE_SIZE' || status === 413 || /maxFileSize|maxTotalFileSize|too large/i.test(e.message ?? '')) {
    return { status: 413, message: HTTP_DEFAULTS[413] };
  }
  if (status === 415) return { status: 415, message: HTTP_DEFAULTS[415] };
  if (status && status >= 400 && status < 500) {
    const message = status === 400 && /JSON|body/i.test(e.message ?? '') ? 'The request body is not valid JSON.' : (HTTP_DEFAULTS[status] ?? HTTP_DEFAULTS[400]);
    return { status, message };
  }
  if (typeof (err as { httpCode?: number }).httpCode === 'number') {
    const c = (err as { httpCode: number }).httpCode;
    if (c >= 400 && c < 500) return { status: c === 413 ? 413 : 400, message: HTTP_DEFAULTS[c === 413 ? 413 : 400] };
  }
  return { status: 500, message: HTTP_DEFAULTS[500] };
}

/** The one error middleware: every failure becomes an envelope with a person-readable message. */
export async function errorMiddleware(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
    if (ctx.status === 404 && ctx.body === undefined && ctx.path.startsWith('/api')) {
      ctx.status = 404;
      ctx.body = envelope('error', 'This address does not exist.', null);
    }
  } catch (err) {
    const mapped = mapError(err);
    const log = ctx.state.log ?? console;
    if (mapped.status === 503) {
      const dependency = err instanceof ServiceUnavailableError ? err.dependency : (toServiceUnavailable(err)?.dependency ?? 'unknown');
      const t = unavailableLog.hit(dependency);
      if (t.log) log.warn({ err: (err as Error)?.message, dependency, suppressed: t.suppressed }, 'answered 503: a dependency is unavailable');
    } else if (mapped.status >= 500) log.error({ err }, 'request failed');
    else log.info({ status: mapped.status, msg: mapped.message }, 'request refused');
    ctx.status = mapped.status;
    if (mapped.status === 429 || mapped.status === 503) {
      const retry = (mapped.details as { retry_after?: number } | undefined)?.retry_after ?? (mapped.status === 503 ? RETRY_AFTER_SECONDS : undefined);
      if (retry) ctx.set('Retry-After', String(retry));
    }
    ctx.body = envelope('error', mapped.message, answerData(mapped));
  }
}

/** What an error answer carries besides its message: the checks that failed (400), or which plan limit refused it (so the client can say it in the reader's language). */
function answerData(mapped: { status: number; details?: unknown }): unknown {
  if (mapped.status === 400 && mapped.details) return { issues: sanitizeIssues(mapped.details) };
  const planLimit = (mapped.details as { plan_limit?: unknown } | undefined)?.plan_limit;
  if (mapped.status === 403 && planLimit) return { plan_limit: planLimit };
  return null;
}

function sanitizeIssues(details: unknown): unknown {
  if (!Array.isArray(details)) return undefined;
  return details.slice(0, 20).map((i: { path?: unknown[]; message?: string }) => ({ path: i.path, message: i.message }));
}
