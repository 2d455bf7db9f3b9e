import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { AnnotationDetail, AnnotationFile, AnnotationStatus } from '@sitewalk/proto';
import { api, errorMessage } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { ConfirmDialog } from '../edit-form/confirm-dialog';
import { statusLabel, statusChoices } from './snag-logic';
import { SnagFormFields } from './snag-form-fields';
import { EMPTY_SNAG_FORM, snagChanges, snagFields, snagFormOf, type SnagForm } from './snag-form';
import { SNAG_LOAD_FAILED, snagDetailKey, useSnagDetail, useSnagPeople } from './use-snag-detail';
import { SnagFiles } from './snag-files';
import { SnagHistory } from './snag-history';
import './snags.css';

/** Where a new snag goes: made by a click in the 360 view (room + angles) or on the sheet (x/y). */
export interface SnagDraft {
  id_visit: number;
  id_project: number;
  id_room?: number | null;
  yaw?: number | null;
  pitch?: number | null;
  zoom?: number | null;
  id_map?: number | null;
  x?: number | null;
  y?: number | null;
}

interface Props {
  /** The snag to show and edit (its id), or a draft to create. */
  snagId: number | null;
  draft?: SnagDraft | null;
  onClose(): void;
  onSaved?(snag: AnnotationDetail): void;
  onDeleted?(id: number): void;
  className?: string;
}

const SAVE_FAILED = tk('The snag could not be saved.');
const DELETE_FAILED = tk('The snag could not be deleted.');

/**
 * The snag panel: a new snag's form, or an existing snag with its status,
 * assignee, due date, priority, files (SnagFiles), a comment box and the
 * history of changes (SnagHistory). Read-only for people who may only look.
 * Used by the viewer, the sheet and /snaglist.
 */
