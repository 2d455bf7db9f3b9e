import path from 'node:path';
import sharp from 'sharp';
import { ANNOTATION_FILE, UPLOAD_LIMITS, type AnnotationFile } from '@sitewalk/proto';
import { db } from '../db/index.js';
import { HttpError, badRequest, notFound, payloadTooLarge, unprocessable } from '../errors.js';
import { detectType, type UploadedFile } from '../uploaded-file.js';
import { newKey, putFile, remove } from '../storage/index.js';
import { visitFolder } from './rooms-dto.js';
import { removeQuietly } from './visits.service.js';
import { checkProjectAddition } from './plan-limits.service.js';
import { SNAG_NOT_FOUND, snagProjectAccess } from './annotations.access.js';
import { annotationDto, toFileDto } from './annotations.queries.js';
import { announce, recordHistory } from './annotations.history.js';
import { countFilesOf, deleteFiles, findAnnotation, findVisit, insertFile, lockFileOfVisit, updateAnnotationRow } from '../repositories/annotations.repository.js';
import type { Actor } from './actor.js';
import { imageSizeWithinLimit } from '../image-size.js';

/** The name shown for a file: the base name it was sent with, without control characters; never a path. */
const displayName = (name: string | null, ext: string) =>
  (path.basename((name ?? '').replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').trim() || `file.${ext}`).slice(0, 255);

async function visitForSnags(user: Actor, visitId: number) {
  const visit = await findVisit(db(), visitId);
  if (!visit) throw notFound('Visit not found.');
  await snagProjectAccess(user, visit.id_project, true, 'Visit not found.');
  return visit;
}

/** The file's kind by its bytes: a file that is none of the accepted kinds (an executable named .jpg) is refused, 422. */
async function checkContent(file: UploadedFile): Promise<{ ext: string; mime: string }> {
  let t: { ext: string; mime: string };
  try {
    t = await detectType(file, ANNOTATION_FILE.types, 'an image (JPEG, PNG or WebP) or a PDF');
  } catch (err) {
    if (err instanceof HttpError && err.status === 415) throw unprocessable(err.message);
    throw err;
  }
  if (t.mime.startsWith('image/')) {
    await imageSizeWithinLimit(file.filepath, () => unprocessable('The image could not be read. It may be damaged; try another file.'));
  }
  return t;
}

/**
 * POST /annotations/file: stores a photo or document for a snag of the visit
 * under a server-chosen name; attaches it at once when id_annotation is given.
 */
export async function uploadAnnotationFile(user: Actor, fields: { id_visit: number; id_annotation?: number }, file: UploadedFile): Promise<AnnotationFile> {
  const visit = await visitForSnags(user, fields.id_visit);
  const { ext, mime } = await checkContent(file);
  const key = newKey(`${visitFolder(visit.id_project, visit.id)}/annotations`, ext);
  const filename = path.posix.basename(key);
  await checkProjectAddition(db(), user, visit.id_project, { storage_bytes: file.size });
  await putFile(key, file.filepath);
  try {
    const row = await db().transaction(async (trx) => {
      await checkProjectAddition(trx, user, visit.id_project, { storage_bytes: file.size });
      if (fields.id_annotation) {
        const snag = await findAnnotation(trx, fields.id_annotation, true);
        if (!snag || snag.id_visit !== visit.id) throw notFound(SNAG_NOT_FOUND);
        if ((await countFilesOf(trx, snag.id)) >= ANNOTATION_FILE.maxPerAnnotation) throw badRequest(`A snag holds at most ${ANNOTATION_FILE.maxPerAnnotation} files.`);
      }
      const row = await insertFile(trx, {
        id_visit: visit.id,
        id_annotation: fields.id_annotation ?? null,
        filename,
        file_key: key,
        original_name: displayName(file.originalFilename, ext),
        mime,
        size_bytes: file.size,
        id_user: user.id,
      });
      if (fields.id_annotation) {
        await recordHistory(trx, fields.id_annotation, user.id, 'file_added', [{ field: 'files', from: null, to: row.original_name }]);
        await updateAnnotationRow(trx, fields.id_annotation);
      }
      return row;
    });
    if (fields.id_annotation) {
      await announce(user, 'updated', await annotationDto(fields.id_annotation), [{ field: 'files', from: null, to: row.original_name }], null);
    }
    return toFileDto(row);
  } catch (err) {
    await remove(key);
    throw err;
  }
}

/** DELETE /annotations/file/delete?filename&id_visit: the file, and its place in its snag. */
export async function deleteAnnotationFile(user: Actor, q: { filename: string; id_visit: number }): Promise<{ filename: string; id_visit: number }> {
  const visit = await visitForSnags(user, q.id_visit);
  const row = await db().transaction(async (trx) => {
    const row = await lockFileOfVisit(trx, q.filename, visit.id);
    if (!row) throw notFound('File not found.');
    await deleteFiles(trx, [row.id]);
    if (row.id_annotation) {
      await recordHistory(trx, row.id_annotation, user.id, 'file_removed', [{ field: 'files', from: row.original_name, to: null }]);
      await updateAnnotationRow(trx, row.id_annotation);
    }
    return row;
  });
  await removeQuietly([row.file_key]);
  if (row.id_annotation) {
    await announce(user, 'updated', await annotationDto(row.id_annotation), [{ field: 'files', from: row.original_name, to: null }], null);
  }
  return { filename: row.filename, id_visit: visit.id };
}
