import { describe, expect, it } from 'vitest';
import type { Annotation, AnnotationChangedEvent } from '@sitewalk/proto';
import { snapshotView, applyEventToPage, applySnagEvent, commonNextStatuses, recount, snagFromSearch, snagIdOfMarker, snagMarkerId, snagViewerPath, statusChoices } from './snag-logic';

const snag = (over: Partial<Annotation> = {}): Annotation & { can_edit: boolean } =>
  ({ id: 1, id_project: 2, visit_code: 'abc', id_room: 5, status: 'open', title: 'Crack', can_edit: true, ...over }) as Annotation & { can_edit: boolean };
// Events carry no can_edit: that is each user's own.
const shared = (a: Partial<Annotation>): Annotation => {
  const { can_edit: _c, ...rest } = snag(a);
  return rest;
};
const event = (action: AnnotationChangedEvent['action'], a: Partial<Annotation>): AnnotationChangedEvent =>
  ({ action, id_project: 2, annotation: shared(a), actor: { id: 1, username: 'u', name: 'u' }, changes: [], comment: null, at: '' }) as AnnotationChangedEvent;

describe('snag rules on the client', () => {
  it('links into the viewer at the room, and reads the snag back from the address', () => {
    expect(snagViewerPath({ id: 9, visit_code: 'x y', id_room: 4 })).toBe('/viewer/x%20y/4?snag=9');
    expect(snagViewerPath({ id: 9, visit_code: 'k', id_room: null })).toBe('/viewer/k?snag=9');
    expect(snagFromSearch('?snag=9')).toBe(9);
    expect(snagFromSearch('?snag=../1')).toBeNull();
    expect(snagIdOfMarker(snagMarkerId(12))).toBe(12);
    expect(snagIdOfMarker('poi-12')).toBeNull();
  });

  it('offers the current status and where it may go; bulk offers only what every chosen snag may reach', () => {
    expect(statusChoices('ready_for_review')).toEqual(['ready_for_review', 'closed', 'rejected', 'in_progress']);
    expect(commonNextStatuses(['open', 'rejected'])).toEqual(['in_progress']);
    expect(commonNextStatuses([])).toEqual([]);
  });

  it('replaces a changed row in place, keeping can_edit, and removes a deleted one', () => {
    const list = [snag({ id: 1 }), snag({ id: 2, can_edit: false } as Partial<Annotation>)];
    const changed = applySnagEvent(list, event('updated', { id: 2, status: 'in_progress' }));
    expect(changed[1]).toMatchObject({ id: 2, status: 'in_progress', can_edit: false });
    expect(changed[0]).toBe(list[0]);
    expect(applySnagEvent(list, event('deleted', { id: 1 })).map((a) => a.id)).toEqual([2]);
  });

  it('adds a new snag only where it belongs, and drops one that moved away', () => {
    const inRoom = (a: Annotation) => a.id_room === 5;
    expect(applySnagEvent([], event('created', { id: 3, id_room: 5 }), inRoom)).toHaveLength(1);
    expect(applySnagEvent([], event('created', { id: 3, id_room: 6 }), inRoom)).toHaveLength(0);
    expect(applySnagEvent([snag({ id: 3 })], event('updated', { id: 3, id_room: 6 }), inRoom)).toHaveLength(0);
  });

  it('moves one count from the old status to the new', () => {
    const counts = { open: 2, in_progress: 0, ready_for_review: 0, closed: 0, rejected: 0 };
    expect(recount(counts, 'open', event('updated', { status: 'in_progress' }))).toMatchObject({ open: 1, in_progress: 1 });
    expect(recount(counts, 'open', event('deleted', { status: 'open' }))).toMatchObject({ open: 1 });
  });

  it('changes a row of the list page in place with its counts, and leaves a page without that snag as it was', () => {
    const page = { items: [snag({ id: 1 }), snag({ id: 2 })], counts: { open: 2, in_progress: 0, ready_for_review: 0, closed: 0, rejected: 0 } };
    const moved = applyEventToPage(page, event('updated', { id: 2, status: 'closed' }));
    expect(moved.items.map((a) => a.status)).toEqual(['open', 'closed']);
    expect(moved.items[1].can_edit).toBe(true);
    expect(moved.counts).toMatchObject({ open: 1, closed: 1 });
    expect(applyEventToPage(page, event('updated', { id: 7, status: 'closed' }))).toBe(page);
  });

  it('centres the snapshot on the pin, and keeps it inside the picture at the edges', () => {
    const mid = snapshotView(Math.PI, 0, 3);
    expect(mid.size).toBe('300% 300%');
    expect(mid.position).toBe('50.00% 50.00%');
    expect(mid.pin.left).toBeCloseTo(50);
    expect(mid.pin.top).toBeCloseTo(50);
    const edge = snapshotView(0.01, Math.PI / 2, 3);
    expect(edge.position).toBe('0.00% 0.00%');
    expect(edge.pin.left).toBeLessThan(5);
    expect(edge.pin.top).toBeCloseTo(0);
    expect(snapshotView(-Math.PI, 0).position).toBe(mid.position);
  });
});
