/**
 * Changed-field tracking for forms (SPEC §4 "Generic edit form" and "Profile
 * form"): a change is recorded only when the value differs from the loaded
 * one, arrays compare without regard to order, and a save sends only the
 * changed fields.
 */

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const canonical = (v: unknown): string => JSON.stringify(normalise(v));

function normalise(v: unknown): unknown {
  if (v === undefined) return null;
  if (Array.isArray(v)) return v.map((x) => canonical(x)).sort();
  if (isPlainObject(v)) {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, normalise(v[k])]));
  }
  return v;
}

/** Deep equality where arrays are compared ignoring order and undefined equals null. */
export const valuesEqual = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b);

export interface ChangeState<T extends object> {
  initial: T;
  values: T;
  changed: ReadonlySet<keyof T>;
}

export const hasChanges = <T extends object>(s: ChangeState<T>) => s.changed.size > 0;

export function startTracking<T extends object>(initial: T): ChangeState<T> {
  return { initial, values: initial, changed: new Set() };
}

/** The state of `values` measured against `initial`: a field is changed while it differs (arrays ignoring order). */
export function compareWith<T extends object>(initial: T, values: T): ChangeState<T> {
  const keys = new Set([...Object.keys(initial), ...Object.keys(values)] as (keyof T)[]);
  const changed = new Set([...keys].filter((k) => !valuesEqual(initial[k], values[k])));
  return { initial, values, changed };
}

/** Sets one field; it counts as changed only while it differs from the loaded value. */
export function setField<T extends object, K extends keyof T>(s: ChangeState<T>, field: K, value: T[K]): ChangeState<T> {
  const changed = new Set(s.changed);
  if (valuesEqual(s.initial[field], value)) changed.delete(field);
  else changed.add(field);
  return { initial: s.initial, values: { ...s.values, [field]: value }, changed };
}

/** The changed fields with their new values: what a save sends. */
export function changedValues<T extends object>(s: ChangeState<T>): Partial<T> {
  const out: Partial<T> = {};
  for (const k of s.changed) out[k] = s.values[k];
  return out;
}

/** After a successful save: the saved values become the new baseline. */
export const markSaved = <T extends object>(s: ChangeState<T>, saved?: Partial<T>): ChangeState<T> =>
  startTracking({ ...s.values, ...(saved ?? {}) });
