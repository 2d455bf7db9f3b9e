import os from 'node:os';
import { UnrecoverableError, type Job } from 'bullmq';
import { SHEET_RENDERING, notice, projectRoom, userRoom, type JobOf, type NoticeText, type JobProgressEvent, type PdfProgressDetail } from '@sitewalk/proto';
import { db, type PdfUpload, type Project } from '@sitewalk/core/db';
import { patchPdfUpload, pdfUploadById, pdfUploadExists } from '@sitewalk/core/repositories/pdf-uploads.repository.js';
import { projectById, projectExists, touchProject } from '@sitewalk/core/repositories/projects.repository.js';
import { deleteSheetsOfUpload, markSheetReady, readySheetsOfUpload, upsertProcessingSheet } from '@sitewalk/core/repositories/sheets.repository.js';
import { localCopy, remove, withLocalFolder } from '@sitewalk/core/storage';
import { emitTo } from '@sitewalk/core/realtime';
import { logger } from '@sitewalk/core/logger.js';
import { notify } from '@sitewalk/core/services/notifications.service.js';
import { mapFolder, projectFolder } from '@sitewalk/core/services/sheets.service.js';
import { PdfRejected, inspectPdf, sheetName, type PdfPageInfo } from '../adapters/pdf-inspect.js';
import { colourNeeds, dpiFor, drawPages, pageBytes } from '../adapters/pdf-render.js';
import type { RawImage } from '../adapters/raw-image.js';
import { writeSheetImages } from '../adapters/pdf-page-tiles.js';

export interface SheetFromPdfResult {
  status: 'done' | 'skipped';
  sheet_ids: number[];
  reason?: string;
}

const JOB = 'sheet.from-pdf';
const UNEXPECTED = 'The PDF could not be turned into sheets because of an error on our side. Please upload it again later.';

/** Tells the uploader's and the owner's browsers, and everyone watching the project, where the job stands. */
function report(upload: PdfUpload, ownerId: number | undefined, state: JobProgressEvent['state'], percent: number, message: string, detail: PdfProgressDetail) {
  const event: JobProgressEvent = {
    job: JOB,
    subject: { kind: 'pdf-upload', id: upload.id },
    project_id: upload.id_project,
    state,
    percent: Math.max(0, Math.min(100, Math.round(percent))),
    message,
    detail: { ...detail },
  };
  for (const userId of new Set([upload.id_user, ownerId])) if (userId) emitTo(userRoom(userId), 'job:progress', event);
  emitTo(projectRoom(upload.id_project), 'job:progress', event);
}

/** Removes every sheet this upload made, rows first, then their files. */
async function removeSheetsOf(uploadId: number, projectId: number): Promise<void> {
  const maps = await deleteSheetsOfUpload(db(), uploadId);
  for (const m of maps) await remove(m.folder ?? mapFolder(projectId, m.id));
  // A project deleted while its pages were being stored may have had folders written again after the API removed them.
  if (!(await projectExists(db(), projectId))) await remove(projectFolder(projectId));
}

/**
 * How many pages are drawn and cut at once: one per core, as long as the pages
 * in flight stay within PAGES_IN_FLIGHT_PIXELS. Each costs its pixels in this
 * process (its lane's buffer) and once more in its pdftoppm while drawing, so
 * this budget, not the page count, bounds the memory of the job: two of the
 * largest pages (36 MP, about 110 MB each way), or more smaller ones on more cores.
 */
export const PAGES_IN_FLIGHT_PIXELS = 2 * SHEET_RENDERING.pixelBudget;
export function laneCount(pagePixels: number[], cores: number = os.availableParallelism()): number {
  if (!pagePixels.length) return 0;
  return Math.max(1, Math.min(cores, pagePixels.length, Math.floor(PAGES_IN_FLIGHT_PIXELS / Math.max(...pagePixels))));
}
/** Pixels of a page drawn at `dpi`. */
export const pagePixels = (page: Pick<PdfPageInfo, 'widthPt' | 'heightPt'>, dpi: number) => (page.widthPt / 72) * dpi * ((page.heightPt / 72) * dpi);

/**
 * Pages one pdftoppm draws in a row for a lane. Each start of pdftoppm reads the PDF and the fonts again and touches
 * fresh memory, so fewer starts save time; a lane still takes only a share of what is left, so both lanes finish together.
 */
