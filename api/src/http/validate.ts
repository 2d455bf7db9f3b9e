import type { Context } from 'koa';
import { z } from 'zod';
import { badRequest, notFound } from '../core/errors.js';

/** Turns a zod error into one sentence a person can act on. */
export function describeZodError(err: z.ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'The request is not valid.';
  const field = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return `${field || 'A value'} is required.`;
  }
  const msg = issue.message.replace(/^Invalid input: /, '');
  if (!field || msg.toLowerCase().includes(field.toLowerCase().replace(/_/g, ' '))) return msg;
  // Messages written for people already name the field.
  if (/^[A-Z]/.test(msg) && !msg.startsWith('Invalid input') && !msg.startsWith('Too') && !msg.startsWith('Expected')) return msg;
  return `${field}: ${msg}`;
}

export function parseWith<S extends z.ZodTypeAny>(schema: S, input: unknown): z.infer<S> {
  // reportInput: without it zod 4 reports a wrong type as a missing value.
  const r = schema.safeParse(input, { reportInput: true });
  if (!r.success) throw badRequest(describeZodError(r.error), r.error.issues);
  return r.data;
}

/** Validates the JSON or form body. */
export const body = <S extends z.ZodTypeAny>(ctx: Context, schema: S): z.infer<S> =>
  parseWith(schema, (ctx.request as { body?: unknown }).body ?? {});

/** Validates the query string. */
export const query = <S extends z.ZodTypeAny>(ctx: Context, schema: S): z.infer<S> => parseWith(schema, ctx.query);

/** A positive integer route parameter; anything else is a 404 (no such object). */
export function idParam(ctx: Context, name = 'id'): number {
  const raw = (ctx.params as Record<string, string>)[name];
  if (!raw || !/^\d{1,9}$/.test(raw) || Number(raw) === 0) throw notFound();
  return Number(raw);
}
