import { z } from 'zod';
import { formatDay, formatNumber, isolate } from './locale-format.js';

/**
 * Notifications are stored as message keys with parameters (issue 25 item 6)
 * and rendered in the reader's language: by the client with i18next when it
 * shows them, and by the server (same translation files, same i18next rules)
 * for the API's title/message fields and for e-mails. The keys are English
 * texts with '{name}' placeholders, as every other text of the app; their
 * Arabic lives in proto/translations/ar.json.
 */

/**
 * One value put into a notification's text:
 * - a string is the user's own words (a name, a title), isolated so its
 *   direction does not reorder the sentence around it;
 * - a number is shown with the reader's digits; `n` also picks the plural form;
 * - {day} is a calendar day (YYYY-MM-DD) shown in the reader's language;
 * - {term} is a word of the app ('In progress', 'Viewer') translated too;
 * - {lines} is a list the server wrote, one item a line, its names already
 *   isolated (the overdue reminder's snags).
 */
export type NoticeParam = string | number | { day: string } | { term: string; context?: string } | { lines: string[] };
export type NoticeParams = Record<string, NoticeParam>;

export const noticeParamsSchema = z.record(
  z.string().regex(/^\w{1,40}$/),
  z.union([
    z.string().max(2000),
    z.number().finite(),
    z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }).strict(),
    z.object({ term: z.string().max(200), context: z.string().max(40).optional() }).strict(),
    z.object({ lines: z.array(z.string().max(600)).max(20) }).strict(),
  ]),
);

/** A notification's text as keys: what notify() takes instead of a plain title and message. */
export interface NoticeText {
  title_key: string;
  message_key: string;
  params?: NoticeParams;
}

/** A translation function as i18next's t: a key and its variables. */
export type Translate = (key: string, vars?: Record<string, unknown>) => string;

/**
 * The i18next variables of a notification's parameters in a language. `{site}`
 * is not a parameter: each side fills it with the site's current name.
 */
export function noticeVariables(params: NoticeParams | null | undefined, locale: string, t: Translate): Record<string, string | number> {
  const vars: Record<string, string | number> = {};
  for (const [name, v] of Object.entries(params ?? {})) {
    if (typeof v === 'number') vars[name] = formatNumber(v, locale);
    else if (typeof v === 'string') vars[name] = isolate(v);
    else if ('day' in v) vars[name] = isolate(formatDay(v.day, locale));
    else if ('lines' in v) vars[name] = v.lines.join('\n');
    else vars[name] = t(v.term, v.context ? { context: v.context } : undefined);
  }
  if (typeof params?.n === 'number') vars.count = params.n;
  return vars;
}

/** A notification's title and message in a language: from its keys when it has them, else its stored text (older ones), translated if it is a known text. */
export function noticeInLanguage(
  n: { title: string; message: string; title_key?: string | null; message_key?: string | null; params?: NoticeParams | null },
  locale: string,
  t: Translate,
): { title: string; message: string } {
  if (!n.title_key || !n.message_key) return { title: t(n.title), message: t(n.message) };
  const vars = noticeVariables(n.params, locale, t);
  return { title: t(n.title_key, vars), message: t(n.message_key, vars) };
}

/**
 * The notification texts the server sends, each a title key and a message
 * key (English, with placeholders). The translations test checks both
 * languages have them with the same placeholders.
 */
