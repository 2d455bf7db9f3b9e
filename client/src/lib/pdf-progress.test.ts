import { describe, expect, it } from 'vitest';
import type { JobProgressEvent, PdfUpload } from '@sitewalk/proto';
import { applyProgressEvent, initiallyHidden, isPdfEventFor, sheetsToFetch, uploadsFrom, visibleUploads } from './pdf-progress';

const upload = (over: Partial<PdfUpload> = {}): PdfUpload => ({
  id: 5,
  id_project: 9,
  original_name: 'plans.pdf',
  size_bytes: 1000,
  status: 'queued',
  pages_total: null,
  pages_done: 0,
  error: null,
  sheet_ids: [],
  file_stored: true,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  ...over,
});

const event = (over: Partial<JobProgressEvent> & { detail?: Record<string, unknown> }): JobProgressEvent => ({
  job: 'sheet.from-pdf',
  subject: { kind: 'pdf-upload', id: 5 },
  project_id: 9,
  state: 'active',
  percent: 0,
  message: '',
  ...over,
});

describe('PDF upload progress', () => {
  it('starts from what the project answer says, so a reload resumes the bar', () => {
    const u = uploadsFrom([upload({ status: 'processing', pages_total: 4, pages_done: 1, sheet_ids: [30] })]);
    expect(u[5]).toMatchObject({ name: 'plans.pdf', status: 'processing', percent: 25, pagesDone: 1, pagesTotal: 4, sheetIds: [30] });
  });

  it('moves page by page with the live events', () => {
    let u = uploadsFrom([upload()]);
    u = applyProgressEvent(u, event({ percent: 33, message: 'Page 1 of 3', detail: { pages_done: 1, pages_total: 3, id_map: 30, sheet_ids: [30] } }));
    expect(u[5]).toMatchObject({ status: 'processing', percent: 33, pagesDone: 1, pagesTotal: 3, sheetIds: [30], error: null });
    u = applyProgressEvent(u, event({ state: 'completed', percent: 100, message: 'Done', detail: { pages_done: 3, pages_total: 3, sheet_ids: [30, 31, 32] } }));
    expect(u[5]).toMatchObject({ status: 'done', percent: 100, sheetIds: [30, 31, 32] });
  });

  it('changes nothing when the same event arrives twice (user room and project room)', () => {
    const e = event({ percent: 50, message: 'Page 1 of 2', detail: { pages_done: 1, pages_total: 2, sheet_ids: [30] } });
    const once = applyProgressEvent(uploadsFrom([upload()]), e);
    expect(applyProgressEvent(once, e)).toBe(once);
  });

  it('never takes a finished upload back with a late event', () => {
    const done = applyProgressEvent({}, event({ state: 'completed', percent: 100, detail: { pages_done: 2, pages_total: 2, sheet_ids: [1, 2] } }), 'a.pdf');
    expect(applyProgressEvent(done, event({ state: 'active', percent: 50 }))).toBe(done);
  });

  it('keeps the reason of a failure for the user', () => {
    const u = applyProgressEvent(uploadsFrom([upload()]), event({ state: 'failed', percent: 0, message: 'The PDF is protected by a password.' }));
    expect(u[5]).toMatchObject({ status: 'failed', error: 'The PDF is protected by a password.' });
  });

  it('follows an upload it has not heard of yet, under the name of the file being sent', () => {
    const u = applyProgressEvent({}, event({ subject: { kind: 'pdf-upload', id: 8 }, state: 'queued' }), 'tower.pdf');
    expect(u[8]).toMatchObject({ name: 'tower.pdf', status: 'queued' });
  });

  it('listens only to sheet.from-pdf events of this project', () => {
    expect(isPdfEventFor(event({}), 9)).toBe(true);
    expect(isPdfEventFor(event({ project_id: 10 }), 9)).toBe(false);
    expect(isPdfEventFor(event({ job: 'video.process' }), 9)).toBe(false);
  });

  it('asks for the sheets an event reports that the page does not show yet', () => {
    const e = event({ detail: { pages_done: 2, pages_total: 3, id_map: 31, sheet_ids: [30, 31] } });
    expect(sheetsToFetch(e, new Set([30]))).toEqual([31]);
    expect(sheetsToFetch(e, new Set([30, 31]))).toEqual([]);
  });

  it('after a load, hides finished uploads but a failure of the newest one', () => {
    const u = uploadsFrom([
      upload({ id: 1, status: 'done' }),
      upload({ id: 2, status: 'failed', error: 'old' }),
      upload({ id: 3, status: 'processing' }),
      upload({ id: 4, status: 'failed', error: 'The file is damaged.' }),
    ]);
    expect([...initiallyHidden(u)].sort()).toEqual([1, 2]);
    expect(visibleUploads(u, initiallyHidden(u)).map((x) => x.id)).toEqual([4, 3]);
    // Once a newer upload exists, an older failure is old news.
    const later = uploadsFrom([upload({ id: 4, status: 'failed' }), upload({ id: 5, status: 'queued' })]);
    expect([...initiallyHidden(later)]).toEqual([4]);
  });
});
