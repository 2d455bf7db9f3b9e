import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ANNOTATION_FILE,
  ANNOTATION_PRIORITIES,
  type AnnotationDetail,
  type AnnotationFile,
  type AnnotationPerson,
  type AnnotationPriority,
  type AnnotationStatus,
} from '@sitewalk/proto';
import { api, errorMessage } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { ConfirmDialog } from '../edit-form/confirm-dialog';
import { PRIORITY_LABELS, statusLabel, statusChoices } from './snag-logic';
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
  /** Bumped by the screen when a live event changed the open snag, to read it again. */
  version?: number;
  onClose(): void;
  onSaved?(snag: AnnotationDetail): void;
  onDeleted?(id: number): void;
  className?: string;
}

const SAVE_FAILED = tk('The snag could not be saved.');
const LOAD_FAILED = tk('The snag could not be loaded.');
const UPLOAD_FAILED = tk('The file could not be uploaded.');
const ACCEPT = ANNOTATION_FILE.types.join(',');

const FIELD_LABELS: Record<string, string> = {
  title: tk('Title'),
  description: tk('Description'),
  status: tk('Status'),
  priority: tk('Priority'),
  id_assignee: tk('Assignee'),
  due_date: tk('Due date'),
  files: tk('Files'),
  id_room: tk('Room'),
  yaw: tk('Place in the 360 view'),
  pitch: tk('Place in the 360 view'),
  zoom: tk('Place in the 360 view'),
  id_map: tk('Sheet'),
  x: tk('Place on the sheet'),
  y: tk('Place on the sheet'),
};

interface Form {
  title: string;
  description: string;
  status: AnnotationStatus;
  priority: AnnotationPriority;
  id_assignee: string;
  due_date: string;
}

const emptyForm: Form = { title: '', description: '', status: 'open', priority: 'medium', id_assignee: '', due_date: '' };
const formOf = (s: AnnotationDetail): Form => ({
  title: s.title,
  description: s.description,
  status: s.status,
  priority: s.priority,
  id_assignee: s.id_assignee ? String(s.id_assignee) : '',
  due_date: s.due_date ?? '',
});

/**
 * The snag panel: a new snag's form, or an existing snag with its status,
 * assignee, due date, priority, files (uploaded with a progress bar, deleted
 * after a confirmation), a comment box and the history of changes. Read-only
 * for people who may only look. Used by the viewer, the sheet and /snaglist.
 */
