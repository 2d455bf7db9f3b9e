import { SHEET_PLAN_TYPES, UPLOAD_LIMITS, type SheetPlanFields } from '@sitewalk/proto';
import { Sheet } from '../db/index.js';
import { HttpError } from '../errors.js';
import { detectType, type UploadedFile } from '../uploaded-file.js';
import { enqueue } from '../queue/index.js';
import { newKey, putFile, remove } from '../storage/index.js';
import { logger } from '../logger.js';
import { checkProjectAddition } from './plan-limits.service.js';
import { projectFolder, requireSheet } from './sheets.service.js';
import { patchSheet } from '../repositories/sheets.repository.js';
import { db } from '../db/index.js';
import type { Actor } from './actor.js';


/** The BullMQ job id of one plan upload of a sheet. */
export const sheetPlanJobId = (mapId: number, key: string) => `sheet-plan-${mapId}-${key.replace(/[^A-Za-z0-9]+/g, '-')}`;

/**
 * POST /maps/{id}/plan: a PDF page or an image becomes the sheet's plan —
 * the way out of "This sheet has no plan yet", and the way to replace a plan
 * with a newer drawing. The file is checked by content and stored under a
 * server-chosen name; the sheet.plan job draws it. An empty sheet shows
 * 'processing' meanwhile; a ready one keeps its old plan until the new one is drawn.
 */
export async function acceptSheetPlan(user: Actor, mapId: number, fields: SheetPlanFields, file: UploadedFile): Promise<Sheet> {
  const { map } = await requireSheet(user, mapId, 'edit-sheets');
  const type = await detectType(file, SHEET_PLAN_TYPES, 'a PDF or an image');
  const kind = type.mime === 'application/pdf' ? 'pdf' : 'image';
  if (kind === 'image' && file.size > UPLOAD_LIMITS.imageBytes) {
    throw new HttpError(413, `This image is larger than ${UPLOAD_LIMITS.imageBytes / 1024 / 1024} MB. Export it smaller, or upload the plan as a PDF.`);
  }
  if (kind === 'image' && fields.page !== undefined && Number(fields.page) !== 1) {
    throw new HttpError(400, 'An image has one page: leave the page out, or upload a PDF.');
  }
  await checkProjectAddition(db(), user, map.id_project, { storage_bytes: file.size });
  const key = newKey(`${projectFolder(map.id_project)}/plans`, type.ext);
  await putFile(key, file.filepath);
  try {
    await enqueue('sheet.plan', { id_map: map.id, file_key: key, kind, page: Number(fields.page ?? 1), id_user: user.id }, { jobId: sheetPlanJobId(map.id, key) });
  } catch (err) {
    logger.error({ err, map_id: map.id }, 'could not queue the sheet plan job');
    await remove(key);
    throw new HttpError(503, 'The plan could not be queued for drawing. Please try again in a moment.');
  }
  if (map.status === 'empty') return patchSheet(db(), map.id, { status: 'processing' });
  return map;
}
