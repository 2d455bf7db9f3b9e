import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { FieldValues, Resolver } from 'react-hook-form';
import { compareWith } from '../../lib/changed-fields';
import { formToast } from '../../lib/toast';
import { POST_DELETE_REDIRECT, outcomeMessage, planSave, type EditEntity } from './edit-form-model';
import { useRulesForm } from './use-rules-form';

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

export interface EditFormOptions<V extends FieldValues, R> {
  entity: EditEntity;
  /** The record's id, or null to create one. */
  id: number | null;
  initial: V;
  endpoints: EditFormEndpoints<V, R>;
  /** The field rules: proto's request schema (requestRules); messages are translation keys. */
  rules: Resolver<V>;
  /** After a create: where the new record is (the URL follows the remembered id). */
  onCreated?: (record: R) => void;
  onSaved?: (record: R) => void;
  /** Where a successful delete leads; SPEC §2 redirects by default. */
  afterDelete?: string;
}

/**
 * The generic edit form of SPEC §4–§5 and §8 on react-hook-form: the rules
 * are proto's (checked on submit; changing a field clears its message), no
 * submit while errors exist, changed-field tracking (arrays compared
 * ignoring order, which react-hook-form's dirty state does not do), only
 * changed fields sent, create remembering the returned id, the SPEC §8
 * toasts and the post-delete redirects of §2.
 */
export function useEditForm<V extends FieldValues, R>(opts: EditFormOptions<V, R>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [id, setId] = useState<number | null>(opts.id);
  // The values last loaded or saved: what "changed" is measured against.
  const [baseline, setBaseline] = useState<V>(opts.initial);
  // The latest options, so callbacks stay stable while the page re-renders.
  const optsRef = useRef(opts);
  optsRef.current = opts;
  // The rules of the latest render (a new user's form drops the password rules once it is created).
  const { form, values, errors, set: setValue } = useRulesForm(opts.rules, opts.initial);
  const state = compareWith(baseline, values);
  const [busy, setBusy] = useState<'saving' | 'deleting' | null>(null);
  const { handleSubmit, reset, getValues } = form;

  /** Saves; resolves to the saved record, or null when nothing was sent (refused by the rules, or nothing changed). */
  const save = useCallback(async (): Promise<R | null> => {
    let saved: R | null = null;
    await handleSubmit(async () => {
      const o = optsRef.current;
      const plan = planSave(id, compareWith(baseline, getValues()));
      if (plan.kind === 'none') return;
      setBusy('saving');
      try {
        const record = plan.kind === 'create' ? await o.endpoints.create(plan.values) : await o.endpoints.update(plan.id, plan.changes);
        // After a successful save the changed set is cleared (SPEC §4): the saved values are the new baseline.
        const next = { ...getValues(), ...o.endpoints.valuesOf(record) };
        setBaseline(next);
        reset(next);
        if (plan.kind === 'create') {
          setId(o.endpoints.idOf(record));
          formToast('success', t(outcomeMessage(o.entity, 'created')));
          o.onCreated?.(record);
        } else {
          formToast('success', t(outcomeMessage(o.entity, 'updated')));
        }
        o.onSaved?.(record);
        saved = record;
      } catch (err) {
        const outcome = plan.kind === 'create' ? 'createFailed' : 'updateFailed';
        formToast('error', t(outcomeMessage(o.entity, outcome, (err as Error).message)));
      } finally {
        setBusy(null);
      }
    })();
    return saved;
  }, [id, baseline, handleSubmit, getValues, reset, t]);

  /** Deletes the record (the caller has asked for confirmation), then redirects. */
  const remove = useCallback(async (): Promise<boolean> => {
    const o = optsRef.current;
    if (id === null) return false;
    setBusy('deleting');
    try {
      await o.endpoints.remove(id);
      // Nothing is unsaved any more: the redirect must not ask about leaving.
      setBaseline(getValues());
      formToast('success', t(outcomeMessage(o.entity, 'deleted')));
      navigate(o.afterDelete ?? POST_DELETE_REDIRECT[o.entity], { replace: true });
      return true;
    } catch (err) {
      formToast('error', t(outcomeMessage(o.entity, 'deleteFailed', (err as Error).message)));
      return false;
    } finally {
      setBusy(null);
    }
  }, [id, getValues, navigate, t]);

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

export type EditForm<V extends FieldValues> = ReturnType<typeof useEditForm<V, unknown>>;