export function SnagPanel({ snagId, draft, version = 0, onClose, onSaved, onDeleted, className }: Props) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);
  const [snag, setSnag] = useState<AnnotationDetail | null>(null);
  const [form, setForm] = useState<Form>(emptyForm);
  const [comment, setComment] = useState('');
  const [people, setPeople] = useState<AnnotationPerson[]>([]);
  const [files, setFiles] = useState<AnnotationFile[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<null | { kind: 'snag' } | { kind: 'file'; file: AnnotationFile }>(null);
  const creating = snagId === null && !!draft;
  const projectId = snag?.id_project ?? draft?.id_project ?? null;
  const visitId = snag?.id_visit ?? draft?.id_visit ?? null;
  const canEdit = creating || !!snag?.can_edit;

  useEffect(() => {
    panel.current?.focus();
  }, [snagId, creating]);

  // The snag itself (with its history), again when it changed elsewhere.
  useEffect(() => {
    if (snagId === null) {
      setSnag(null);
      setForm(emptyForm);
      setFiles([]);
      return;
    }
    let live = true;
    api.get<AnnotationDetail>(`/annotations/${snagId}`, LOAD_FAILED).then(
      (s) => {
        if (!live) return;
        setSnag(s);
        setForm(formOf(s));
        setFiles(s.files);
        setError(null);
      },
      (err: unknown) => live && setError(errorMessage(err, LOAD_FAILED)),
    );
    return () => {
      live = false;
    };
  }, [snagId, version]);

  // Who the snag may be given to.
  useEffect(() => {
    if (projectId === null) return;
    let live = true;
    api.get<AnnotationPerson[]>('/annotations/people', LOAD_FAILED, { params: { id_project: projectId } }).then(
      (p) => live && setPeople(p),
      (err: unknown) => console.warn(err),
    );
    return () => {
      live = false;
    };
  }, [projectId]);

  if (snagId === null && !draft) return null;
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.title.trim()) {
      setError(t('Title is required'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const fields = {
        title: form.title.trim(),
        description: form.description,
        status: form.status,
        priority: form.priority,
        id_assignee: form.id_assignee ? Number(form.id_assignee) : null,
        due_date: form.due_date || null,
      };
      let saved: AnnotationDetail;
      if (creating) {
        // The project comes from the visit on the server; the draft carries it only for the people list.
        const { id_project: _project, ...place } = draft!;
        saved = await api.post<AnnotationDetail>('/annotations', { ...place, ...fields, files: files.map((f) => f.filename) }, SAVE_FAILED);
        showToast('success', t('Snag created.'));
      } else {
        // Only what changed, so a status someone else just moved is not sent back.
        const before = formOf(snag!);
        const patch: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(fields)) {
          const old = k === 'id_assignee' ? (before.id_assignee ? Number(before.id_assignee) : null) : k === 'due_date' ? before.due_date || null : before[k as keyof Form];
          if (v !== old) patch[k] = v;
        }
        if (comment.trim()) patch.comment = comment.trim();
        if (!Object.keys(patch).length) {
          setBusy(false);
          return;
        }
        saved = await api.put<AnnotationDetail>(`/annotations/${snag!.id}`, patch, SAVE_FAILED);
        setComment('');
        showToast('success', t('Snag updated.'));
      }
      setSnag(saved);
      setForm(formOf(saved));
      setFiles(saved.files);
      onSaved?.(saved);
    } catch (err) {
      const msg = errorMessage(err, SAVE_FAILED);
      setError(msg);
      showToast('error', t(msg));
    } finally {
      setBusy(false);
    }
  };

  const upload = async (file: File) => {
    if (visitId === null) return;
    if (file.size > ANNOTATION_FILE.maxBytes) {
      showToast('error', t('The file is too large. The limit is {mb} MB.', { mb: Math.round(ANNOTATION_FILE.maxBytes / 1024 / 1024) }));
      return;
    }
    const data = new FormData();
    data.append('id_visit', String(visitId));
    if (snag) data.append('id_annotation', String(snag.id));
    data.append('file', file);
    setProgress(0);
    try {
      const f = await api.upload<AnnotationFile>('/annotations/file', data, UPLOAD_FAILED, { onProgress: setProgress });
      setFiles((list) => [...list, f]);
      showToast('success', t('File uploaded.'));
    } catch (err) {
      showToast('error', t(errorMessage(err, UPLOAD_FAILED)));
    } finally {
      setProgress(null);
    }
  };

  const removeFile = async (f: AnnotationFile) => {
    setBusy(true);
    try {
      await api.delete(`/annotations/file/delete`, tk('The file could not be deleted.'), { params: { filename: f.filename, id_visit: f.id_visit } });
      setFiles((list) => list.filter((x) => x.filename !== f.filename));
      showToast('success', t('File deleted.'));
    } catch (err) {
      showToast('error', t(errorMessage(err, tk('The file could not be deleted.'))));
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  };

  const removeSnag = async () => {
    if (!snag) return;
    setBusy(true);
    try {
      await api.delete(`/annotations/${snag.id}`, tk('The snag could not be deleted.'));
      showToast('success', t('Snag deleted.'));
      onDeleted?.(snag.id);
      onClose();
    } catch (err) {
      showToast('error', t(errorMessage(err, tk('The snag could not be deleted.'))));
    } finally {
      setBusy(false);
      setConfirm(null);
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
        if (e.key === 'Escape' && !confirm) onClose();
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
              <div className="mb-2">
                <label className="form-label small mb-1" htmlFor={`${titleId}-title`}>
                  {t('Title')}
                </label>
                <input id={`${titleId}-title`} className="form-control form-control-sm" value={form.title} maxLength={200} onChange={(e) => set('title', e.target.value)} data-testid="snag-title" required />
              </div>
              <div className="mb-2">
                <label className="form-label small mb-1" htmlFor={`${titleId}-desc`}>
                  {t('Description')}
                </label>
                <textarea id={`${titleId}-desc`} className="form-control form-control-sm" rows={2} value={form.description} onChange={(e) => set('description', e.target.value)} data-testid="snag-description" />
              </div>
              <div className="row g-2 mb-2">
                <div className="col-6">
                  <label className="form-label small mb-1" htmlFor={`${titleId}-status`}>
                    {t('Status')}
                  </label>
                  <select id={`${titleId}-status`} className="form-select form-select-sm" value={form.status} onChange={(e) => set('status', e.target.value as AnnotationStatus)} data-testid="snag-status">
                    {statusOptions.map((s) => (
                      <option key={s} value={s}>
                        {statusLabel(t, s)}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="col-6">
                  <label className="form-label small mb-1" htmlFor={`${titleId}-priority`}>
                    {t('Priority')}
                  </label>
                  <select id={`${titleId}-priority`} className="form-select form-select-sm" value={form.priority} onChange={(e) => set('priority', e.target.value as AnnotationPriority)} data-testid="snag-priority">
                    {ANNOTATION_PRIORITIES.map((p) => (
                      <option key={p} value={p}>
                        {t(PRIORITY_LABELS[p])}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="col-6">
                  <label className="form-label small mb-1" htmlFor={`${titleId}-assignee`}>
                    {t('Assignee')}
                  </label>
                  <select id={`${titleId}-assignee`} className="form-select form-select-sm" value={form.id_assignee} onChange={(e) => set('id_assignee', e.target.value)} data-testid="snag-assignee">
                    <option value="">{t('Nobody')}</option>
                    {people.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.name}
                      </option>
                    ))}
                    {snag?.assignee && !people.some((p) => p.id === snag.assignee!.id) && <option value={snag.assignee.id}>{snag.assignee.name}</option>}
                  </select>
                </div>
                <div className="col-6">
                  <label className="form-label small mb-1" htmlFor={`${titleId}-due`}>
                    {t('Due date')}
                  </label>
                  <input id={`${titleId}-due`} type="date" className="form-control form-control-sm" value={form.due_date} onChange={(e) => set('due_date', e.target.value)} data-testid="snag-due" />
                </div>
              </div>
              {!creating && canEdit && (
                <div className="mb-2">
                  <label className="form-label small mb-1" htmlFor={`${titleId}-comment`}>
                    {t('Comment')}
                  </label>
                  <textarea id={`${titleId}-comment`} className="form-control form-control-sm" rows={2} value={comment} onChange={(e) => setComment(e.target.value)} data-testid="snag-comment" />
                </div>
              )}
            </fieldset>

            <div className="mb-2">
              <div className="small fw-semibold mb-1">{t('Files')}</div>
              {files.length === 0 && <div className="small text-body-secondary">{t('No files yet.')}</div>}
              <ul className="list-unstyled mb-1 sw-snag-files">
                {files.map((f) => (
                  <li key={f.filename} className="d-flex align-items-center gap-2 mb-1" data-testid="snag-file">
                    {f.kind === 'image' ? <img src={f.url} alt="" className="sw-snag-thumb rounded" /> : <i className="bi bi-file-earmark-pdf fs-5" aria-hidden="true" />}
                    <a href={f.url} target="_blank" rel="noopener noreferrer" className="text-truncate me-auto small">
                      {f.name}
                    </a>
                    {canEdit && (
                      <button type="button" className="btn btn-sm btn-link text-danger p-0" onClick={() => setConfirm({ kind: 'file', file: f })} aria-label={t('Delete {name}', { name: f.name })}>
                        <i className="bi bi-trash" aria-hidden="true" />
                      </button>
                    )}
                  </li>
                ))}
              </ul>
              {canEdit && (
                <label className="btn btn-sm btn-outline-secondary mb-0">
                  <i className="bi bi-paperclip me-1" aria-hidden="true" />
                  {t('Add a photo or PDF')}
                  <input
                    type="file"
                    accept={ACCEPT}
                    className="visually-hidden"
                    data-testid="snag-file-input"
                    disabled={progress !== null}
                    onChange={(e) => {
                      const f = e.target.files?.[0];
                      e.target.value = '';
                      if (f) void upload(f);
                    }}
                  />
                </label>
              )}
              {progress !== null && (
                <div className="progress mt-1" role="progressbar" aria-label={t('Uploading')} aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100}>
                  <div className="progress-bar" style={{ width: `${progress}%` }}>
                    {progress}%
                  </div>
                </div>
              )}
            </div>

            {canEdit && (
              <div className="d-flex flex-wrap gap-2 mb-2">
                <button type="submit" className="btn btn-sm btn-primary" disabled={busy} data-testid="snag-save">
                  {busy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
                  {creating ? t('Create snag') : t('Save')}
                </button>
                {snag && (
                  <button type="button" className="btn btn-sm btn-outline-danger ms-auto" onClick={() => setConfirm({ kind: 'snag' })} disabled={busy} data-testid="snag-delete">
                    <i className="bi bi-trash me-1" aria-hidden="true" />
                    {t('Delete')}
                  </button>
                )}
              </div>
            )}
            {snag && !canEdit && <p className="small text-body-secondary mb-2">{t('You can view the snags of this project but not change them.')}</p>}
          </form>
        )}

        {snag && snag.history.length > 0 && (
          <details className="small">
            <summary>{t('History')}</summary>
            <ol className="list-unstyled mt-1 mb-0 sw-snag-history" data-testid="snag-history">
              {snag.history.map((h) => (
                <li key={h.id} className="mb-1">
                  <time dateTime={h.created_at} className="text-body-secondary">{formatDateTime(h.created_at, i18n.language)}</time> · {h.user?.name ?? t('Someone')}:{' '}
                  {h.action === 'created' && t('created the snag')}
                  {h.action === 'comment' && t('commented')}
                  {h.action === 'file_added' && t('added a file')}
                  {h.action === 'file_removed' && t('removed a file')}
                  {h.action === 'updated' && `${t('changed')} ${[...new Set(h.changes.map((c) => t(FIELD_LABELS[c.field] ?? c.field)))].join(', ')}`}
                  {h.changes.some((c) => c.field === 'status') && (
                    <span>
                      {' '}
                      ({h.changes.filter((c) => c.field === 'status').map((c) => `${statusLabel(t, c.from as AnnotationStatus)} → ${statusLabel(t, c.to as AnnotationStatus)}`)})
                    </span>
                  )}
                  {h.comment && <div className="text-break" style={{ whiteSpace: 'pre-wrap' }}>“{h.comment}”</div>}
                </li>
              ))}
            </ol>
          </details>
        )}
      </div>
      <ConfirmDialog
        show={confirm !== null}
        title={confirm?.kind === 'file' ? t('Delete the file') : t('Delete the snag')}
        body={confirm?.kind === 'file' ? t('Delete {name}? This cannot be undone.', { name: confirm.file.name }) : t('Delete this snag with its files and history? This cannot be undone.')}
        confirmLabel={t('Delete')}
        busy={busy}
        onCancel={() => setConfirm(null)}
        onConfirm={() => (confirm?.kind === 'file' ? void removeFile(confirm.file) : void removeSnag())}
      />
    </aside>
  );
}
