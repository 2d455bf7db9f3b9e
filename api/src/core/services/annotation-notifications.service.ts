import type { Knex } from 'knex';
import type { AnnotationChangedEvent, AnnotationStatus } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { logger } from '../logger.js';
import { notify, type NotifyInput } from './notifications.service.js';
import { getSettings } from './settings.service.js';

/**
 * Who hears of what happens to a snag (issue 9): the assignee when it is
 * given to them, the supervisor (its author) when it is ready for review,
 * the author and the assignee when its status changes or someone comments —
 * never the person who did it. Each goes through notify() (the
 * notify.dispatch job), which applies the person's preferences for in-app,
 * live and e-mail delivery; the event's time in the key makes a repeated
 * event add nothing.
 */

const STATUS_WORDS: Record<AnnotationStatus, string> = {
  open: 'open',
  in_progress: 'in progress',
  ready_for_review: 'ready for review',
  closed: 'closed',
  rejected: 'rejected',
};

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

/** The notifications one snag event causes (pure: no database, no queue), at most one per person. */
export function noticesFor(event: AnnotationChangedEvent): PlannedNotice[] {
  if (event.action === 'deleted') return [];
  const a = event.annotation;
  const actor = event.actor;
  const by = actor.name || actor.username;
  const where = `"${a.title}" (${a.project_name})`;
  const link = snagLink(a);
  const stamp = `${a.id}-${event.at}`;
  const out = new Map<number, PlannedNotice>();
  const add = (userId: number | null | undefined, kind: NotifyInput['kind'], title: string, message: string, what: string) => {
    if (!userId || userId === actor.id || out.has(userId)) return;
    out.set(userId, { userId, input: { kind, title, message, link }, key: `snag-${stamp}-${what}-u${userId}` });
  };
  const changed = (field: string) => event.changes.find((c) => c.field === field);
  const remark = event.comment ? ` "${event.comment}"` : '';

  const assignedNow = event.action === 'created' ? !!a.id_assignee : !!changed('id_assignee') && !!a.id_assignee;
  if (assignedNow) {
    add(a.id_assignee, 'snag_assigned', 'Snag assigned to you', `${by} assigned you the snag ${where}${a.due_date ? `, due ${a.due_date}` : ''}.`, 'assigned');
  }
  const status = changed('status');
  if (event.action === 'updated' && status) {
    const from = STATUS_WORDS[status.from as AnnotationStatus] ?? String(status.from);
    const to = STATUS_WORDS[status.to as AnnotationStatus] ?? String(status.to);
    if (a.status === 'ready_for_review') {
      add(a.id_author, 'snag_updated', 'Snag ready for review', `${by} marked the snag ${where} ready for your review.${remark}`, 'review');
    }
    const text = `${by} moved the snag ${where} from ${from} to ${to}.${remark}`;
    add(a.id_author, 'snag_updated', 'Snag status changed', text, 'status');
    add(a.id_assignee, 'snag_updated', 'Snag status changed', text, 'status');
  } else if (event.action === 'updated' && event.comment) {
    const text = `${by} commented on the snag ${where}: "${event.comment}"`;
    add(a.id_author, 'snag_updated', 'New comment on a snag', text, 'comment');
    add(a.id_assignee, 'snag_updated', 'New comment on a snag', text, 'comment');
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

/** Today (YYYY-MM-DD) in the site's timezone (setting `timezone`), the day the reminders are for. */
export async function siteToday(now = new Date(), k: Knex = db()): Promise<string> {
  const { timezone } = await getSettings(k);
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone: timezone || 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

export interface OverdueSnag {
  id: number;
  title: string;
  due_date: string;
  project_name: string;
}

/** How many overdue snags one reminder names; the rest are counted. */
const LISTED = 10;

export function reminderText(snags: readonly OverdueSnag[]): { title: string; message: string } {
  const lines = snags.slice(0, LISTED).map((s) => `• ${s.title} (${s.project_name}), due ${s.due_date}`);
  if (snags.length > LISTED) lines.push(`… and ${snags.length - LISTED} more`);
  return {
    title: snags.length === 1 ? 'You have an overdue snag' : `You have ${snags.length} overdue snags`,
    message: lines.join('\n'),
  };
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
  const rows: (OverdueSnag & { id_user: number })[] = await db()('annotations as a')
    .join('projects as p', 'p.id', 'a.id_project')
    .join('users as u', 'u.id', db().raw('coalesce(a.id_assignee, a.id_author)'))
    .where('u.active', true)
    .whereNot('a.status', 'closed')
    .whereNotNull('a.due_date')
    .where('a.due_date', '<', day)
    .select('a.id', 'a.title', db().raw(`to_char(a.due_date, 'YYYY-MM-DD') as due_date`), 'p.name as project_name', 'u.id as id_user')
    .orderBy([{ column: 'a.due_date', order: 'asc' }, { column: 'a.id', order: 'asc' }]);
  const byUser = new Map<number, OverdueSnag[]>();
  for (const r of rows) byUser.set(r.id_user, [...(byUser.get(r.id_user) ?? []), r]);
  const reminded: number[] = [];
  for (const [userId, snags] of byUser) {
    try {
      const sent = await db().transaction(async (trx) => {
        const fresh = await trx('annotation_reminders').insert({ id_user: userId, day, snags: snags.length }).onConflict(['id_user', 'day']).ignore().returning('id_user');
        if (!fresh.length) return false;
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
