import { NOTICE_TERMS, isolate, notice, type AnnotationChangedEvent, type AnnotationStatus, type NoticeText } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { logger } from '../logger.js';
import { notify, type NotifyInput } from './notifications.service.js';
import { claimOverdueReminder, overdueSnagRows, type OverdueSnag } from '../repositories/annotations.repository.js';

/**
 * Who hears of what happens to a snag (issue 9): the assignee when it is
 * given to them, the supervisor (its author) when it is ready for review,
 * the author and the assignee when its status changes or someone comments —
 * never the person who did it. Each goes through notify() (the
 * notify.dispatch job), which applies the person's preferences for in-app,
 * live and e-mail delivery; the event's time in the key makes a repeated
 * event add nothing.
 */

/** The snag's place in the app: its visit's viewer opened on the snag (in its room when it has one), as the client links it. */
export function snagLink(a: Pick<AnnotationChangedEvent['annotation'], 'id' | 'visit_code' | 'id_room'>): string {
  const base = `/viewer/${encodeURIComponent(a.visit_code)}`;
  return `${a.id_room ? `${base}/${a.id_room}` : base}?snag=${a.id}`;
}

export interface PlannedNotice {
  userId: number;
  input: NotifyInput;
  /** Idempotency key: this event, this person. */
  key: string;
}

/** The notifications one snag event causes (pure: no database, no queue), at most one per person, as keys read in each person's language. */
export function noticesFor(event: AnnotationChangedEvent): PlannedNotice[] {
  if (event.action === 'deleted') return [];
  const a = event.annotation;
  const actor = event.actor;
  const where = { by: actor.name || actor.username, snag: a.title, project: a.project_name };
  const link = snagLink(a);
  const stamp = `${a.id}-${event.at}`;
  const out = new Map<number, PlannedNotice>();
  const add = (userId: number | null | undefined, kind: NotifyInput['kind'], text: NoticeText, what: string) => {
    if (!userId || userId === actor.id || out.has(userId)) return;
    out.set(userId, { userId, input: { kind, link, ...text }, key: `snag-${stamp}-${what}-u${userId}` });
  };
  const changed = (field: string) => event.changes.find((c) => c.field === field);
  const remark: { remark?: string } = event.comment ? { remark: event.comment } : {};
  const status = (s: unknown) => {
    const word = NOTICE_TERMS.status[s as AnnotationStatus];
    return word ? { term: word } : String(s);
  };

  const assignedNow = event.action === 'created' ? !!a.id_assignee : !!changed('id_assignee') && !!a.id_assignee;
  if (assignedNow) {
    add(a.id_assignee, 'snag_assigned', a.due_date ? notice('snagAssignedDue', { ...where, due: { day: a.due_date } }) : notice('snagAssigned', where), 'assigned');
  }
  const moved = changed('status');
  if (event.action === 'updated' && moved) {
    if (a.status === 'ready_for_review') {
      add(a.id_author, 'snag_updated', notice(event.comment ? 'snagReviewRemark' : 'snagReview', { ...where, ...remark }), 'review');
    }
    const text = notice(event.comment ? 'snagStatusRemark' : 'snagStatus', { ...where, from: status(moved.from), to: status(moved.to), ...remark });
    add(a.id_author, 'snag_updated', text, 'status');
    add(a.id_assignee, 'snag_updated', text, 'status');
  } else if (event.action === 'updated' && event.comment) {
    const text = notice('snagComment', { ...where, remark: event.comment });
    add(a.id_author, 'snag_updated', text, 'comment');
    add(a.id_assignee, 'snag_updated', text, 'comment');
  }
  return [...out.values()];
}

/** Queues the notifications of one snag event. Never throws: the change is saved whatever happens here. */
export async function notifyAnnotationChange(event: AnnotationChangedEvent): Promise<void> {
  for (const n of noticesFor(event)) {
    try {
      await notify(n.userId, n.input, { key: n.key });
    } catch (err) {
      logger.error({ err, annotation: event.annotation.id, user_id: n.userId }, 'could not queue a snag notification');
    }
  }
}

export type { OverdueSnag };

/** How many overdue snags one reminder names; the rest are counted. */
const LISTED = 10;

/** The reminder's text: a count (its plural form in each language) and one line per snag, the first LISTED of them. */
export function reminderText(snags: readonly OverdueSnag[]): NoticeText {
  const lines = snags.slice(0, LISTED).map((s) => `• ${isolate(s.title)} (${isolate(s.project_name)}) · ${s.due_date}`);
  if (snags.length > LISTED) lines.push(`… +${snags.length - LISTED}`);
  return notice('snagOverdue', { n: snags.length, list: { lines } });
}

/**
 * The daily reminder for `day`: every person with snags that are not closed
 * and were due before that day (the assignee; the author when nobody is
 * assigned) gets one notification listing them. A row in
 * annotation_reminders per person and day, written in the same transaction
 * as the queueing, makes a second run that day (another worker, a retry)
 * send nothing. Returns who was reminded.
 */
export async function sendOverdueReminders(day: string): Promise<number[]> {
  const rows = await overdueSnagRows(db(), day);
  const byUser = new Map<number, OverdueSnag[]>();
  for (const r of rows) byUser.set(r.id_user, [...(byUser.get(r.id_user) ?? []), r]);
  const reminded: number[] = [];
  for (const [userId, snags] of byUser) {
    try {
      const sent = await db().transaction(async (trx) => {
        if (!(await claimOverdueReminder(trx, userId, day, snags.length))) return false;
        await notify(userId, { kind: 'snag_overdue', ...reminderText(snags), type: 'error', link: '/snaglist?due=overdue&assignee=me' }, { key: `snag-overdue-${day}-u${userId}` });
        return true;
      });
      if (sent) reminded.push(userId);
    } catch (err) {
      logger.error({ err, user_id: userId, day }, 'could not send an overdue reminder');
    }
  }
  return reminded;
}
