import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { markSaved, setField, startTracking, type ChangeState } from '../../lib/changed-fields';
import { formToast } from '../../lib/toast';
import {
  POST_DELETE_REDIRECT,
  clearFieldError,
  hasErrors,
  outcomeMessage,
  planSave,
  validateForm,
  type EditEntity,
  type FieldErrors,
} from './edit-form-model';

/** How one entity kind is created, updated and deleted on the server. */
export interface EditFormEndpoints<V, R> {
  create(values: V): Promise<R>;
  update(id: number, changes: Partial<V>): Promise<R>;
  remove(id: number): Promise<unknown>;
  /** The id of a saved record (POST answers carry it). */
  idOf(record: R): number;
  /** The form values of a saved record, so the saved state becomes the new baseline. */
  valuesOf(record: R): V;
}

export interface EditFormOptions<V, R> {
  entity: EditEntity;
  /** The record's id, or null to create one. */
  id: number | null;
  initial: V;
  endpoints: EditFormEndpoints<V, R>;
  /** Field checks beyond the SPEC §5 name rule; messages are translation keys. */
  validate?: (values: V) => FieldErrors<V>;
  /** After a create: where the new record is (the URL follows the remembered id). */
  onCreated?: (record: R) => void;
  onSaved?: (record: R) => void;
  /** Where a successful delete leads; SPEC §2 redirects by default. */
  afterDelete?: string;
}

/**
 * The generic edit form of SPEC §4–§5 and §8: changed-field tracking (arrays
 * compared ignoring order), only changed fields sent, create remembering the
 * returned id, '{Entity} name is required', changing a field clears its
 * error, no submit while errors exist, the SPEC §8 toasts and the
 * post-delete redirects of §2.
 */
export function useEditForm<V extends object, R>(opts: EditFormOptions<V, R>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [id, setId] = useState<number | null>(opts.id);
  const [state, setState] = useState<ChangeState<V>>(() => startTracking(opts.initial));
  const [errors, setErrors] = useState<FieldErrors<V>>({});
  const [busy, setBusy] = useState<'saving' | 'deleting' | null>(null);
  // The latest options, so callbacks stay stable while the page re-renders.
  const optsRef = useRef(opts);
  optsRef.current = opts;

  const setValue = useCallback(<K extends keyof V & string>(field: K, value: V[K]) => {
    setState((s) => setField(s, field, value));
    setErrors((e) => clearFieldError(e, field));
  }, []);

  /** Saves; resolves to the saved record, or null when nothing was sent. */
  const save = useCallback(async (): Promise<R | null> => {
    const o = optsRef.current;
    const found = validateForm(o.entity, state.values, o.validate);
    setErrors(found);
    // SPEC §5: the form is not submitted while errors exist.
    if (hasErrors(found)) return null;
    const plan = planSave(id, state);
    if (plan.kind === 'none') return null;
    setBusy('saving');
    try {
      const record = plan.kind === 'create' ? await o.endpoints.create(plan.values) : await o.endpoints.update(plan.id, plan.changes);
      const savedValues = o.endpoints.valuesOf(record);
      // After a successful save the changed set is cleared (SPEC §4).
      setState((s) => markSaved(s, savedValues));
      if (plan.kind === 'create') {
        setId(o.endpoints.idOf(record));
        formToast('success', t(outcomeMessage(o.entity, 'created')));
        o.onCreated?.(record);
      } else {
        formToast('success', t(outcomeMessage(o.entity, 'updated')));
      }
      o.onSaved?.(record);
      return record;
    } catch (err) {
      const outcome = plan.kind === 'create' ? 'createFailed' : 'updateFailed';
      formToast('error', t(outcomeMessage(o.entity, outcome, (err as Error).message)));
      return null;
    } finally {
      setBusy(null);
    }
  }, [id, state, t]);

  /** Deletes the record (the caller has asked for confirmation), then redirects. */
  const remove = useCallback(async (): Promise<boolean> => {
    const o = optsRef.current;
    if (id === null) return false;
    setBusy('deleting');
    try {
      await o.endpoints.remove(id);
      setState((s) => startTracking(s.values));
      formToast('success', t(outcomeMessage(o.entity, 'deleted')));
      navigate(o.afterDelete ?? POST_DELETE_REDIRECT[o.entity], { replace: true });
      return true;
    } catch (err) {
      formToast('error', t(outcomeMessage(o.entity, 'deleteFailed', (err as Error).message)));
      return false;
    } finally {
      setBusy(null);
    }
  }, [id, navigate, t]);

  return {
    id,
    values: state.values,
    changed: state.changed,
    hasChanges: state.changed.size > 0,
    errors,
    busy,
    setValue,
    save,
    remove,
  };
}

export type EditForm<V extends object> = ReturnType<typeof useEditForm<V, unknown>>;
