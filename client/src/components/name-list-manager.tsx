import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formMessages } from '@sitewalk/proto';
import { api } from '../lib/api-client';
import { formatNumber } from '../lib/format';
import { formToast } from '../lib/toast';
import { ConfirmDialog } from './edit-form/confirm-dialog';
import { DELETE_LABEL, NEW_LABEL } from './edit-form/edit-form-texts';
import { Spinner } from './spinner';

export interface NamedItem {
  id: number;
  name: string;
  projects_count: number;
}

interface Props<T extends NamedItem> {
  /** 'Category' or 'Project type': the entity of the SPEC §8 messages. */
  entity: 'Category' | 'Project type';
  /** API collection path: '/categories' or '/project-types'. */
  path: string;
  items: T[] | null;
  loadError: string | null;
  /** Translated texts. */
  heading: string;
  intro: string;
  empty: string;
  /** Called with the list after every change (the shared lookups follow). */
  onItems(items: T[]): void;
}

const byName = <T extends NamedItem>(a: T, b: T) => a.name.localeCompare(b.name);

/** Add, rename and delete named things (categories, project types) in one list. */
export function NameListManager<T extends NamedItem>({ entity, path, items, loadError, heading, intro, empty, onItems }: Props<T>) {
  const { t, i18n } = useTranslation();
  const m = formMessages(entity);
  const [newName, setNewName] = useState('');
  const [newError, setNewError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ id: number; name: string; error: string | null } | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const list = items ?? [];

  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (!newName.trim()) {
      setNewError(m.nameRequired);
      return;
    }
    setBusy(true);
    try {
      const item = await api.post<T>(path, { name: newName.trim() }, m.createFailed);
      onItems([...list, item].sort(byName));
      setNewName('');
      formToast('success', t(m.created));
    } catch (err) {
      setNewError((err as Error).message || m.createFailed);
      formToast('error', t((err as Error).message || m.createFailed));
    } finally {
      setBusy(false);
    }
  };

  const rename = async (e: FormEvent) => {
    e.preventDefault();
    if (!editing) return;
    if (!editing.name.trim()) {
      setEditing({ ...editing, error: m.nameRequired });
      return;
    }
    const before = list.find((x) => x.id === editing.id);
    if (before && before.name === editing.name.trim()) {
      setEditing(null);
      return;
    }
    setBusy(true);
    try {
      const item = await api.put<T>(`${path}/${editing.id}`, { name: editing.name.trim() }, m.updateFailed);
      onItems(list.map((x) => (x.id === item.id ? item : x)).sort(byName));
      setEditing(null);
      formToast('success', t(m.updated));
    } catch (err) {
      setEditing({ ...editing, error: (err as Error).message || m.updateFailed });
      formToast('error', t((err as Error).message || m.updateFailed));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await api.delete(`${path}/${deleting.id}`, m.deleteFailed);
      onItems(list.filter((x) => x.id !== deleting.id));
      formToast('success', t(m.deleted));
      setDeleting(null);
    } catch (err) {
      formToast('error', t((err as Error).message || m.deleteFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="names-heading">
      <div className="card-header bg-transparent">
        <h2 id="names-heading" className="h6 mb-0">
          {heading}
        </h2>
      </div>
      <div className="card-body">
        <p className="text-body-secondary">{intro}</p>
        <form className="mb-3" onSubmit={(e) => void create(e)} noValidate>
          <label htmlFor="new-name" className="form-label">
            {t(NEW_LABEL[entity])}
          </label>
          <div className="input-group">
            <input
              id="new-name"
              className={`form-control${newError ? ' is-invalid' : ''}`}
              value={newName}
              maxLength={100}
              onChange={(e) => {
                setNewName(e.target.value);
                setNewError(null);
              }}
              aria-invalid={newError ? true : undefined}
              aria-describedby={newError ? 'new-name-error' : undefined}
            />
            <button type="submit" className="btn btn-primary" disabled={busy}>
              <i className="bi bi-plus-lg me-1" aria-hidden="true" />
              {t('Add')}
            </button>
          </div>
          {newError && (
            <div id="new-name-error" className="invalid-feedback d-block">
              {t(newError)}
            </div>
          )}
        </form>
        {loadError && (
          <div className="alert alert-danger" role="alert">
            {t(loadError)}
          </div>
        )}
        {!items && !loadError && <Spinner />}
        {items && list.length === 0 && <p className="text-body-secondary mb-0" data-testid="names-empty">{empty}</p>}
        {list.length > 0 && (
          <ul className="list-group" aria-label={heading}>
            {list.map((item) => (
              <li key={item.id} className="list-group-item d-flex flex-wrap align-items-center gap-2" data-testid="name-row">
                {editing?.id === item.id ? (
                  <form className="d-flex flex-wrap gap-2 flex-grow-1" onSubmit={(e) => void rename(e)} noValidate>
                    <label htmlFor={`rename-${item.id}`} className="visually-hidden">
                      {t('New name for {name}', { name: item.name })}
                    </label>
                    <input
                      id={`rename-${item.id}`}
                      className={`form-control form-control-sm w-auto flex-grow-1${editing.error ? ' is-invalid' : ''}`}
                      value={editing.name}
                      maxLength={100}
                      autoFocus
                      onChange={(e) => setEditing({ ...editing, name: e.target.value, error: null })}
                      onKeyDown={(e) => e.key === 'Escape' && setEditing(null)}
                      aria-invalid={editing.error ? true : undefined}
                      aria-describedby={editing.error ? `rename-${item.id}-error` : undefined}
                    />
                    <button type="submit" className="btn btn-sm btn-primary" disabled={busy}>
                      {t('Save')}
                    </button>
                    <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setEditing(null)}>
                      {t('Cancel')}
                    </button>
                    {editing.error && (
                      <div id={`rename-${item.id}-error`} className="invalid-feedback d-block w-100">
                        {t(editing.error)}
                      </div>
                    )}
                  </form>
                ) : (
                  <>
                    <span className="fw-semibold me-auto text-break">{item.name}</span>
                    <span className="badge text-bg-secondary">{t('Projects: {n}', { n: formatNumber(item.projects_count, i18n.language) })}</span>
                    <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => setEditing({ id: item.id, name: item.name, error: null })} aria-label={t('Rename {name}', { name: item.name })}>
                      <i className="bi bi-pencil" aria-hidden="true" />
                    </button>
                    <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setDeleting(item)} aria-label={t('Delete {name}', { name: item.name })}>
                      <i className="bi bi-trash" aria-hidden="true" />
                    </button>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      <ConfirmDialog
        show={deleting !== null}
        title={t(DELETE_LABEL[entity])}
        body={
          deleting
            ? deleting.projects_count > 0
              ? t('Delete "{name}"? It is removed from {n} projects; the projects stay.', { name: deleting.name, n: formatNumber(deleting.projects_count, i18n.language) })
              : t('Delete "{name}"? This cannot be undone.', { name: deleting.name })
            : ''
        }
        confirmLabel={t('Delete')}
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </section>
  );
}