export const PAGES_PER_DRAW = 4;

/** Claimed pages split where one pdftoppm run cannot go on: a gap in the page numbers, another resolution, colour or grey. */
export function drawRuns<P extends { page: { page: number }; dpi: number }>(pages: P[], colours: boolean[]): { pages: P[]; colour: boolean }[] {
  const runs: { pages: P[]; colour: boolean }[] = [];
  pages.forEach((p, i) => {
    const run = runs[runs.length - 1];
    const prev = run?.pages[run.pages.length - 1];
    if (run && prev!.page.page + 1 === p.page.page && prev!.dpi === p.dpi && run.colour === colours[i]) run.pages.push(p);
    else runs.push({ pages: [p], colour: colours[i] });
  });
  return runs;
}

/** Runs the functions given to it one after another, in the order they were given. */
function oneAtATime() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = last.then(fn, fn);
    last = run.catch(() => undefined);
    return run;
  };
}

const stillThere = (uploadId: number) => pdfUploadExists(db(), uploadId);

/** One page → one ready sheet, its pixels from `draw`. Returns the sheet id, or null when the sheet was deleted meanwhile. */
async function makeSheet(upload: PdfUpload, page: PdfPageInfo, dpi: number, draw: () => Promise<RawImage>): Promise<number | null> {
  // One row per (upload, page): a rerun or a retry finds the row instead of adding a sheet.
  // The sheets of an upload are dated by the upload: pages are started side by side, in no fixed
  // order, and sheet lists sort by date, then upload, then page — so they list in page order.
  const mapId = await upsertProcessingSheet(db(), {
    id_project: upload.id_project,
    id_upload: upload.id,
    page: page.page,
    name: sheetName(page),
    page_label: page.label ?? '',
    created_at: upload.created_at,
  });
  const folder = mapFolder(upload.id_project, mapId);
  // A crashed earlier attempt may have left part of this page's files.
  await remove(folder);
  const raw = await draw();
  // On local disk libvips writes the tiles straight into the sheet's folder, with no staging copy to
  // move file by file; on S3 into a scratch folder uploaded at the end. Until the row says 'ready' nobody is shown them.
  const images = await withLocalFolder(folder, (dir) => writeSheetImages(raw, dir));
  const updated = await markSheetReady(db(), mapId, {
    width: images.width,
    height: images.height,
    dpi,
    tile_size: images.tileSize,
    max_zoom: images.maxZoom,
    folder,
    thumbnail: `${folder}/${images.thumbnail}`,
  });
  if (!updated) {
    // The user deleted the sheet (or the project) while it was being drawn: keep it deleted.
    await remove(folder);
    if (!(await projectExists(db(), upload.id_project))) await remove(projectFolder(upload.id_project));
    return null;
  }
  return mapId;
}

async function tellOwner(upload: PdfUpload, project: Project | undefined, ok: boolean, text: NoticeText) {
  if (!project) return;
  const recipients = new Set([project.id_owner, ...(upload.id_user ? [upload.id_user] : [])]);
  for (const userId of recipients) {
    await notify(
      userId,
      ok
        ? { kind: 'sheets_ready', ...text, type: 'success', link: `/project/${project.id}` }
        : { kind: 'sheets_ready', ...text, type: 'error', link: `/project/${project.id}` },
      { key: `sheets-${ok ? 'ready' : 'failed'}-${upload.id}-u${userId}` },
    );
  }
}

/**
 * sheet.from-pdf: turns every page of an uploaded PDF plan set into a sheet
 * with tiles and a thumbnail. The pdf_uploads row is the state the UI reads.
 * Idempotent: a finished upload is left as it is, pages already made are
 * kept on a retry, and a rerun never adds a second sheet for a page. When
 * the PDF is refused, or the last attempt fails, every sheet it made is
 * removed and the upload is marked failed with the reason.
 */
