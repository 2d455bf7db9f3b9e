import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from './confirm-dialog';
import type { EditEntity } from './edit-form-model';
import { DELETE_LABEL } from './edit-form-texts';
import { useLeaveGuard } from './use-leave-guard';
import { usePageMeta } from '../../stores/page-meta.store';
import type { Crumb } from '../../lib/breadcrumbs';

interface Props {
  entity: EditEntity;
  /** Already translated heading. */
  heading: string;
  id: number | null;
  hasChanges: boolean;
  busy: 'saving' | 'deleting' | null;
  onSave(): Promise<unknown>;
  onDelete(): Promise<unknown>;
  /** Already translated name of the record, for the delete question. */
  recordName: string;
  /** The records above this one in the breadcrumb trail (a sheet's project). */
  parents?: Crumb[];
  /** Links next to the buttons (back to the project, open the sheet...). */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * The frame of every generic edit form: the fields, Save (only when there is
 * something to save), and Delete behind a confirmation.
 */
export function EditFormShell({ entity, heading, id, hasChanges, busy, onSave, onDelete, recordName, parents, actions, children }: Props) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const headingId = `edit-${entity.toLowerCase()}-heading`;
  const creating = id === null;
  // While saving or deleting, the form's own redirect must not be held.
  const leave = useLeaveGuard(hasChanges && busy === null);
  // The tab and the trail say what the form is: 'New project' before the record exists, not 'Edit Project'.
  usePageMeta(heading, parents);

  const formRef = useRef<HTMLFormElement>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onSave().then(() => {
      // A refused save puts the focus on the first field in error: its message is scrolled into view
      // and read out, instead of being off-screen while the focus stays on the button.
      requestAnimationFrame(() => {
        const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
        if (invalid) {
          invalid.focus();
          invalid.scrollIntoView({ block: 'center' });
        }
      });
    });
  };

  return (
    <section className="card border-0 shadow-sm" aria-labelledby={headingId}>
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h2 id={headingId} className="h6 mb-0 me-auto">
          {heading}
        </h2>
        {hasChanges && !creating && (
          <span className="badge text-bg-warning" data-testid="unsaved-changes">
            {t('Unsaved changes')}
          </span>
        )}
      </div>
      <form ref={formRef} className="card-body" onSubmit={submit} noValidate aria-labelledby={headingId}>
        {children}
        <div className="d-flex flex-wrap align-items-center gap-2 border-top pt-3">
          <button type="submit" className="btn btn-primary" disabled={busy !== null || (!creating && !hasChanges)}>
            {busy === 'saving' && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            {creating ? t('Create') : t('Save changes')}
          </button>
          {actions}
          {!creating && (
            <button type="button" className="btn btn-outline-danger ms-auto" onClick={() => setConfirming(true)} disabled={busy !== null}>
              <i className="bi bi-trash me-1" aria-hidden="true" />
              {t(DELETE_LABEL[entity])}
            </button>
          )}
        </div>
      </form>
      <ConfirmDialog
        show={confirming}
        title={t(DELETE_LABEL[entity])}
        body={t('Delete "{name}"? This cannot be undone.', { name: recordName })}
        confirmLabel={t('Delete')}
        busy={busy === 'deleting'}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          void onDelete().then(() => setConfirming(false));
        }}
      />
      <ConfirmDialog
        show={leave.state === 'blocked'}
        title={t('Leave without saving?')}
        body={t('Your changes on this page are not saved. If you leave now, they are lost.')}
        confirmLabel={t('Leave without saving')}
        cancelLabel={t('Stay on this page')}
        onCancel={() => leave.reset?.()}
        onConfirm={() => leave.proceed?.()}
      />
    </section>
  );
}
