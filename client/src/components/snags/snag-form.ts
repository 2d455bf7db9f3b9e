import type { AnnotationDetail, AnnotationPriority, AnnotationStatus, AnnotationUpdateRequest } from '@sitewalk/proto';

/**
 * The snag panel's form as the inputs hold it (ids and dates as text, ''
 * for none), and what a save sends. Pure, unit-tested.
 */
export interface SnagForm {
  title: string;
  description: string;
  status: AnnotationStatus;
  priority: AnnotationPriority;
  id_assignee: string;
  due_date: string;
}

export const EMPTY_SNAG_FORM: SnagForm = { title: '', description: '', status: 'open', priority: 'medium', id_assignee: '', due_date: '' };

export const snagFormOf = (s: AnnotationDetail): SnagForm => ({
  title: s.title,
  description: s.description,
  status: s.status,
  priority: s.priority,
  id_assignee: s.id_assignee ? String(s.id_assignee) : '',
  due_date: s.due_date ?? '',
});

/** The form's fields as the API takes them: the title trimmed, '' as null. */
export function snagFields(f: SnagForm) {
  return {
    title: f.title.trim(),
    description: f.description,
    status: f.status,
    priority: f.priority,
    id_assignee: f.id_assignee ? Number(f.id_assignee) : null,
    due_date: f.due_date || null,
  };
}

/**
 * The PUT /annotations/{id} body of an edit: only the fields that differ from
 * the snag as it was read (so a status someone else just moved is not sent
 * back), and the comment when one is written; null when there is nothing to send.
 */
export function snagChanges(before: AnnotationDetail, form: SnagForm, comment: string): AnnotationUpdateRequest | null {
  const was = snagFields(snagFormOf(before));
  const now = snagFields(form);
  const patch: Record<string, unknown> = {};
  for (const k of Object.keys(now) as (keyof typeof now)[]) if (now[k] !== was[k]) patch[k] = now[k];
  if (comment.trim()) patch.comment = comment.trim();
  return Object.keys(patch).length ? (patch as AnnotationUpdateRequest) : null;
}
