import { z } from 'zod';
import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import { formMessages } from '@sitewalk/proto';
import { changedValues, hasChanges, type ChangeState } from '../../lib/changed-fields';
import { tk } from '../../lib/i18n-keys';

/**
 * The rules of the generic edit form (SPEC §4 "Generic edit form", §5, §8
 * "Forms" and the post-delete redirects of §2), free of React so they are
 * unit-tested on their own. The hook in use-edit-form.ts applies them; the
 * field rules are proto's request schemas (requestRules).
 */

/** The editable entity kinds of SPEC §3, by their label in the SPEC §8 messages. */
export type EditEntity = 'Project' | 'Visit' | 'Sheet' | 'Plan' | 'User' | 'Company';

/** SPEC §2 "Post-delete redirects". */
export const POST_DELETE_REDIRECT: Record<EditEntity, string> = {
  Company: '/mycompany',
  Project: '/projects',
  Sheet: '/projects',
  Visit: '/visits',
  User: '/users',
  Plan: '/plans',
};

export type FieldErrors<V> = Partial<Record<keyof V & string, string | null>>;

const NOT_A_NUMBER = tk('Enter a number.');

/**
 * Proto's messages are the forms' messages; the one thing proto cannot say in
 * a person's words is a number field holding text that is no number (the
 * form sends NaN), so that is said here.
 */
const formIssueText = (issue: { code: string; expected?: unknown; input?: unknown }) =>
  issue.code === 'invalid_type' && issue.expected === 'number' && Number.isNaN(issue.input) ? NOT_A_NUMBER : undefined;

/**
 * The rules of an edit form, written once in proto: the form's values (as the
 * inputs hold them) become the request body (`toBody`) and proto's request
 * `schema` checks it. The body's keys are the form's field names, so each
 * message lands under its field. For react-hook-form (zodResolver).
 */
export function requestRules<V extends FieldValues>(
  toBody: (values: V) => unknown,
  schema: z.ZodType,
  /** A body key whose form field has another name (confirm → password_confirm). */
  fieldOf: Record<string, keyof V & string> = {},
): Resolver<V> {
  const formSchema = z.custom<V>().transform(toBody).pipe(schema);
  // raw: the form keeps its own values; only the messages are wanted.
  const check = zodResolver(formSchema, { error: formIssueText }, { raw: true }) as unknown as Resolver<V>;
  return async (values, context, options) => {
    const result = await check(values, context, options);
    const errors = Object.fromEntries(Object.entries(result.errors).map(([key, e]) => [fieldOf[key] ?? key, e]));
    return { ...result, errors } as typeof result;
  };
}

/** Several rule sets asked together (e.g. a user's account and, when one is set, the password); the first message of a field wins. */
export function allRules<V extends FieldValues>(...rules: Resolver<V>[]): Resolver<V> {
  return async (values, context, options) => {
    const results = await Promise.all(rules.map((r) => r(values, context, options)));
    const errors = Object.assign({}, ...results.map((r) => r.errors).reverse()) as Record<string, unknown>;
    return (Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} }) as Awaited<ReturnType<Resolver<V>>>;
  };
}

/** Rules asked only while `applies` holds for the values (a password only when one is set now). */
export function rulesWhen<V extends FieldValues>(applies: (values: V) => boolean, rules: Resolver<V>): Resolver<V> {
  return (values, context, options) => (applies(values) ? rules(values, context, options) : { values, errors: {} });
}

/** One message per field (the first), from react-hook-form's errors. */
export function fieldMessages<V>(errors: Partial<Record<string, { message?: unknown } | undefined>>): FieldErrors<V> {
  const out: Record<string, string> = {};
  for (const [field, e] of Object.entries(errors)) if (e && typeof e.message === 'string' && e.message) out[field] = e.message;
  return out as FieldErrors<V>;
}

export type SavePlan<V> =
  | { kind: 'create'; values: V }
  | { kind: 'update'; id: number; changes: Partial<V> }
  /** An existing record with nothing changed: nothing to send. */
  | { kind: 'none' };

/**
 * SPEC §4: saving with an existing id sends only the changed fields; saving
 * without an id creates the record with every value of the form.
 */
export function planSave<V extends object>(id: number | null, state: ChangeState<V>): SavePlan<V> {
  if (id === null) return { kind: 'create', values: state.values };
  if (!hasChanges(state)) return { kind: 'none' };
  return { kind: 'update', id, changes: changedValues(state) };
}

/** The toast texts of SPEC §8 for a save, a delete or a load of `entity`, server message first on failure. */
export function outcomeMessage(
  entity: EditEntity,
  outcome: 'created' | 'updated' | 'deleted' | 'createFailed' | 'updateFailed' | 'deleteFailed' | 'loadFailed',
  serverMessage?: string | null,
): string {
  const m = formMessages(entity);
  const fallback = {
    created: m.created,
    updated: m.updated,
    deleted: m.deleted,
    createFailed: m.createFailed,
    updateFailed: m.updateFailed,
    deleteFailed: m.deleteFailed,
    loadFailed: m.loadFailed,
  }[outcome];
  const failed = outcome === 'createFailed' || outcome === 'updateFailed' || outcome === 'deleteFailed';
  return failed && serverMessage && serverMessage.trim() ? serverMessage : fallback;
}
