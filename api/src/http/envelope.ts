import type { Context } from 'koa';
import type { Envelope } from '@sitewalk/proto';

/** The one place the response envelope {status, message, data} is built. */
export function envelope<T>(status: Envelope['status'], message: string, data: T | null): Envelope<T> {
  return { status, message, data };
}

/** Answers success with data. */
export function ok<T>(ctx: Context, data: T, message = 'OK', httpStatus = 200): void {
  ctx.status = httpStatus;
  ctx.body = envelope('success', message, data);
}

export function created<T>(ctx: Context, data: T, message = 'Created'): void {
  ok(ctx, data, message, 201);
}
