import PDFDocument from 'pdfkit';
import { english, priorityLabel, readableTime, statusLabel, type PictureSource, type SnagRecord, type Translate } from './snag-record.js';
import { finished } from 'node:stream/promises';

/**
 * The PDF report of a snag list: a cover page with the counts, then one page
 * per snag with the 360 view at the pin, the sheet around the pin, its
 * fields and its history. DejaVu Sans (Debian fonts-dejavu-core) covers
 * Latin and Arabic; pdfkit shapes Arabic through fontkit. Text that would
 * not fit is cut with an ellipsis, so every snag stays on its one page.
 */

export const REPORT_FONTS = {
  regular: process.env.REPORT_FONT ?? '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  bold: process.env.REPORT_FONT_BOLD ?? '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
};

export interface PdfReportOptions {
  /** Shown on the cover: 'Snag list report'. */
  title: string;
  /** Lines under the title: the site name, who asked, the filters. */
  subtitle: string[];
  /** ISO time of the export. */
  generatedAt: string;
  /** The requester's language (default English). */
  t?: Translate;
}

const PAGE = { size: 'A4' as const, margin: 40 };
const STATUS_COLOUR: Record<string, string> = {
  open: '#d9534f',
  in_progress: '#f0ad4e',
  ready_for_review: '#5bc0de',
  closed: '#5cb85c',
  rejected: '#6c757d',
};

/** Right-to-left when the first letter with a direction is Arabic or Hebrew. */
export const isRtl = (text: string) => {
  const m = /[A-Za-z\u00C0-\u024F\u0590-\u08FF]/.exec(text);
  return !!m && /[\u0590-\u08FF]/.test(m[0]);
};

/**
 * Alignment for a text's direction. fontkit shapes and orders an Arabic line,
 * but pdfkit drops one space of it when words are laid with no extra
 * spacing; a negligible word spacing keeps every space.
 */
const dirOptions = (text: string) => (isRtl(text) ? { align: 'right' as const, wordSpacing: 0.001 } : { align: 'left' as const });

const deg = (rad: number) => `${Math.round((rad * 180) / Math.PI)}°`;

/**
 * Writes the PDF report into `out`, asking for each snag's pictures as it
 * reaches its page (pdfkit streams pages out as they are done, so memory
 * stays flat however long the list); `onSnag` is told after each page.
 */
export async function writePdfReport(
  snags: readonly SnagRecord[],
  pictures: PictureSource,
  opts: PdfReportOptions,
  out: NodeJS.WritableStream,
  onSnag?: (done: number) => void,
): Promise<void> {
  const doc = new PDFDocument({ size: PAGE.size, margin: PAGE.margin, autoFirstPage: false, info: { Title: opts.title, Creator: 'SiteWalk' } });
  doc.registerFont('regular', REPORT_FONTS.regular);
  doc.registerFont('bold', REPORT_FONTS.bold);
  const written = finished(doc.pipe(out));
  const t = opts.t ?? english;
  cover(doc, snags, opts, t);
  for (const [i, s] of snags.entries()) {
    snagPage(doc, s, await pictures(s), opts, t);
    onSnag?.(i + 1);
  }
  doc.end();
  await written;
}

type Doc = PDFKit.PDFDocument;

const contentWidth = (doc: Doc) => doc.page.width - 2 * PAGE.margin;

/** Text in its own direction: Arabic lines align right. */
function para(doc: Doc, text: string, o: PDFKit.Mixins.TextOptions & { x?: number; y?: number } = {}) {
  const { x = PAGE.margin, y = doc.y, ...rest } = o;
  doc.text(text, x, y, { width: contentWidth(doc), ...dirOptions(text), ...rest });
}

function footer(doc: Doc, opts: PdfReportOptions) {
  const y = doc.page.height - PAGE.margin + 12;
  doc.font('regular').fontSize(8).fillColor('#777777');
  // Writing below the bottom margin would start a new page; lift the margin for this line.
  const bottom = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  doc.text(`${opts.title} · ${readableTime(opts.generatedAt)}`, PAGE.margin, y, { width: contentWidth(doc), align: 'center', lineBreak: false });
  doc.page.margins.bottom = bottom;
  doc.fillColor('black');
}