export const NOTICES = {
  snagAssigned: { title_key: 'Snag assigned to you', message_key: '{by} assigned you the snag "{snag}" ({project}).' },
  snagAssignedDue: { title_key: 'Snag assigned to you', message_key: '{by} assigned you the snag "{snag}" ({project}), due {due}.' },
  snagReview: { title_key: 'Snag ready for review', message_key: '{by} marked the snag "{snag}" ({project}) ready for your review.' },
  snagReviewRemark: { title_key: 'Snag ready for review', message_key: '{by} marked the snag "{snag}" ({project}) ready for your review: "{remark}"' },
  snagStatus: { title_key: 'Snag status changed', message_key: '{by} moved the snag "{snag}" ({project}) from {from} to {to}.' },
  snagStatusRemark: { title_key: 'Snag status changed', message_key: '{by} moved the snag "{snag}" ({project}) from {from} to {to}: "{remark}"' },
  snagComment: { title_key: 'New comment on a snag', message_key: '{by} commented on the snag "{snag}" ({project}): "{remark}"' },
  /** `list`: {lines}, one per snag ("• title (project) · day"); the day stays as written (YYYY-MM-DD reads alike in both languages). */
  snagOverdue: { title_key: 'You have {n} overdue snags', message_key: 'Snags past their due date:\n{list}' },
  teamInvitation: { title_key: 'Project invitation', message_key: '{by} invited you to join the project "{project}" as {role}.' },
  joinRequest: { title_key: 'Join request', message_key: '{name} asks to join the project "{project}".' },
  joinAccepted: { title_key: 'Join request accepted', message_key: 'You are now a member of the project "{project}" as {role}.' },
  joinDeclined: { title_key: 'Join request declined', message_key: 'Your request to join the project "{project}" was declined.' },
  visitCreated: { title_key: 'New visit', message_key: '{by} added the visit "{visit}" ({date}) to "{project}".' },
  projectCreated: { title_key: 'New project', message_key: '{by} created the project "{project}".' },
  projectCreatedAwaiting: { title_key: 'New project', message_key: '{by} created the project "{project}". It is awaiting approval.' },
  planInvitation: { title_key: 'Plan invitation', message_key: '{by} invited you to join the plan "{plan}". Accept or decline it on your profile.' },
  planChanged: { title_key: 'Your plan changed', message_key: 'Your plan is now "{plan}", until {day}.' },
  planCancelled: { title_key: 'Your plan was cancelled', message_key: 'Your plan "{plan}" was cancelled.' },
  planExpiring: { title_key: 'Your plan expires soon', message_key: 'Your plan "{plan}" expires on {day} (in {n} days). Renew it to keep your members and limits.' },
  planExpired: { title_key: 'Your plan has expired', message_key: 'Your plan "{plan}" expired on {day}.' },
  registration: { title_key: 'New registration', message_key: '{name} ({email}) signed up.' },
  registrationAwaiting: { title_key: 'New registration', message_key: '{name} ({email}) signed up and waits for e-mail activation.' },
  sheetsReady: { title_key: 'Sheets ready', message_key: '{n} sheets from "{file}" are ready in "{project}".' },
  sheetsFailed: { title_key: 'PDF plan not turned into sheets', message_key: '"{file}": {reason}' },
  mailWorks: { title_key: 'Mail server works', message_key: '{site} can send e-mail through {server}.' },
  mailFails: { title_key: 'Mail server check failed', message_key: '{site} cannot send e-mail: {reason} Password recovery and e-mail notifications are off until this is fixed.' },
} as const satisfies Record<string, { title_key: string; message_key: string }>;

/** A catalogue notice with its parameters, ready for notify(). */
export const notice = (which: keyof typeof NOTICES, params: NoticeParams = {}): NoticeText => ({ ...NOTICES[which], params });

/** Words of the app put into notifications as {term}: a snag's status and a member's role, as a sentence says them. */
export const NOTICE_TERMS = {
  status: { open: 'open', in_progress: 'in progress', ready_for_review: 'ready for review', closed: 'closed', rejected: 'rejected' },
  role: { project_admin: 'project admin', editor: 'editor', viewer: 'viewer', guest: 'guest' },
} as const;

/** Every key a notification may use (catalogue and terms), for the translations test. */
export const NOTICE_KEYS: readonly string[] = [
  ...Object.values(NOTICES).flatMap((n) => [n.title_key, n.message_key]),
  ...Object.values(NOTICE_TERMS).flatMap((group) => Object.values(group)),
];

/** The keys of NOTICES whose text has plural forms (a count `n`). */
export const PLURAL_NOTICE_KEYS: readonly string[] = [NOTICES.snagOverdue.title_key, NOTICES.planExpiring.message_key, NOTICES.sheetsReady.message_key];
