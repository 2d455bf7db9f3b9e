import { HTTP_DEFAULTS } from '@sitewalk/proto';

/** A domain error that maps to an HTTP status; its message is shown to people. */
export class HttpError extends Error {
  constructor(
    public readonly status: number,
    message?: string,
    public readonly details?: unknown,
  ) {
    super(message ?? HTTP_DEFAULTS[status] ?? 'Error');
  }
}

export const badRequest = (message?: string, details?: unknown) => new HttpError(400, message, details);
export const unauthorized = (message?: string) => new HttpError(401, message);
export const forbidden = (message?: string) => new HttpError(403, message);
export const notFound = (message?: string) => new HttpError(404, message);
export const conflict = (message?: string) => new HttpError(409, message);
export const payloadTooLarge = (message?: string) => new HttpError(413, message);
export const unsupportedMedia = (message?: string) => new HttpError(415, message);
export const unprocessable = (message?: string) => new HttpError(422, message);
export const tooManyRequests = (message?: string, retryAfterSec?: number) =>
  new HttpError(429, message, retryAfterSec ? { retry_after: retryAfterSec } : undefined);

/**
 * A dependency (database, Redis) is briefly away: 503 with Retry-After. The
 * request was fine; the same request a little later will work.
 */
export class ServiceUnavailableError extends HttpError {
  constructor(
    message: string,
    public readonly retryAfterSec: number,
    public readonly dependency: string = 'unknown',
  ) {
    super(503, message, { retry_after: retryAfterSec });
  }
}
