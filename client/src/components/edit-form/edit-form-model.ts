import { formMessages } from '@sitewalk/proto';
import { changedValues, hasChanges, type ChangeState } from '../../lib/changed-fields';

/**
 * The rules of the generic edit form (SPEC §4 "Generic edit form", §5, §8
 * "Forms" and the post-delete redirects of §2), free of React so they are
 * unit-tested on their own. The hook in use-edit-form.ts applies them.
 */

/** The editable entity kinds of SPEC §3, by their label in the SPEC §8 messages. */
export type EditEntity = 'Project' | 'Visit' | 'Sheet' | 'Plan' | 'User' | 'Company';

/** SPEC §5: for these kinds the name must be non-blank after trimming. */
const NAME_REQUIRED: ReadonlySet<EditEntity> = new Set<EditEntity>(['Project', 'Sheet', 'Visit', 'Company']);

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

/** The name rule of SPEC §5 ('{Entity} name is required'); null when the name is fine or not required. */
export function nameError(entity: EditEntity, name: unknown): string | null {
  if (!NAME_REQUIRED.has(entity)) return null;
  return typeof name === 'string' && name.trim() !== '' ? null : formMessages(entity).nameRequired;
}

/** The name rule plus the form's own field checks, merged into one error map. */
export function validateForm<V extends object>(
  entity: EditEntity,
  values: V,
  extra?: (values: V) => FieldErrors<V>,
): FieldErrors<V> {
  const errors: FieldErrors<V> = { ...(extra ? extra(values) : {}) };
  if ('name' in values) {
    const n = nameError(entity, (values as { name?: unknown }).name);
    if (n) (errors as Record<string, string | null>).name = n;
  }
  return errors;
}

export const hasErrors = (errors: Record<string, string | null | undefined>) => Object.values(errors).some((e) => !!e);

/** SPEC §5: changing a field clears that field's error (and only that one). */
export function clearFieldError<V>(errors: FieldErrors<V>, field: keyof V & string): FieldErrors<V> {
  if (!errors[field]) return errors;
  return { ...errors, [field]: null };
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
