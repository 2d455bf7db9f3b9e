import { UnrecoverableError, type Job } from 'bullmq';
import sharp from 'sharp';
import { SHEET_RENDERING, UPLOAD_LIMITS, projectRoom, userRoom, type JobOf, type JobProgressEvent } from '@sitewalk/proto';
import { db, type Sheet } from '@sitewalk/core/db';
import { emptySheetIfProcessing, lockSheet, markSheetReady, scalePlacedOnSheet, sheetById } from '@sitewalk/core/repositories/sheets.repository.js';
import { localPath, remove } from '@sitewalk/core/storage';
import { emitTo } from '@sitewalk/core/realtime';
import { logger } from '@sitewalk/core/logger.js';
import { mapFolder } from '@sitewalk/core/services/sheets.service.js';
import { PdfRejected, inspectPdf } from '../adapters/pdf-inspect.js';
import { dpiFor, renderPage } from '../adapters/pdf-render.js';
import type { RawImage } from '../adapters/raw-image.js';
import { writeSheetImages } from '../adapters/pdf-page-tiles.js';
import { planScale } from './sheet-plan-scale.js';

const JOB = 'sheet.plan';

export interface SheetPlanResult {
  status: 'done' | 'skipped';
  reason?: string;
}

function report(map: Sheet, userId: number | undefined, state: JobProgressEvent['state'], percent: number, message: string) {
  const event: JobProgressEvent = { job: JOB, subject: { kind: 'sheet-plan', id: map.id }, project_id: map.id_project, state, percent, message };
  if (userId) emitTo(userRoom(userId), 'job:progress', event);
  emitTo(projectRoom(map.id_project), 'job:progress', event);
}

/** The plan's pixels: the PDF page drawn within the sheet pixel budget, or the image flattened on white. */
async function drawPlan(data: JobOf<'sheet.plan'>, file: string): Promise<{ raw: RawImage; dpi: number | null }> {
  if (data.kind === 'pdf') {
    const info = await inspectPdf(file);
    const page = info.pages.find((p) => p.page === data.page);
    if (!page) throw new UnrecoverableError(`This PDF has ${info.pages.length} page(s); there is no page ${data.page}.`);
    const dpi = dpiFor(page.widthPt, page.heightPt);
    return { raw: await renderPage(file, page.page, dpi), dpi };
  }
  let img = sharp(file, { limitInputPixels: UPLOAD_LIMITS.imagePixels }).rotate();
  const meta = await img.metadata().catch(() => null);
  if (!meta?.width || !meta.height) throw new UnrecoverableError('This image cannot be read. Export it again as JPEG or PNG and upload it.');
  // A photo of a plan larger than a drawn page would be is shrunk to the same pixel budget.
  const scale = Math.min(1, Math.sqrt(SHEET_RENDERING.pixelBudget / (meta.width * meta.height)));
  if (scale < 1) img = img.resize(Math.max(1, Math.floor(meta.width * scale)));
  const { data: pixels, info } = await img.flatten({ background: '#ffffff' }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { raw: { data: pixels, width: info.width, height: info.height, channels: 3 }, dpi: null };
}

/**
 * sheet.plan: draws the uploaded PDF page or image into a new folder of tiles,
 * then, in one transaction, points the sheet at it and scales the rooms and
 * snags placed on the sheet by the change of size, so each stays on the same
 * spot of the drawing. The old tiles and the upload are removed afterwards.
 * Running it again redraws the same plan: nothing is scaled twice, as the
 * scale is taken from the sheet's size at the moment of the swap.
 */
export async function sheetPlan(data: JobOf<'sheet.plan'>, job: Job<JobOf<'sheet.plan'>>): Promise<SheetPlanResult> {
  const map = await sheetById(db(), data.id_map);
  if (!map) {
    await remove(data.file_key);
    return { status: 'skipped', reason: 'the sheet no longer exists' };
  }
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  report(map, data.id_user, 'active', 10, 'Drawing the plan');
  const folder = `${mapFolder(map.id_project, map.id)}-${job.id?.replace(/[^A-Za-z0-9-]+/g, '-') ?? Date.now()}`;
  try {
    const { raw, dpi } = await drawPlan(data, localPath(data.file_key));
    await remove(folder);
    const images = await writeSheetImages(raw, localPath(folder));
    report(map, data.id_user, 'active', 80, 'Placing the rooms and snags on the new plan');
    const old = await db().transaction(async (trx) => {
      const current = await lockSheet(trx, map.id);
      if (!current) return null;
      const scale = planScale(current, images);
      if (scale) await scalePlacedOnSheet(trx, map.id, scale);
      await markSheetReady(trx, map.id, {
        width: images.width,
        height: images.height,
        dpi,
        tile_size: images.tileSize,
        max_zoom: images.maxZoom,
        folder,
        thumbnail: `${folder}/${images.thumbnail}`,
      });
      return current;
    });
    if (!old) {
      // Deleted while it was being drawn: keep it deleted.
      await remove(folder);
      await remove(data.file_key);
      return { status: 'skipped', reason: 'the sheet was deleted meanwhile' };
    }
    if (old.folder && old.folder !== folder) await remove(old.folder);
    await remove(data.file_key);
    report(map, data.id_user, 'completed', 100, 'The plan is on the sheet.');
    return { status: 'done' };
  } catch (err) {
    const rejected = err instanceof PdfRejected || err instanceof UnrecoverableError;
    const final = rejected || lastAttempt;
    if (final) {
      await remove(folder);
      await remove(data.file_key);
      // An empty sheet goes back to offering the upload; a sheet with a plan keeps it.
      await emptySheetIfProcessing(db(), map.id);
      const reason = rejected ? (err as Error).message : 'The plan could not be drawn because of an error on our side. Please upload it again later.';
      report(map, data.id_user, 'failed', 100, reason);
      logger.warn({ err, map_id: map.id }, 'a sheet plan could not be drawn');
      if (err instanceof PdfRejected) throw new UnrecoverableError(err.message);
    }
    throw err;
  }
}