function cover(doc: Doc, snags: readonly SnagRecord[], opts: PdfReportOptions, t: Translate) {
  doc.addPage();
  doc.font('bold').fontSize(22);
  para(doc, opts.title, { y: PAGE.margin + 20 });
  doc.moveDown(0.5).font('regular').fontSize(11).fillColor('#444444');
  for (const line of opts.subtitle) para(doc, line);
  para(doc, t('Generated {time}', { time: readableTime(opts.generatedAt) }));
  doc.fillColor('black').moveDown(1.5).font('bold').fontSize(13);
  para(doc, snags.length === 1 ? t('One snag') : t('{n} snags', { n: snags.length }));
  doc.moveDown(0.5).font('regular').fontSize(11);
  const counts = new Map<string, number>();
  for (const s of snags) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  for (const [status, n] of counts) {
    const y = doc.y;
    doc.rect(PAGE.margin, y + 2, 9, 9).fill(STATUS_COLOUR[status] ?? '#999999').fillColor('black');
    doc.text(`${statusLabel(status, t)}: ${n}`, PAGE.margin + 16, y);
  }
  const overdue = snags.filter((s) => s.overdue).length;
  if (overdue) para(doc, t('Overdue: {n}', { n: overdue }), { x: PAGE.margin + 16 });
  if (!snags.length) {
    doc.moveDown();
    para(doc, t('No snags match the filters of this export.'));
  }
  footer(doc, opts);
}

/** An image fitted into a box, or a grey box saying why there is none. */
function picture(doc: Doc, img: Buffer | undefined, x: number, y: number, w: number, h: number, caption: string, missing: string) {
  doc.font('bold').fontSize(9).text(caption, x, y, { width: w, ...dirOptions(caption) });
  const top = y + 14;
  if (img) {
    doc.image(img, x, top, { fit: [w, h], align: 'center', valign: 'center' });
    doc.rect(x, top, w, h).lineWidth(0.5).strokeColor('#bbbbbb').stroke();
  } else {
    doc.rect(x, top, w, h).fill('#f1f1f1');
    doc.fillColor('#777777').font('regular').fontSize(9).text(missing, x + 10, top + h / 2 - 6, { width: w - 20, align: 'center' });
    doc.fillColor('black');
  }
  doc.strokeColor('black');
}

