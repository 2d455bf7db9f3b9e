import type { Job } from 'bullmq';
import { userRoom, type JobOf, type JobProgressEvent } from '@sitewalk/proto';
import { db } from '@sitewalk/core/db';
import { userById } from '@sitewalk/core/repositories/users.repository.js';
import { emitTo } from '@sitewalk/core/realtime';
import { logger } from '@sitewalk/core/logger.js';
import { HttpError } from '@sitewalk/core/errors.js';
import { notify } from '@sitewalk/core/services/notifications.service.js';
import { apsAllPages, apsDownload, apsJson, type JsonApiResource } from '@sitewalk/core/adsk/aps-client.js';
import { withAccess } from '@sitewalk/core/adsk/link.service.js';
import { derivativeUrn, fetchManifest } from '@sitewalk/core/adsk/browse.service.js';
import { ensureLinkedProject, findImport, importPdf, toSyncRunDto, type SyncRunRow } from '@sitewalk/core/adsk/sync.service.js';
import { patchSyncRun, syncRunById } from '@sitewalk/core/repositories/adsk-sync.repository.js';

const JOB = 'adsk.sync';
const enc = encodeURIComponent;

export interface AdskSyncResult {
  status: 'done' | 'skipped';
  project_ids: number[];
  imported: number;
  skipped: number;
}

/** Where the run stands: in its row (what the UI reads after a reload) and live to the user's browsers. */
async function report(run: SyncRunRow, patch: Partial<SyncRunRow>, state: JobProgressEvent['state']) {
  Object.assign(run, patch);
  const row = await patchSyncRun(db(), run.id, patch);
  if (row) Object.assign(run, row);
  const event: JobProgressEvent = {
    job: JOB,
    subject: { kind: 'adsk-sync', id: run.id },
    state,
    percent: Math.max(0, Math.min(100, Math.round(run.percent))),
    message: run.message,
    detail: { ...toSyncRunDto(run) },
  };
  emitTo(userRoom(run.id_user), 'job:progress', event);
}

interface FileVersion {
  item_id: string;
  version_id: string;
  name: string;
  file_type: string;
  /** OSS object of the version (PDF files are downloaded from it). */
  storage_href: string | null;
}

/** Every file of a project, each as its newest version: top folders, then every folder below, breadth first. */
async function projectFiles(token: () => Promise<string>, hubId: string, projectId: string): Promise<FileVersion[]> {
  const out: FileVersion[] = [];
  const queue: string[] = (await apsAllPages(`/project/v1/hubs/${enc(hubId)}/projects/${enc(projectId)}/topFolders`, token)).data.map((f) => f.id);
  const seen = new Set<string>();
  while (queue.length) {
    const folderId = queue.shift()!;
    if (seen.has(folderId)) continue;
    seen.add(folderId);
    const { data, included } = await apsAllPages(`/data/v1/projects/${enc(projectId)}/folders/${enc(folderId)}/contents`, token);
    const versions = new Map(included.filter((i) => i.type === 'versions').map((v) => [v.id, v]));
    for (const entry of data) {
      if (entry.type === 'folders') {
        queue.push(entry.id);
        continue;
      }
      if (entry.type !== 'items') continue;
      const tipId = entry.relationships?.tip?.data?.id;
      let tip: JsonApiResource | undefined = tipId ? versions.get(tipId) : undefined;
      tip ??= (await apsJson<{ data: JsonApiResource }>(`/data/v1/projects/${enc(projectId)}/items/${enc(entry.id)}/tip`, { token: await token() })).data;
      const name = String(tip.attributes?.displayName ?? tip.attributes?.name ?? entry.attributes?.displayName ?? 'sheet');
      out.push({
        item_id: entry.id,
        version_id: tip.id,
        name,
        file_type: String(tip.attributes?.fileType ?? name.split('.').pop() ?? '').toLowerCase(),
        storage_href: tip.relationships?.storage?.meta?.link?.href ?? null,
      });
    }
  }
  return out;
}

