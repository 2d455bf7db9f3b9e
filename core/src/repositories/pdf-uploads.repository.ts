import { PdfUpload } from '../db/index.js';
import type { Db } from '../db/query-types.js';

/** Every query of PDF plan-set uploads (`pdf_uploads`, the Objection model `PdfUpload`). The service holds the rules. */

export async function insertPdfUpload(k: Db, row: Pick<PdfUpload, 'id_project' | 'id_user' | 'file_key' | 'original_name' | 'size_bytes' | 'status'>): Promise<PdfUpload> {
  return await PdfUpload.query(k).insertAndFetch(row);
}

export async function deletePdfUploadRow(k: Db, id: number): Promise<void> {
  await PdfUpload.query(k).deleteById(id);
}

/** The project's uploads still queued or processing whose last news is older than `before`. */
export async function quietUnfinishedUploads(k: Db, projectId: number, before: Date): Promise<PdfUpload[]> {
  return await PdfUpload.query(k).where({ id_project: projectId }).whereIn('status', ['queued', 'processing']).where('updated_at', '<', before);
}

/** Reads and locks an upload for the rest of the transaction. */
export async function lockPdfUpload(k: Db, id: number): Promise<PdfUpload | undefined> {
  return await PdfUpload.query(k).findById(id).forUpdate();
}

/** Marks an upload failed with this message, and no pages or sheets made. */
export async function failPdfUpload(k: Db, id: number, error: string): Promise<void> {
  await PdfUpload.query(k).patch({ status: 'failed', error, pages_done: 0, sheet_ids: [], finished_at: new Date() }).where({ id });
}

/** The project's most recent uploads, newest first. */
export async function recentPdfUploads(k: Db, projectId: number, limit: number): Promise<PdfUpload[]> {
  return await PdfUpload.query(k)
    .where({ id_project: projectId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit);
}

/** The project's uploads whose PDF is still stored (one, or all), locked for the rest of the transaction. */
export async function lockStoredPdfUploads(k: Db, projectId: number, uploadId?: number): Promise<PdfUpload[]> {
  const q = PdfUpload.query(k).where({ id_project: projectId }).whereNotNull('file_key').forUpdate();
  if (uploadId) q.where({ id: uploadId });
  return await q;
}

/** The upload with this id if it is of the project. */
export async function pdfUploadOfProject(k: Db, id: number, projectId: number): Promise<PdfUpload | undefined> {
  return await PdfUpload.query(k).findOne({ id, id_project: projectId });
}

/** Forgets the stored PDFs of these uploads (the sheets made from them stay). */
export async function clearPdfFileKeys(k: Db, ids: number[]): Promise<void> {
  await PdfUpload.query(k).patch({ file_key: null }).whereIn('id', ids);
}

export async function pdfUploadById(k: Db, id: number): Promise<PdfUpload | undefined> {
  return await PdfUpload.query(k).findById(id);
}

/** Whether the upload is still there (not deleted, with its project, meanwhile). */
export async function pdfUploadExists(k: Db, id: number): Promise<boolean> {
  return !!(await PdfUpload.query(k).findById(id).select('id'));
}

/** Writes where the sheet job stands on an upload (status, pages, sheets made, error). */
export async function patchPdfUpload(
  k: Db,
  id: number,
  patch: Partial<Pick<PdfUpload, 'status' | 'error' | 'pages_total' | 'pages_done' | 'sheet_ids' | 'finished_at' | 'file_key'>>,
): Promise<void> {
  await PdfUpload.query(k).patch(patch).where({ id });
}
