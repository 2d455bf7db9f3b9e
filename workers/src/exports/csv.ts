import { stringify } from 'csv-stringify/sync';
import { english, priorityLabel, readableTime, statusLabel, type SnagRecord, type Translate } from './snag-record.js';

/** The columns of the CSV export, in order (English; the headings are in the requester's language). */
export const CSV_COLUMNS = [
  'ID', 'Title', 'Description', 'Status', 'Priority', 'Assignee', 'Author', 'Due date', 'Overdue',
  'Project', 'Visit', 'Visit date', 'Room', 'Sheet', 'Sheet X', 'Sheet Y', 'Yaw (°)', 'Pitch (°)',
  'Files', 'Created', 'Updated', 'Link',
] as const;

/**
 * Spreadsheets run a cell that starts with = + - @ (or a tab or carriage
 * return, which some strip first) as a formula, so a snag titled
 * "=HYPERLINK(...)" would become a live link or worse in the reader's
 * spreadsheet (OWASP "CSV injection"). Such text gets a leading apostrophe,
 * which spreadsheets show as plain text. Numbers are written as numbers.
 */
export function defuseCell(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const deg = (rad: number | null) => (rad == null ? null : Math.round((rad * 180) / Math.PI * 10) / 10);

/**
 * The snags as CSV (RFC 4180: comma separated, CRLF line ends, quotes where
 * needed), with a header row and a UTF-8 byte order mark so spreadsheet
 * programs read Arabic text correctly.
 */
export function snagsToCsv(snags: readonly SnagRecord[], t: Translate = english): string {
  const rows = snags.map((s) => [
    s.id,
    s.title,
    s.description,
    statusLabel(s.status, t),
    priorityLabel(s.priority, t),
    s.assignee ?? '',
    s.author ?? '',
    s.due_date ?? '',
    s.overdue ? t('Yes') : t('No'),
    s.project_name,
    s.visit_name,
    s.visit_date ?? '',
    s.room_name ?? '',
    s.map_name ?? '',
    s.x == null ? null : Math.round(s.x),
    s.y == null ? null : Math.round(s.y),
    deg(s.yaw),
    deg(s.pitch),
    s.files.join('; '),
    readableTime(s.created_at),
    readableTime(s.updated_at),
    s.link,
  ]);
  return stringify([CSV_COLUMNS.map((c) => t(c)), ...rows], {
    bom: true,
    record_delimiter: 'windows',
    cast: { string: (v) => defuseCell(v) },
  });
}