/** The OSS path of a version's object, from the link Autodesk gives (…/oss/v2/buckets/{b}/objects/{o}). */
function ossPath(href: string): string | null {
  const m = /\/oss\/v2\/buckets\/([^/?]+)\/objects\/([^?]+)/.exec(href);
  return m ? `/oss/v2/buckets/${m[1]}/objects/${m[2]}` : null;
}

/** Which hub holds the project, when the run does not say (the user's hubs are asked in turn). */
async function hubOf(token: () => Promise<string>, projectId: string): Promise<string> {
  const hubs = (await apsAllPages('/project/v1/hubs', token)).data;
  for (const h of hubs) {
    const projects = (await apsAllPages(`/project/v1/hubs/${enc(h.id)}/projects`, token)).data;
    if (projects.some((p) => p.id === projectId)) return h.id;
  }
  throw new HttpError(404, 'This Autodesk project is not in any of your hubs.');
}

/** Files a user could not use as sheets (not PDF, damaged, too big) are counted as skipped, not fatal. */
const fileProblem = (err: unknown) => err instanceof HttpError && (err.status === 413 || err.status === 415);

/**
 * adsk.sync: brings a hub (every project) or one project into SiteWalk. Each
 * Autodesk project becomes (or stays) one SiteWalk project; each PDF file
 * and each 2D view of a model becomes sheets through sheet.from-pdf.
 * Idempotent and resumable: versions already imported are skipped, so a
 * retry after a killed worker, or a second sync, brings only what is new.
 * 429s are waited out in the Autodesk client.
 */
export async function adskSync(data: JobOf<'adsk.sync'>, job: Job<JobOf<'adsk.sync'>>): Promise<AdskSyncResult> {
  const run = await syncRunById(db(), data.run_id);
  if (!run) return { status: 'skipped', project_ids: [], imported: 0, skipped: 0 };
  if (run.status === 'completed') return { status: 'skipped', project_ids: run.project_ids, imported: run.files_imported, skipped: run.files_skipped };
  const user = await userById(db(), run.id_user);
  if (!user) return { status: 'skipped', project_ids: [], imported: 0, skipped: 0 };
  const actor = { id: user.id, super_admin: user.super_admin };
  const log = logger.child({ job: JOB, run_id: run.id });
  // Counts start again on each attempt: skipped imports of the earlier attempt are counted as such.
  await report(run, { status: 'running', error: null, percent: 1, message: 'Reading your Autodesk data', files_imported: 0, files_skipped: 0 }, 'active');

  try {
    const result = await withAccess(run.id_user, async (token) => {
      const hubId = run.hub_id ?? (await hubOf(token, run.adsk_project_id!));
      const projects =
        run.kind === 'hub'
          ? (await apsAllPages(`/project/v1/hubs/${enc(hubId)}/projects`, token)).data
          : [(await apsJson<{ data: JsonApiResource }>(`/project/v1/hubs/${enc(hubId)}/projects/${enc(run.adsk_project_id!)}`, { token: await token() })).data];
      const projectIds: number[] = [];
      let imported = 0;
      let skipped = 0;
      for (const [pi, p] of projects.entries()) {
        const name = String(p.attributes?.name ?? p.id);
        const sitewalkId = await ensureLinkedProject(actor, { hub_id: hubId, adsk_project_id: p.id, name, into: run.kind === 'project' ? run.id_project : null });
        projectIds.push(sitewalkId);
        const share = 98 / projects.length;
        const base = 1 + pi * share;
        await report(run, { project_ids: projectIds, percent: base, message: `${name}: listing files` }, 'active');
        const files = await projectFiles(token, hubId, p.id);
        for (const [fi, f] of files.entries()) {
          const counted = await syncFile(actor, sitewalkId, f, token).catch((err) => {
            if (!fileProblem(err)) throw err;
            log.info({ item: f.item_id, reason: (err as Error).message }, 'file skipped: not usable as sheets');
            return { imported: 0, skipped: 1 };
          });
          imported += counted.imported;
          skipped += counted.skipped;
          await report(
            run,
            { percent: base + ((fi + 1) / files.length) * share, message: `${name}: ${fi + 1} of ${files.length} files`, files_imported: imported, files_skipped: skipped },
            'active',
          );
          await job.updateProgress(Math.round(run.percent)).catch(() => undefined);
        }
      }
      return { project_ids: projectIds, imported, skipped };
    });
    const message =
      `${result.project_ids.length} ${result.project_ids.length === 1 ? 'project' : 'projects'} synced: ` +
      `${result.imported} ${result.imported === 1 ? 'file' : 'files'} brought in, ${result.skipped} already there or not usable.`;
    await report(run, { status: 'completed', percent: 100, message }, 'completed');
    await notify(run.id_user, { kind: 'sheets_ready', title: 'Autodesk sync finished', message, type: 'success', link: result.project_ids.length === 1 ? `/project/${result.project_ids[0]}` : '/projects' }, { key: `adsk-sync-done-${run.id}` }).catch(
      (err) => log.warn({ err }, 'could not notify the end of the sync'),
    );
    return { status: 'done', ...result };
  } catch (err) {
    const message = err instanceof HttpError ? err.message : 'The sync stopped because of an error on our side.';
    const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    log.warn({ err: (err as Error).message, last }, 'Autodesk sync attempt failed');
    // A lost link or missing integration will not heal by retrying.
    const final = last || (err instanceof HttpError && [403, 404, 409].includes(err.status));
    await report(run, final ? { status: 'failed', error: message, message } : { message: `${message} Trying again shortly.` }, final ? 'failed' : 'active');
    if (final) {
      await notify(run.id_user, { kind: 'sheets_ready', title: 'Autodesk sync failed', message, type: 'error', link: '/design-cloud' }, { key: `adsk-sync-failed-${run.id}` }).catch(() => undefined);
      return { status: 'skipped', project_ids: run.project_ids, imported: run.files_imported, skipped: run.files_skipped };
    }
    throw err;
  }
}

