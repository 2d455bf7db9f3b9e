import type { Context, Next } from 'koa';
import { z } from 'zod';
import { badRequest, notFound } from '@sitewalk/core/errors.js';

/** Turns a zod error into one sentence a person can act on. */
export function describeZodError(err: z.ZodError, noun = 'field'): string {
  const issue = err.issues[0];
  if (!issue) return 'The request is not valid.';
  const field = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    return `Unknown ${noun}${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return `${field || 'A value'} is required.`;
  }
  const msg = issue.message.replace(/^Invalid input: /, '');
  const lower = msg.toLowerCase();
  if (!field || lower.includes(field.toLowerCase()) || lower.includes(field.toLowerCase().replace(/_/g, ' '))) return msg;
  // Messages written for people already name the field.
  if (/^[A-Z]/.test(msg) && !msg.startsWith('Invalid input') && !msg.startsWith('Too') && !msg.startsWith('Expected')) return msg;
  return `${field}: ${msg}`;
}

export function parseWith<S extends z.ZodTypeAny>(schema: S, input: unknown, noun = 'field'): z.infer<S> {
  // reportInput: without it zod 4 reports a wrong type as a missing value.
  const r = schema.safeParse(input, { reportInput: true });
  if (!r.success) throw badRequest(describeZodError(r.error, noun), r.error.issues);
  return r.data;
}

const strictCopies = new WeakMap<z.ZodTypeAny, z.ZodTypeAny>();

/**
 * The one rule for query strings, whatever the schema says: a key the route
 * does not know is refused (400 naming it), never silently ignored — a typo
 * such as ?serach= would otherwise return an unfiltered list.
 */
function strictQuery<S extends z.ZodTypeAny>(schema: S): S {
  if (!(schema instanceof z.ZodObject)) return schema;
  let strict = strictCopies.get(schema);
  if (!strict) strictCopies.set(schema, (strict = schema.strict()));
  return strict as unknown as S;
}

/** Validates the JSON or form body. */
export const body = <S extends z.ZodTypeAny>(ctx: Context, schema: S): z.infer<S> =>
  parseWith(schema, (ctx.request as { body?: unknown }).body ?? {});

/** Validates the query string. */
export const query = <S extends z.ZodTypeAny>(ctx: Context, schema: S): z.infer<S> => parseWith(strictQuery(schema), ctx.query, 'query parameter');

/** A positive integer route parameter; anything else is a 404 (no such object). */
export function idParam(ctx: Context, name = 'id'): number {
  const raw = (ctx.params as Record<string, string>)[name];
  if (!raw || !/^\d{1,9}$/.test(raw) || Number(raw) === 0) throw notFound();
  return Number(raw);
}

/**
 * Text no database column can hold: a NUL byte (PostgreSQL text refuses it) or
 * half of a UTF-16 surrogate pair (not a character at all; jsonb refuses it).
 */
// Without the u flag the pattern sees UTF-16 code units: a high half not followed by a low one, or a low one alone.
const UNREADABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const isUnreadableText = (s: string): boolean => UNREADABLE.test(s);

/**
 * The first place in a parsed query or body (keys included) holding unreadable
 * text, as a dotted path; null when all is well. Walks with its own stack, so a
 * deeply nested body cannot overflow the call stack.
 */
export function findUnreadableText(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (isUnreadableText(v)) return at;
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        const here = at ? `${at}.${k}` : k;
        if (isUnreadableText(k)) return at || 'a field name';
        stack.push([child, here]);
      }
    }
  }
  return null;
}

/** Refuses with 400 when `value` holds unreadable text; `what` names where it came from. */
export function assertReadableText(value: unknown, what: 'field' | 'query parameter'): void {
  const at = findUnreadableText(value);
  if (at === null) return;
  const name = at ? ` "${at}"` : '';
  throw badRequest(
    `The ${what}${name} contains a character that cannot be stored (a NUL byte or a broken Unicode character). Remove it and try again.`,
  );
}

/**
 * The one edge check of every request (registered once in app.ts, after the
 * body parser): query strings, JSON and form bodies, and the path must be
 * text the database can store, so no route ever passes a NUL byte or a lone
 * surrogate on to PostgreSQL. Multipart fields get the same check in upload.ts.
 */
export async function rejectUnreadableText(ctx: Context, next: Next): Promise<void> {
  if (ctx.path.startsWith('/api')) {
    let path = ctx.path;
    try {
      path = decodeURIComponent(ctx.path);
    } catch {
      // A malformed escape is left to the router, which answers 404.
    }
    if (isUnreadableText(path)) throw badRequest('The address contains a character that is not allowed.');
    if (ctx.querystring) assertReadableText(ctx.query, 'query parameter');
    assertReadableText((ctx.request as { body?: unknown }).body, 'field');
  }
  return next();
}
