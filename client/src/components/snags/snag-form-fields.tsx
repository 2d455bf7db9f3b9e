import { useTranslation } from 'react-i18next';
import { ANNOTATION_PRIORITIES, type AnnotationPerson, type AnnotationPriority, type AnnotationStatus } from '@sitewalk/proto';
import { PRIORITY_LABELS, statusLabel } from './snag-logic';
import type { SnagForm } from './snag-form';

interface Props {
  /** Prefix of the inputs' ids (unique per panel). */
  titleId: string;
  form: SnagForm;
  set<K extends keyof SnagForm>(k: K, v: SnagForm[K]): void;
  statusOptions: AnnotationStatus[];
  /** Who the snag may be given to; the current assignee is offered too when no longer among them. */
  people: AnnotationPerson[];
  assignee: AnnotationPerson | null;
  /** An existing snag the user may change takes a comment with the change. */
  withComment: boolean;
  comment: string;
  onComment(v: string): void;
}

/** The snag panel's inputs: title, description, status, priority, assignee, due date and the comment. */
export function SnagFormFields({ titleId, form, set, statusOptions, people, assignee, withComment, comment, onComment }: Props) {
  const { t } = useTranslation();
  return (
    <>
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
            {assignee && !people.some((p) => p.id === assignee.id) && <option value={assignee.id}>{assignee.name}</option>}
          </select>
        </div>
        <div className="col-6">
          <label className="form-label small mb-1" htmlFor={`${titleId}-due`}>
            {t('Due date')}
          </label>
          <input id={`${titleId}-due`} type="date" className="form-control form-control-sm" value={form.due_date} onChange={(e) => set('due_date', e.target.value)} data-testid="snag-due" />
        </div>
      </div>
      {withComment && (
        <div className="mb-2">
          <label className="form-label small mb-1" htmlFor={`${titleId}-comment`}>
            {t('Comment')}
          </label>
          <textarea id={`${titleId}-comment`} className="form-control form-control-sm" rows={2} value={comment} onChange={(e) => onComment(e.target.value)} data-testid="snag-comment" />
        </div>
      )}
    </>
  );
}
