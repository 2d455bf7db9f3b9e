import { describe, expect, it } from 'vitest';
import { withoutIsolates, type Annotation, type AnnotationChangedEvent, type NoticeText } from '@sitewalk/proto';
import { noticesFor, reminderText, type PlannedNotice } from './annotation-notifications.service.js';
import { renderNotice } from './notice-text.js';

/** The notice as a reader of `lang` sees it (isolate marks left out to compare). */
async function read(text: PlannedNotice['input'] | NoticeText, lang = 'en') {
  const r = await renderNotice({ title: '', message: '', ...(text as NoticeText) }, lang, 'SiteWalk');
  return { title: withoutIsolates(r.title), message: withoutIsolates(r.message) };
}

const AUTHOR = 1, ASSIGNEE = 2, OTHER = 3;
const person = (id: number) => ({ id, username: `u${id}`, name: `User ${id}` });

const snag = (over: Partial<Annotation> = {}): Annotation => ({
  id: 9, id_project: 4, project_name: 'Tower B', id_visit: 5, visit_name: 'Walk', visit_code: 'ABC', id_room: 6, room_name: 'Lobby',
  yaw: 0, pitch: 0, zoom: 50, id_map: null, map_name: null, x: null, y: null, title: 'Cracked tile', description: '',
  status: 'open', priority: 'high', id_assignee: ASSIGNEE, assignee: person(ASSIGNEE), due_date: '2026-12-01', overdue: false,
  files: [], id_author: AUTHOR, author: person(AUTHOR), snapshot_url: null, created_at: '2026-11-26T10:00:00Z', updated_at: '2026-11-26T10:00:00Z',
  ...over,
});

const event = (over: Partial<AnnotationChangedEvent>): AnnotationChangedEvent => ({
  action: 'updated', id_project: 4, annotation: snag(), actor: person(AUTHOR), changes: [], comment: null, at: '2026-11-26T10:00:00.000Z', ...over,
});

describe('who hears of a snag event', () => {
  it('a new snag given to someone tells the assignee, with the due date and a link into the 360 view, in their language', async () => {
    const n = noticesFor(event({ action: 'created' }));
    expect(n).toHaveLength(1);
    expect(n[0]).toMatchObject({ userId: ASSIGNEE, input: { kind: 'snag_assigned', title_key: 'Snag assigned to you', link: '/viewer/ABC/6?snag=9' } });
    expect(await read(n[0].input)).toEqual({ title: 'Snag assigned to you', message: 'User 1 assigned you the snag "Cracked tile" (Tower B), due Dec 1, 2026.' });
    const ar = await read(n[0].input, 'ar');
    expect(ar.title).toBe('أُسندت إليك ملاحظة');
    expect(ar.message).toBe(`أسند إليك User 1 الملاحظة «Cracked tile» (Tower B)، وموعدها ${new Intl.DateTimeFormat('ar', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date('2026-12-01T00:00:00Z'))}.`);
  });

  it('isolates each inserted name, so an English name keeps its place in an Arabic sentence', async () => {
    const [n] = noticesFor(event({ action: 'created' }));
    const r = await renderNotice({ title: '', message: '', ...(n.input as NoticeText) }, 'ar', 'SiteWalk');
    expect(r.message).toContain('«\u2068Cracked tile\u2069»');
    expect(r.message).toContain('(\u2068Tower B\u2069)');
  });

  it('nobody hears of what they did themselves', () => {
    expect(noticesFor(event({ action: 'created', annotation: snag({ id_assignee: AUTHOR }) }))).toEqual([]);
  });

  it('reassignment tells the new assignee only', () => {
    const n = noticesFor(event({ changes: [{ field: 'id_assignee', from: OTHER, to: ASSIGNEE }] }));
    expect(n.map((x) => [x.userId, x.input.kind])).toEqual([[ASSIGNEE, 'snag_assigned']]);
  });

  it('ready for review tells the supervisor (the author) to review it', async () => {
    const n = noticesFor(event({ actor: person(ASSIGNEE), annotation: snag({ status: 'ready_for_review' }), changes: [{ field: 'status', from: 'in_progress', to: 'ready_for_review' }], comment: 'Replaced' }));
    expect(n).toHaveLength(1);
    expect(n[0]).toMatchObject({ userId: AUTHOR, input: { kind: 'snag_updated', title_key: 'Snag ready for review' } });
    expect((await read(n[0].input)).message).toContain('"Replaced"');
  });

  it('another status change tells the author and the assignee, not the one who moved it, the statuses in their words', async () => {
    const n = noticesFor(event({ actor: person(OTHER), annotation: snag({ status: 'closed' }), changes: [{ field: 'status', from: 'ready_for_review', to: 'closed' }] }));
    expect(n.map((x) => x.userId).sort()).toEqual([AUTHOR, ASSIGNEE]);
    expect((await read(n[0].input)).message).toBe('User 3 moved the snag "Cracked tile" (Tower B) from ready for review to closed.');
    expect((await read(n[0].input, 'ar')).message).toBe('نقل User 3 الملاحظة «Cracked tile» (Tower B) من «جاهزة للمراجعة» إلى «مغلقة».');
  });

  it('a comment tells the author and the assignee; a deletion tells nobody', () => {
    expect(noticesFor(event({ actor: person(ASSIGNEE), comment: 'Tiles ordered' })).map((x) => [x.userId, 'title_key' in x.input && x.input.title_key])).toEqual([[AUTHOR, 'New comment on a snag']]);
    expect(noticesFor(event({ action: 'deleted', actor: person(OTHER) }))).toEqual([]);
  });

  it('keys each notice by snag, event time and person, so a repeated event queues nothing new', () => {
    const a = noticesFor(event({ action: 'created' }));
    const b = noticesFor(event({ action: 'created' }));
    expect(a[0].key).toBe(b[0].key);
    expect(noticesFor(event({ action: 'created', at: '2026-11-27T10:00:00.000Z' }))[0].key).not.toBe(a[0].key);
  });

  it('a snag not pinned in a room links to its visit in the viewer', () => {
    expect(noticesFor(event({ action: 'created', annotation: snag({ id_room: null }) }))[0].input.link).toBe('/viewer/ABC?snag=9');
  });
});

describe('the overdue reminder text', () => {
  it('names up to ten snags and counts the rest, with the plural forms of each language', async () => {
    const snags = Array.from({ length: 12 }, (_, i) => ({ id: i, title: `Snag ${i}`, due_date: '2026-11-20', project_name: 'Tower B' }));
    const t = await read(reminderText(snags));
    expect(t.title).toBe('You have 12 overdue snags');
    expect(t.message.split('\n')).toHaveLength(12);
    expect(t.message).toContain('• Snag 0 (Tower B) · 2026-11-20');
    expect(t.message).toContain('… +2');
    expect((await read(reminderText(snags.slice(0, 1)))).title).toBe('You have an overdue snag');
    expect((await read(reminderText(snags.slice(0, 2)), 'ar')).title).toBe('لديك ملاحظتان متأخرتان');
    expect((await read(reminderText(snags.slice(0, 3)), 'ar')).title).toBe(`لديك ${new Intl.NumberFormat('ar').format(3)} ملاحظات متأخرة`);
    expect((await read(reminderText(snags.slice(0, 11)), 'ar')).title).toBe(`لديك ${new Intl.NumberFormat('ar').format(11)} ملاحظة متأخرة`);
  });
});
