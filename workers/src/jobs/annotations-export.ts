import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { ANNOTATION_EXPORT, ANNOTATION_EXPORT_FILES, annotationExportFiltersSchema, type Annotation, type AnnotationExportFormat } from '@sitewalk/proto';
import { db, type User } from '@sitewalk/core/db';
import { completeUnfinishedExport, exportRow, patchExport } from '@sitewalk/core/repositories/annotation-exports.repository.js';
import { userById } from '@sitewalk/core/repositories/users.repository.js';
import { newKey, putFile, remove, withLocalFile } from '@sitewalk/core/storage';
import { logger } from '@sitewalk/core/logger.js';
import { getSettings } from '@sitewalk/core/services/settings.service.js';
import { listAnnotations } from '@sitewalk/core/services/annotations.queries.js';
import {
  exportFileName,
  exportFolder,
  reportExport,
  type AnnotationExportRow,
} from '@sitewalk/core/services/annotation-exports.service.js';
import { config } from '@sitewalk/core/config.js';
import { panoramaSnapshot, sheetCrop } from '../adapters/snag-images.js';
import { writeBcf } from '../exports/bcf.js';
import { snagsToCsv } from '../exports/csv.js';
import { writePdfReport } from '../exports/pdf-report.js';
import { snagSources } from '../exports/snag-source.js';
import { reportTranslator } from '../exports/report-words.js';
import type { PictureSource, SnagPictures } from '../exports/snag-record.js';
import type { Handler } from '../registry.js';

const FAILED = 'The export could not be made because of an error on our side. Please try again later.';

/** Every snag the requester sees under the export's filters, in the list's order, up to ANNOTATION_EXPORT.maxSnags. */
async function snagsOf(user: User, filters: unknown): Promise<Annotation[]> {
  const f = annotationExportFiltersSchema.parse(filters ?? {});
  const out: Annotation[] = [];
  for (let page = 1; out.length < ANNOTATION_EXPORT.maxSnags; page++) {
    const list = await listAnnotations(user, { ...f, page, per_page: 100 });
    out.push(...list.items);
    if (list.items.length < 100 || out.length >= list.total) break;
  }
  return out.slice(0, ANNOTATION_EXPORT.maxSnags);
}

/** Progress in the row (what a reloaded screen reads) and live to the requester. */
async function progress(row: AnnotationExportRow, percent: number, message: string) {
  await patchExport(db(), row.id, { percent: Math.round(percent), message, updated_at: new Date() });
  reportExport(row, 'active', percent, message);
}

/**
 * annotations.export: reads the snags, draws their pictures (PDF and BCF),
 * writes the file into storage and marks the export completed — or failed,
 * with the reason, once the last attempt fails. A completed export is left
 * as it is; a retried one starts over and replaces any file it had.
 */
export const annotationsExport: Handler<'annotations.export'> = async ({ id_export }, job) => {
  const row = await exportRow(db(), id_export);
  if (!row) return { status: 'skipped', reason: 'the export was removed' };
  if (row.status === 'completed' || row.status === 'failed') return { status: 'skipped', reason: `the export is ${row.status}` };
  const log = logger.child({ job: job.name, export_id: row.id, format: row.format });
  try {
    const user = await userById(db(), row.id_user);
    if (!user || !user.active) throw new UnrecoverableError('The account that asked for this export is gone.');
    await patchExport(db(), row.id, { status: 'processing', percent: 0, message: 'Reading the snags', updated_at: new Date() });
    reportExport(row, 'active', 0, 'Reading the snags');

    const snags = await snagsOf(user, row.filters);
    // The report speaks the requester's language (the one they chose in the app).
    const t = await reportTranslator(user.language);
    const sources = await snagSources(snags, t);
    await patchExport(db(), row.id, { total: snags.length });
    const format = row.format as AnnotationExportFormat;

    const total = sources.records.length;
    // A picture that cannot be drawn leaves a grey box saying so, not a failed report.
    const pictures: PictureSource = async (s) => {
      const pano = sources.panoramas.get(s.id);
      const sheet = sources.sheets.get(s.id);
      const pics: SnagPictures = {};
      if (pano) pics.snapshot = await withLocalFile(pano.photo, (photo) => panoramaSnapshot(photo, pano)).catch((err) => void log.warn({ err, snag: s.id }, 'no 360 snapshot'));
      if (sheet && format === 'pdf') pics.sheet = await sheetCrop(sheet.tiles, sheet).catch((err) => void log.warn({ err, snag: s.id }, 'no sheet crop'));
      return pics;
    };
    // Drawing the snags takes most of the time: 5..95 %.
    const onSnag = (done: number) => progress(row, 5 + (90 * done) / Math.max(1, total), `Drawing ${done} of ${total}`);
    const settings = await getSettings();
    const now = new Date();
    const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'snag-export-'));
    const file = path.join(work, `export.${ANNOTATION_EXPORT_FILES[format].ext}`);
    const key = newKey(exportFolder(user.id), ANNOTATION_EXPORT_FILES[format].ext);
    let size: number;
    try {
      if (format === 'csv') await fsp.writeFile(file, snagsToCsv(sources.records, t), 'utf8');
      else {
        const out = fs.createWriteStream(file);
        // Progress is written as each snag is done, without holding the file up.
        let pending = Promise.resolve();
        const tick = (done: number) => void (pending = pending.then(() => onSnag(done)).catch(() => undefined));
        if (format === 'bcf') await writeBcf(sources.records, pictures, { origin: config.appUrl }, out, tick);
        else {
          const who = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username;
          const opts = { title: t('Snag list report'), subtitle: [settings.name, t('Asked for by {name}', { name: who })].filter(Boolean), generatedAt: now.toISOString(), t };
          await writePdfReport(sources.records, pictures, opts, out, tick);
        }
        await pending;
      }
      await progress(row, 97, 'Storing the file');
      size = (await fsp.stat(file)).size;
      await putFile(key, file);
    } finally {
      await fsp.rm(work, { recursive: true, force: true });
    }
    const done = await completeUnfinishedExport(db(), row.id, { file_key: key, file_name: exportFileName(format, now), size_bytes: size, finished_at: now, updated_at: now });
    // Removed or settled meanwhile: nothing will ever point at the file.
    if (!done) {
      await remove(key);
      return { status: 'skipped', reason: 'the export changed while it was being made' };
    }
    if (row.file_key) await remove(row.file_key);
    reportExport(row, 'completed', 100, 'Ready');
    log.info({ snags: snags.length, bytes: size }, 'export ready');
    return { status: 'done', snags: snags.length, bytes: size };
  } catch (err) {
    const last = err instanceof UnrecoverableError || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (last) {
      const message = err instanceof UnrecoverableError ? err.message : FAILED;
      await patchExport(db(), row.id, { status: 'failed', message, finished_at: new Date(), updated_at: new Date() });
      reportExport(row, 'failed', 0, message);
    }
    throw err;
  }
};