/** One file: a PDF is brought in as it is; a model brings each of its 2D views that has a PDF. */
async function syncFile(actor: { id: number; super_admin: boolean }, projectId: number, f: FileVersion, token: () => Promise<string>) {
  if (f.file_type === 'pdf') {
    if (!f.storage_href) return { imported: 0, skipped: 1 };
    const oss = ossPath(f.storage_href);
    if (!oss) return { imported: 0, skipped: 1 };
    const outcome = await importPdf(actor, projectId, { item_id: f.item_id, version_id: f.version_id, name: f.name }, async () => {
      const signed = await apsJson<{ url?: string }>(`${oss}/signeds3download`, { token: await token() });
      if (!signed.url) throw new HttpError(502, 'Autodesk gave no download address for the file.');
      // The signed address is S3's: no Autodesk token goes there.
      return apsDownload(signed.url);
    });
    return outcome === 'imported' ? { imported: 1, skipped: 0 } : { imported: 0, skipped: 1 };
  }
  // A model: its 2D views (role '2d') that have a PDF derivative are sheets.
  let manifest;
  try {
    manifest = await fetchManifest(token, f.version_id);
  } catch (err) {
    if (err instanceof HttpError && err.status === 404) return { imported: 0, skipped: 1 }; // not translated: nothing to bring
    throw err;
  }
  let imported = 0;
  let skipped = 0;
  for (const view of manifest.views_2d) {
    if (!view.pdf_urn) {
      skipped++;
      continue;
    }
    if (await findImport(projectId, f.version_id, view.guid)) {
      skipped++;
      continue;
    }
    const urn = derivativeUrn(f.version_id);
    const outcome = await importPdf(actor, projectId, { item_id: f.item_id, version_id: f.version_id, view_guid: view.guid, name: `${view.name}.pdf` }, async () =>
      apsDownload(`/modelderivative/v2/designdata/${enc(urn)}/manifest/${enc(view.pdf_urn!)}`, await token()),
    );
    if (outcome === 'imported') imported++;
    else skipped++;
  }
  return { imported, skipped };
}