export function SnagPanel({ snagId, draft, onClose, onSaved, onDeleted, className }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);
  const queryClient = useQueryClient();
  const detail = useSnagDetail(snagId);
  const snag = snagId === null ? null : (detail.data ?? null);
  const [form, setForm] = useState<SnagForm>(EMPTY_SNAG_FORM);
  const [comment, setComment] = useState('');
  const [files, setFiles] = useState<AnnotationFile[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const creating = snagId === null && !!draft;
  const projectId = snag?.id_project ?? draft?.id_project ?? null;
  const visitId = snag?.id_visit ?? draft?.id_visit ?? null;
  const canEdit = creating || !!snag?.can_edit;
  const people = useSnagPeople(projectId);

  useEffect(() => {
    panel.current?.focus();
  }, [snagId, creating]);

  // The form shows the snag as last read (again after a live change of it).
  useEffect(() => {
    setForm(snag ? snagFormOf(snag) : EMPTY_SNAG_FORM);
    setFiles(snag?.files ?? []);
    if (snag) setError(null);
  }, [snag]);
  useEffect(() => setError(detail.error ? errorMessage(detail.error, SNAG_LOAD_FAILED) : null), [detail.error]);

  if (snagId === null && !draft) return null;
  const set = <K extends keyof SnagForm>(k: K, v: SnagForm[K]) => setForm((f) => ({ ...f, [k]: v }));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.title.trim()) {
      setError(t('Title is required'));
      return;
    }
    let saved: AnnotationDetail;
    try {
      if (creating) {
        setBusy(true);
        setError(null);
        // The project comes from the visit on the server; the draft carries it only for the people list.
        const { id_project: _project, ...place } = draft!;
        saved = await api.post<AnnotationDetail>('/annotations', { ...place, ...snagFields(form), files: files.map((f) => f.filename) }, SAVE_FAILED);
        showToast('success', t('Snag created.'));
      } else {
        const patch = snagChanges(snag!, form, comment);
        if (!patch) return;
        setBusy(true);
        setError(null);
        saved = await api.put<AnnotationDetail>(`/annotations/${snag!.id}`, patch, SAVE_FAILED);
        setComment('');
        showToast('success', t('Snag updated.'));
      }
      queryClient.setQueryData(snagDetailKey(saved.id), saved);
      if (creating) {
        // The screen opens the new snag by its id next; until then the form shows what was saved.
        setForm(snagFormOf(saved));
        setFiles(saved.files);
      }
      onSaved?.(saved);
    } catch (err) {
      const msg = errorMessage(err, SAVE_FAILED);
      setError(msg);
      showToast('error', t(msg));
    } finally {
      setBusy(false);
    }
  };

  const removeSnag = async () => {
    if (!snag) return;
    setBusy(true);
    try {
      await api.delete(`/annotations/${snag.id}`, DELETE_FAILED);
      showToast('success', t('Snag deleted.'));
      queryClient.removeQueries({ queryKey: snagDetailKey(snag.id) });
      onDeleted?.(snag.id);
      onClose();
    } catch (err) {
      showToast('error', t(errorMessage(err, DELETE_FAILED)));
    } finally {
      setBusy(false);
      setConfirmDelete(false);
    }
  };

  const statusOptions = snag ? statusChoices(snag.status) : (['open', 'in_progress'] as AnnotationStatus[]);

  return (
    <aside
      ref={panel}
      className={`sw-snag-panel card shadow ${className ?? ''}`}
      tabIndex={-1}
      aria-labelledby={titleId}
      data-testid="snag-panel"
      data-snag={snag?.id ?? ''}
      onKeyDown={(e) => {
        // Escape in a confirmation (a portal, whose keys still bubble here) closes only the confirmation.
        if (e.key === 'Escape' && !confirmDelete && panel.current?.contains(e.target as Node)) onClose();
      }}
    >
      <div className="card-header d-flex align-items-start gap-2">
        <h2 id={titleId} className="h6 mb-0 me-auto text-break">
          <i className="bi bi-exclamation-triangle-fill me-1" aria-hidden="true" />
          {creating ? t('New snag') : (snag?.title ?? t('Snag'))}
        </h2>
        {snag && <span className={`badge sw-snag-badge sw-snag-${snag.status}`} data-testid="snag-panel-status">{statusLabel(t, snag.status)}</span>}
        <button type="button" className="btn-close" aria-label={t('Close')} onClick={onClose} />
      </div>
      <div className="card-body overflow-auto">
        {error && (
          <div className="alert alert-danger py-2 small" role="alert">
            {t(error)}
          </div>
        )}
        {!creating && !snag && !error && <div className="text-center py-3"><span className="spinner-border spinner-border-sm" aria-label={t('Loading...')} /></div>}
        {(creating || snag) && (
          <form onSubmit={(e) => void save(e)} noValidate>
            <fieldset disabled={!canEdit || busy}>
              <SnagFormFields
                titleId={titleId}
                form={form}
                set={set}
                statusOptions={statusOptions}
                people={people}
                assignee={snag?.assignee ?? null}
                withComment={!creating && canEdit}
                comment={comment}
                onComment={setComment}
              />
            </fieldset>

            <SnagFiles files={files} onFiles={setFiles} visitId={visitId} snagId={snag?.id ?? null} canEdit={canEdit} />

            {canEdit && (
              <div className="d-flex flex-wrap gap-2 mb-2 sw-snag-actions" data-testid="snag-actions">
                <button type="submit" className="btn btn-sm btn-primary" disabled={busy} data-testid="snag-save">
                  {busy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
                  {creating ? t('Create snag') : t('Save')}
                </button>
                {snag && (
                  <button type="button" className="btn btn-sm btn-outline-danger ms-auto" onClick={() => setConfirmDelete(true)} disabled={busy} data-testid="snag-delete">
                    <i className="bi bi-trash me-1" aria-hidden="true" />
                    {t('Delete')}
                  </button>
                )}
              </div>
            )}
            {snag && !canEdit && <p className="small text-body-secondary mb-2">{t('You can view the snags of this project but not change them.')}</p>}
          </form>
        )}

        {snag && <SnagHistory history={snag.history} />}
      </div>
      <ConfirmDialog
        show={confirmDelete}
        title={t('Delete the snag')}
        body={t('Delete this snag with its files and history? This cannot be undone.')}
        confirmLabel={t('Delete')}
        busy={busy}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => void removeSnag()}
      />
    </aside>
  );
}
