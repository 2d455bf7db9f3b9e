import { describe, expect, it } from 'vitest';
import {
  ANNOTATION_STATUSES,
  ANNOTATION_BULK_MAX,
  annotationBulkStatusSchema,
  annotationCreateSchema,
  annotationFileDeleteQuerySchema,
  annotationListQuerySchema,
  annotationUpdateSchema,
  canChangeStatus,
  isOverdue,
  nextStatuses,
} from './annotations.js';

describe('snag status transitions', () => {
  it('walks open → in progress → ready for review → closed', () => {
    expect(canChangeStatus('open', 'in_progress')).toBe(true);
    expect(canChangeStatus('in_progress', 'ready_for_review')).toBe(true);
    expect(canChangeStatus('ready_for_review', 'closed')).toBe(true);
  });

  it('sends a rejected snag back to open, and reopens a closed one', () => {
    expect(canChangeStatus('ready_for_review', 'rejected')).toBe(true);
    expect(canChangeStatus('rejected', 'open')).toBe(true);
    expect(canChangeStatus('closed', 'open')).toBe(true);
  });

  it('refuses shortcuts that skip the review', () => {
    expect(canChangeStatus('in_progress', 'closed')).toBe(false);
    expect(canChangeStatus('open', 'rejected')).toBe(false);
    expect(canChangeStatus('closed', 'ready_for_review')).toBe(false);
  });

  it('always lets a status stay as it is, and never lists it as a next step', () => {
    for (const s of ANNOTATION_STATUSES) {
      expect(canChangeStatus(s, s)).toBe(true);
      expect(nextStatuses(s)).not.toContain(s);
    }
  });

  it('calls a snag overdue only when it is not closed and past its date', () => {
    expect(isOverdue({ status: 'open', due_date: '2026-01-01' }, '2026-01-02')).toBe(true);
    expect(isOverdue({ status: 'open', due_date: '2026-01-02' }, '2026-01-02')).toBe(false);
    expect(isOverdue({ status: 'closed', due_date: '2026-01-01' }, '2026-01-02')).toBe(false);
    expect(isOverdue({ status: 'open', due_date: null }, '2026-01-02')).toBe(false);
  });
});

describe('snag bodies', () => {
  it('needs yaw and pitch for a pin in a room, and x with y on a sheet', () => {
    expect(annotationCreateSchema.safeParse({ id_visit: 1, title: 'Crack', id_room: 2 }).success).toBe(false);
    expect(annotationCreateSchema.safeParse({ id_visit: 1, title: 'Crack', id_room: 2, yaw: 1, pitch: 0 }).success).toBe(true);
    expect(annotationCreateSchema.safeParse({ id_visit: 1, title: 'Crack', id_map: 3, x: 5 }).success).toBe(false);
    expect(annotationCreateSchema.safeParse({ id_visit: 1, title: 'Crack', x: 5, y: 6 }).success).toBe(false);
    expect(annotationCreateSchema.safeParse({ id_visit: 1, title: ' ' }).success).toBe(false);
  });

  it('refuses an empty update and unknown fields', () => {
    expect(annotationUpdateSchema.safeParse({}).success).toBe(false);
    expect(annotationUpdateSchema.safeParse({ id_project: 2 }).success).toBe(false);
    expect(annotationUpdateSchema.safeParse({ status: 'in_progress' }).success).toBe(true);
  });

  it('accepts only server-chosen file names', () => {
    const ok = { filename: '0f8fad5b-d9cb-469f-a165-70867728950e.jpg', id_visit: '3' };
    expect(annotationFileDeleteQuerySchema.safeParse(ok).success).toBe(true);
    expect(annotationFileDeleteQuerySchema.safeParse({ ...ok, filename: '../../etc/passwd' }).success).toBe(false);
    expect(annotationFileDeleteQuerySchema.safeParse({ ...ok, filename: '0f8fad5b-d9cb-469f-a165-70867728950e.jpg/../x' }).success).toBe(false);
  });

  it('reads comma lists of statuses in the list query', () => {
    const q = annotationListQuerySchema.parse({ status: 'open,in_progress', assignee: 'me' });
    expect(q.status).toEqual(['open', 'in_progress']);
    expect(q.assignee).toBe('me');
    expect(annotationListQuerySchema.parse({ assignee: '7' }).assignee).toBe(7);
    expect(annotationListQuerySchema.safeParse({ status: 'done' }).success).toBe(false);
  });

  it('takes a bulk status change of distinct snag ids, and says what is wrong with a bad one', () => {
    expect(annotationBulkStatusSchema.parse({ ids: [3, '4'], status: 'closed' })).toEqual({ ids: [3, 4], status: 'closed' });
    const message = (body: unknown) => annotationBulkStatusSchema.safeParse(body).error?.issues[0]?.message;
    expect(message({ ids: [], status: 'closed' })).toBe('Choose at least one snag.');
    expect(message({ ids: [3, 3], status: 'closed' })).toBe('Each snag may appear only once.');
    expect(message({ ids: Array.from({ length: ANNOTATION_BULK_MAX + 1 }, (_, i) => i + 1), status: 'closed' })).toBe(`Move at most ${ANNOTATION_BULK_MAX} snags at once.`);
    expect(message({ ids: [3], status: 'done' })).toMatch(/^status must be one of/);
    expect(message({ ids: [3], status: 'open', title: 'x' })).toBeDefined();
  });
});
