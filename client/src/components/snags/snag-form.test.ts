import { describe, expect, it } from 'vitest';
import { annotationUpdateSchema, type AnnotationDetail } from '@sitewalk/proto';
import { snagChanges, snagFormOf } from './snag-form';

const snag = { id: 4, title: 'Crack', description: 'By the door', status: 'open', priority: 'medium', id_assignee: 7, due_date: '2026-04-01' } as AnnotationDetail;

describe('saving the snag panel', () => {
  it('sends only what the user changed, with ids and dates as the API takes them', () => {
    const form = { ...snagFormOf(snag), priority: 'high' as const, id_assignee: '', due_date: '' };
    const body = snagChanges(snag, form, '');
    expect(body).toEqual({ priority: 'high', id_assignee: null, due_date: null });
    expect(annotationUpdateSchema.safeParse(body).success).toBe(true);
  });

  it('does not send a status it did not change, so one moved meanwhile elsewhere stays', () => {
    expect(snagChanges(snag, { ...snagFormOf(snag), title: '  Wide crack ' }, '')).toEqual({ title: 'Wide crack' });
  });

  it('sends a comment alone, and nothing at all when nothing changed', () => {
    expect(snagChanges(snag, snagFormOf(snag), ' Tiler booked ')).toEqual({ comment: 'Tiler booked' });
    expect(snagChanges(snag, snagFormOf(snag), '  ')).toBeNull();
  });
});
