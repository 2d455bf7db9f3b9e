import { describe, expect, it } from 'vitest';
import type { JobProgressEvent } from '@sitewalk/proto';
import { annotationExportRequestSchema } from '@sitewalk/proto';
import { applyExportEvent, exportRequest, newerExportState, type ExportState } from './export-request';

describe('the export request of the snag list', () => {
  it('carries the format and the filters in use, which the API accepts', () => {
    const body = exportRequest('pdf', { id_project: '7', status: ['open', 'in_progress'], priority: 'high', assignee: 'me', due: 'overdue', search: ' tile ', sort: 'due_date', order: 'asc' });
    expect(body).toEqual({ format: 'pdf', id_project: 7, status: ['open', 'in_progress'], priority: ['high'], assignee: 'me', due: 'overdue', search: 'tile', sort: 'due_date', order: 'asc' });
    expect(annotationExportRequestSchema.safeParse(body).success).toBe(true);
  });

  it('leaves empty filters out', () => {
    const body = exportRequest('csv', { id_project: '', status: [], priority: '', assignee: '', due: '', search: '  ' });
    expect(body).toEqual({ format: 'csv' });
    expect(annotationExportRequestSchema.safeParse(body).success).toBe(true);
  });
});

describe('following an export live', () => {
  const start: ExportState = { id: 4, format: 'pdf', status: 'queued', percent: 0, message: 'Waiting to start', download_url: null };
  const ev = (over: Partial<JobProgressEvent>): JobProgressEvent => ({
    job: 'annotations.export', subject: { kind: 'annotation-export', id: 4 }, state: 'active', percent: 40, message: 'Drawing 2 of 5', ...over,
  });

  it('moves on with events about this export only', () => {
    const s = applyExportEvent(start, ev({}));
    expect(s).toMatchObject({ status: 'processing', percent: 40 });
    expect(applyExportEvent(s, ev({ subject: { kind: 'annotation-export', id: 5 }, percent: 90 }))).toBe(s);
    expect(applyExportEvent(s, ev({ subject: { kind: 'room', id: 4 }, percent: 90 }))).toBe(s);
  });

  it('never goes back: a late event after the end changes nothing', () => {
    const done = applyExportEvent(applyExportEvent(start, ev({})), ev({ state: 'completed', percent: 100, message: 'Ready' }));
    expect(done).toMatchObject({ status: 'completed', percent: 100 });
    expect(applyExportEvent(done, ev({ percent: 60 }))).toBe(done);
  });

  it('never goes back either when a status read that left before the end answers after it', () => {
    const running = applyExportEvent(start, ev({}));
    const done = applyExportEvent(running, ev({ state: 'completed', percent: 100, message: 'Ready' }));
    expect(newerExportState(done, running)).toBe(done);
    expect(newerExportState(running, done)).toBe(done);
    expect(newerExportState(undefined, running)).toBe(running);
    // The download asks again: a finished answer, with its new link, replaces the one kept.
    const fresh = { ...done, download_url: '/api/files/x?sig=new' };
    expect(newerExportState(done, fresh)).toBe(fresh);
  });
});