export async function sheetFromPdf(data: JobOf<'sheet.from-pdf'>, job: Job<JobOf<'sheet.from-pdf'>>): Promise<SheetFromPdfResult> {
  const log = logger.child({ job: JOB, upload_id: data.upload_id });
  const upload = await pdfUploadById(db(), data.upload_id);
  if (!upload) return { status: 'skipped', sheet_ids: [], reason: 'the upload no longer exists' };
  if (upload.status === 'done' || upload.status === 'failed') {
    return { status: 'skipped', sheet_ids: upload.sheet_ids, reason: `the upload is already ${upload.status}` };
  }
  const project = await projectById(db(), upload.id_project);
  let pagesTotal: number | null = upload.pages_total;
  // The PDF on this machine's disk for pdfinfo and pdftoppm (a scratch copy on S3, removed at the end).
  let pdf: Awaited<ReturnType<typeof localCopy>> | null = null;
  try {
    if (!upload.file_key) throw new PdfRejected('The PDF is no longer stored. Upload it again.');
    await patchPdfUpload(db(), upload.id, { status: 'processing', error: null });
    report(upload, project?.id_owner, 'active', 0, 'Checking the PDF', { pages_done: 0, pages_total: pagesTotal, sheet_ids: [] });
    pdf = await localCopy(upload.file_key);
    const filePath = pdf.path;
    const info = await inspectPdf(filePath);
    pagesTotal = info.pages.length;
    await patchPdfUpload(db(), upload.id, { pages_total: pagesTotal });

    const ready = await readySheetsOfUpload(db(), upload.id);
    const done = new Set(ready.map((s) => s.page));
    let sheetIds = ready.map((s) => s.id);
    const todo = info.pages.filter((p) => !done.has(p.page));
    const total = pagesTotal;
    const plan = todo.map((page) => ({ page, dpi: dpiFor(page.widthPt, page.heightPt) }));
    const lanes = laneCount(plan.map((p) => pagePixels(p.page, p.dpi)));
    // Every lane draws into one buffer of its own, as large as the largest page: memory stays the same however many pages.
    const bufferBytes = Math.max(0, ...plan.map((p) => pageBytes(p.page.widthPt, p.page.heightPt, p.dpi)));
    // Recording and telling are done one page at a time, in the order pages finish, so the
    // upload row, the percentages and the events only ever move forward.
    const serial = oneAtATime();
    const stop = new AbortController();
    let firstError: unknown = null;
    let gone = false;
    // Whether each page has colour, from one small drawing of every page, answered page by page while the lanes start.
    const colour = colourNeeds(filePath, plan.map((p) => ({ ...p.page, dpi: p.dpi })), stop.signal);
    let next = 0;
    /**
     * The next few pages for a lane: a share of what is left, at most PAGES_PER_DRAW. The very first is one page alone,
     * so the first sheet waits for neither the colour answers of more pages nor the drawing of the next ones.
     */
    const claim = () => {
      const size = next === 0 ? 1 : Math.max(1, Math.min(PAGES_PER_DRAW, Math.ceil((plan.length - next) / lanes)));
      const pages = plan.slice(next, next + size);
      next += pages.length;
      return pages;
    };
    const lane = async () => {
      let buffer: Buffer | undefined;
      while (!stop.signal.aborted && next < plan.length) {
        const claimed = claim();
        const colours = await Promise.all(claimed.map((p) => colour.get(p.page.page)!));
        for (const run of drawRuns(claimed, colours)) {
          buffer ??= Buffer.allocUnsafe(bufferBytes);
          const drawn = drawPages(filePath, run.pages[0].page.page, run.pages[run.pages.length - 1].page.page, { dpi: run.pages[0].dpi, grey: !run.colour, signal: stop.signal, reuse: buffer });
          try {
            for (const { page, dpi } of run.pages) {
              if (stop.signal.aborted) return;
              if (!(await stillThere(upload.id))) {
                gone = true;
                stop.abort();
                return;
              }
              await sheetOf(page, dpi, async () => {
                const got = await drawn.next();
                if (got.done) throw new PdfRejected(`Page ${page.page} of this PDF could not be drawn.`);
                return got.value;
              });
            }
          } finally {
            await drawn.return(undefined);
          }
        }
      }
    };
    const sheetOf = async (page: PdfPageInfo, dpi: number, draw: () => Promise<RawImage>) => {
      await serial(async () =>
        report(upload, project?.id_owner, 'active', (done.size / total) * 100, `Page ${page.page} of ${total}`, {
          pages_done: done.size,
          pages_total: total,
          sheet_ids: sheetIds,
        }),
      );
      // Published the moment its pyramid and thumbnail exist, while the other lanes still cut theirs.
      const mapId = await makeSheet(upload, page, dpi, draw);
      await serial(async () => {
        done.add(page.page);
        // Only the pages counted as done: a page of another lane may be ready but not announced yet, and
        // "3 of 5 pages" must not list four sheets.
        sheetIds = (await readySheetsOfUpload(db(), upload.id)).filter((s) => done.has(s.page)).map((s) => s.id);
        await patchPdfUpload(db(), upload.id, { pages_done: done.size, sheet_ids: sheetIds });
        const percent = (done.size / total) * 100;
        await job.updateProgress({ percent: Math.round(percent), pages_done: done.size, pages_total: total });
        report(upload, project?.id_owner, 'active', percent, `Page ${page.page} of ${total} is ready`, {
          pages_done: done.size,
          pages_total: total,
          ...(mapId ? { id_map: mapId } : {}),
          sheet_ids: sheetIds,
        });
      });
    };
    // Pages side by side, one lane per core within the memory budget; the first failure stops the others
    // (their pdftoppm is killed), and nothing is tidied before every lane has let go of its files.
    await Promise.all(
      Array.from({ length: lanes }, () =>
        lane().catch((err) => {
          firstError ??= err;
          stop.abort();
        }),
      ),
    );
    if (gone) {
      await removeSheetsOf(upload.id, upload.id_project);
      return { status: 'skipped', sheet_ids: [], reason: 'the upload was deleted while it was processed' };
    }
    if (firstError) throw firstError;

    sheetIds = (await readySheetsOfUpload(db(), upload.id)).map((s) => s.id);
    await db().transaction(async (trx) => {
      await patchPdfUpload(trx, upload.id, { status: 'done', pages_done: pagesTotal!, sheet_ids: sheetIds, finished_at: new Date(), error: null });
      await touchProject(trx, upload.id_project);
    });
    const text = `${sheetIds.length} ${sheetIds.length === 1 ? 'sheet' : 'sheets'} from "${upload.original_name}" ${sheetIds.length === 1 ? 'is' : 'are'} ready in ${project ? `"${project.name}"` : 'the project'}.`;
    report(upload, project?.id_owner, 'completed', 100, text, { pages_done: pagesTotal, pages_total: pagesTotal, sheet_ids: sheetIds });
    await tellOwner(upload, project, true, notice('sheetsReady', { n: sheetIds.length, file: upload.original_name, project: project?.name ?? '' }));
    log.info({ sheets: sheetIds.length }, 'sheets made from PDF');
    return { status: 'done', sheet_ids: sheetIds };
  } catch (err) {
    const refused = err instanceof PdfRejected;
    const attempts = job.opts.attempts ?? 1;
    const lastAttempt = refused || job.attemptsMade + 1 >= attempts;
    if (!(await stillThere(upload.id))) {
      // The project or upload was deleted meanwhile: nothing to report, only files to tidy.
      await removeSheetsOf(upload.id, upload.id_project).catch(() => undefined);
      return { status: 'skipped', sheet_ids: [], reason: 'the upload was deleted while it was processed' };
    }
    if (!lastAttempt) {
      log.warn({ err, attempt: job.attemptsMade + 1 }, 'PDF job failed; it will be retried and resume where it stopped');
      throw err;
    }
    const reason = refused ? (err as Error).message : UNEXPECTED;
    if (!refused) log.error({ err }, 'PDF job failed for good');
    await removeSheetsOf(upload.id, upload.id_project);
    await patchPdfUpload(db(), upload.id, { status: 'failed', error: reason, pages_done: 0, sheet_ids: [], finished_at: new Date(), file_key: null });
    // A PDF that will never become sheets is not kept in storage.
    await remove(upload.file_key);
    report(upload, project?.id_owner, 'failed', 0, reason, { pages_done: 0, pages_total: pagesTotal, sheet_ids: [] });
    await tellOwner(upload, project, false, notice('sheetsFailed', { file: upload.original_name, reason }));
    throw refused ? new UnrecoverableError(reason) : err;
  } finally {
    await pdf?.release();
  }
}