function snagPage(doc: Doc, s: SnagRecord, pics: { snapshot?: Buffer; sheet?: Buffer }, opts: PdfReportOptions, t: Translate) {
  doc.addPage();
  const left = PAGE.margin;
  const width = contentWidth(doc);
  const bottom = doc.page.height - PAGE.margin;

  doc.font('bold').fontSize(15);
  para(doc, s.title, { y: left, height: 40, ellipsis: true });
  const badgeY = doc.y + 4;
  const badge = statusLabel(s.status, t);
  doc.font('bold').fontSize(9);
  const bw = doc.widthOfString(badge) + 12;
  doc.roundedRect(left, badgeY, bw, 15, 3).fill(STATUS_COLOUR[s.status] ?? '#999999');
  doc.fillColor('white').text(badge, left + 6, badgeY + 3, { lineBreak: false });
  doc.fillColor('black').font('regular').text(
    `${t('Snag #{id}', { id: s.id })}   ·   ${t('Priority: {priority}', { priority: priorityLabel(s.priority, t) })}${s.overdue ? `   ·   ${t('Overdue').toLocaleUpperCase()}` : ''}`,
    left + bw + 10,
    badgeY + 3,
    { lineBreak: false },
  );

  // The two pictures side by side.
  const gap = 15;
  const picW = (width - gap) / 2;
  const picH = picW * 0.75;
  const picY = badgeY + 26;
  picture(doc, pics.snapshot, left, picY, picW, picH, t('360 view at the pin'), s.room_name ? t('The room\u2019s 360 photo is not ready.') : t('Not pinned in a 360 view.'));
  picture(doc, pics.sheet, left + picW + gap, picY, picW, picH, t('Place on the sheet'), s.map_name ? t('The sheet is not ready.') : t('Not pinned on a sheet.'));

  // The fields, two columns of label and value.
  const LINK = t('Link');
  const fields: [string, string][] = [
    [t('Project'), s.project_name],
    [t('Visit'), s.visit_date ? `${s.visit_name} (${s.visit_date})` : s.visit_name],
    [t('Room'), s.room_name ? `${s.room_name}${s.yaw != null && s.pitch != null ? ` · ${t('yaw {yaw}, pitch {pitch}', { yaw: deg(s.yaw), pitch: deg(s.pitch) })}` : ''}` : '—'],
    [t('Sheet'), s.map_name ? `${s.map_name}${s.x != null && s.y != null ? ` · x ${Math.round(s.x)}, y ${Math.round(s.y)}` : ''}` : '—'],
    [t('Assignee'), s.assignee ?? '—'],
    [t('Author'), s.author ?? '—'],
    [t('Due date'), s.due_date ? `${s.due_date}${s.overdue ? ` ${t('(overdue)')}` : ''}` : '—'],
    [t('Created'), readableTime(s.created_at)],
    [t('Updated'), readableTime(s.updated_at)],
    [t('Files'), s.files.length ? s.files.join(', ') : '—'],
    [LINK, s.link],
  ];
  let y = picY + 14 + picH + 14;
  doc.fontSize(9).font('bold');
  // As wide as the longest label in this language, so none wraps into the next.
  const labelW = Math.min(160, Math.max(...fields.map(([label]) => doc.widthOfString(label))) + 10);
  for (const [label, value] of fields) {
    doc.font('bold').text(label, left, y, { width: labelW, lineBreak: false, ...(isRtl(label) ? { wordSpacing: 0.001 } : {}) });
    doc.font('regular');
    const opt = { width: width - labelW, height: 24, ellipsis: true, ...dirOptions(value) };
    const h = Math.min(doc.heightOfString(value, opt), 24);
    doc.text(value, left + labelW, y, opt);
    if (label === LINK) doc.link(left + labelW, y, width - labelW, h, s.link);
    y += Math.max(h, 11) + 3;
  }

  // The description gets what is left above the history's share.
  const historyLines = s.history.slice().reverse();
  const historyShare = historyLines.length ? Math.min(14 + historyLines.length * 22, 170) : 0;
  y += 6;
  doc.font('bold').fontSize(10);
  para(doc, t('Description'), { y });
  doc.font('regular').fontSize(9.5);
  const descH = Math.max(24, bottom - historyShare - (y + 16) - 10);
  const desc = s.description || '—';
  doc.text(desc, left, y + 16, { width, height: descH, ellipsis: true, ...dirOptions(desc) });
  y = Math.min(doc.y, y + 16 + descH) + 10;

  if (historyLines.length) {
    doc.font('bold').fontSize(10);
    para(doc, t('History (newest first)'), { y });
    y += 16;
    doc.fontSize(8.5);
    let shown = 0;
    for (const h of historyLines) {
      const line = `${readableTime(h.at)} · ${h.who ?? t('Someone')}: ${h.text}${h.comment ? ` — “${h.comment}”` : ''}`;
      const opt = { width, height: 22, ellipsis: true };
      const lh = Math.min(doc.heightOfString(line, opt), 22);
      if (y + lh > bottom - 12) break;
      doc.font('regular').text(line, left, y, opt);
      y += lh + 2;
      shown++;
    }
    if (shown < historyLines.length) doc.fillColor('#777777').text(t('… and {n} earlier changes', { n: historyLines.length - shown }), left, y, { lineBreak: false }).fillColor('black');
  }
  footer(doc, opts);
}
