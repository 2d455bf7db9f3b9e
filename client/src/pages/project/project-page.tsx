import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  MESSAGES,
  UPLOAD_LIMITS,
  type JobProgressEvent,
  type SheetSummary,
  type PdfUpload,
} from '@sitewalk/proto';
import { ApiError, api } from '../../lib/api-client';
import { useInvalidateOnEvent } from '../../realtime/query-invalidation';
import {
  applyProgressEvent,
  fromUpload,
  initiallyHidden,
  sheetsToFetch,
  uploadsFrom,
  visibleUploads,
  type UploadsById,
} from '../../lib/pdf-progress';
import { Spinner } from '../../components/spinner';
import { tk } from '../../lib/i18n-keys';
import NotFoundPage from '../not-found/not-found-page';
import { usePageMeta } from '../../stores/page-meta.store';
import { StarButton } from '../../components/star-button';
import { CoverSection } from './cover-section';
import { CategoriesCard } from './categories-card';
import { TeamCard } from './team-card';
import { FileButton } from '../../components/file-button';
import { PdfUploadPanel, type SendingPdf } from './pdf-upload-panel';
import { ProjectDetails } from './project-details';
import { SheetsSection } from './sheets-section';
import { useProjectProgress } from './use-project-progress';
import { projectDetailKey, useProjectQuery } from '../../components/use-project-query';
import { sheetQuery } from '../../components/use-sheet-query';
import '../projects/projects.css';

const PDF_MAX_MB = Math.round(UPLOAD_LIMITS.pdfBytes / (1024 * 1024));

/** Keeps the sheets in the order the project lists them, a live one replacing its earlier state. */
function mergeSheet(sheets: SheetSummary[], sheet: SheetSummary): SheetSummary[] {
  const i = sheets.findIndex((s) => s.id === sheet.id);
  if (i >= 0) return sheets.map((s) => (s.id === sheet.id ? sheet : s));
  return [...sheets, sheet];
}

/**
 * /project/{id}: the cover, details and categories of a project and its
 * sheets; PDF plans are uploaded here and their pages appear as sheets live,
 * while the worker makes them.
 */
export default function ProjectPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const projectId = id && /^[1-9]\d{0,9}$/.test(id) ? Number(id) : null;
  const queryClient = useQueryClient();
  const query = useProjectQuery(projectId);
  const { setProject } = query;
  const project = query.data ?? null;
  const sheets = project?.maps;
  const [uploads, setUploads] = useState<UploadsById>({});
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const [sending, setSending] = useState<SendingPdf | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const shown = useRef(new Set<number>());
  const fetching = useRef(new Set<number>());
  const sendingName = useRef('');
  const hiddenFor = useRef<number | null>(null);

  useEffect(() => {
    shown.current = new Set((sheets ?? []).filter((s) => s.status === 'ready').map((s) => s.id));
  }, [sheets]);

  // Each answer of the project brings the uploads the server knows; those this page follows live stay.
  // (Keyed on the uploads themselves: a sheet or a star shown from a write keeps them as they are.)
  const serverUploads = project?.pdf_uploads;
  useEffect(() => {
    if (!serverUploads || projectId === null) return;
    const fromServer = uploadsFrom(serverUploads);
    setUploads((local) => ({ ...local, ...fromServer }));
    // What had ended before the page opened is not shown again.
    if (hiddenFor.current !== projectId) setHidden(initiallyHidden(fromServer));
    hiddenFor.current = projectId;
  }, [serverUploads, projectId]);

  /** Reads the project again (its sheets, uploads and the user's rights). */
  const reload = useCallback(() => void queryClient.invalidateQueries({ queryKey: projectDetailKey(projectId) }), [queryClient, projectId]);
  // The user's own permissions may change with the team.
  useInvalidateOnEvent('team:changed', projectDetailKey(projectId), (e) => e.id_project === projectId);

  const fetchSheet = useCallback(
    (sheetId: number) => {
      if (fetching.current.has(sheetId)) return;
      fetching.current.add(sheetId);
      queryClient
        .fetchQuery(sheetQuery(sheetId))
        .then((sheet) => {
          setProject((p) => ({ ...p, maps: mergeSheet(p.maps, sheet) }));
          setFresh((f) => new Set(f).add(sheet.id));
        })
        // The sheet may be gone again (a failed upload removes its sheets); the reload at the end settles it.
        .catch((err: unknown) => console.warn(err))
        .finally(() => fetching.current.delete(sheetId));
    },
    [queryClient, setProject],
  );

  const knownUploads = useRef<UploadsById>({});
  useEffect(() => {
    knownUploads.current = uploads;
  }, [uploads]);

  const onProgress = useCallback(
    (e: JobProgressEvent) => {
      // An upload someone else started: the project answer names its file.
      if (!knownUploads.current[e.subject.id] && !sendingName.current) reload();
      setUploads((u) => applyProgressEvent(u, e, sendingName.current));
      for (const sheetId of sheetsToFetch(e, shown.current)) fetchSheet(sheetId);
      if (e.state === 'completed' || e.state === 'failed') reload();
    },
    [fetchSheet, reload],
  );
  // A reconnection reads the project again through the team's invalidation above.
  const live = useProjectProgress(projectId, onProgress, () => undefined);

  const uploadPdf = async (file: File) => {
    if (!project) return;
    setSendError(null);
    if (!(file.type === 'application/pdf' || /\.pdf$/i.test(file.name))) {
      setSendError(tk('Choose a PDF file.'));
      return;
    }
    if (file.size > UPLOAD_LIMITS.pdfBytes) {
      setSendError(t('The PDF is larger than {mb} MB.', { mb: PDF_MAX_MB }));
      return;
    }
    const form = new FormData();
    form.append('file', file);
    sendingName.current = file.name;
    setSending({ name: file.name, percent: 0 });
    try {
      const upload = await api.upload<PdfUpload>(`/projects/${project.id}/pdf-sheet`, form, MESSAGES.uploadPdfFailed, {
        onProgress: (percent) => setSending({ name: file.name, percent }),
      });
      // Live events may already have moved it further than this answer says.
      setUploads((u) => (u[upload.id] ? u : { ...u, [upload.id]: fromUpload(upload) }));
    } catch (err) {
      setSendError((err as Error).message || MESSAGES.uploadPdfFailed);
    } finally {
      setSending(null);
      sendingName.current = '';
    }
  };

  const errorStatus = query.error instanceof ApiError ? query.error.status : null;
  // Refused at first, or gone later (removed from the team meanwhile): the project is not there for this user.
  const missing = errorStatus === 404 || (errorStatus === 403 && !project);
  // A later read that fails otherwise leaves the project as it was shown.
  useEffect(() => void (query.error && project && !missing && console.error(query.error)), [query.error, project, missing]);

  // The tab and the trail carry the project's name.
  usePageMeta(project && !missing ? project.name : null);

  if (projectId === null) {
    return (
      <div className="alert alert-danger" role="alert">
        {t(MESSAGES.projectIdRequired)}
      </div>
    );
  }
  if (missing) return <NotFoundPage />;
  if (query.isPending) return <Spinner size="lg" />;
  if (!project) {
    return (
      <div className="alert alert-danger d-flex align-items-center gap-2" role="alert">
        <span className="me-auto">{t('Error loading {entity} data', { entity: t('Project') })}</span>
        <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void query.refetch()}>
          {t('Try again')}
        </button>
      </div>
    );
  }

  const p = project;
  const running = visibleUploads(uploads, hidden);
  const showcase = p.active && p.validated;

  return (
    <div className="sw-project" data-testid="project-page">
      <CoverSection project={p} onChange={(next) => setProject(() => next)} />
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h2 className="h4 mb-0 text-break" data-testid="project-name">
          {p.name}
        </h2>
        <StarButton projectId={p.id} projectName={p.name} starred={p.starred} onChange={(starred) => setProject((now) => ({ ...now, starred }))} />
        {!p.validated && <span className="badge text-bg-warning">{t('Awaiting approval')}</span>}
        {!p.active && <span className="badge text-bg-dark">{t('Inactive')}</span>}
        {live && (
          <span className="badge rounded-pill bg-body-secondary text-body border sw-live" title={t('Changes to this project appear here as they happen.')} data-testid="live-badge">
            <span className="sw-live-dot" aria-hidden="true" /> {t('Live updates')}
          </span>
        )}
        <div className="ms-auto d-flex flex-wrap gap-2">
          {showcase && (
            <Link to={`/showcase?project_code=${encodeURIComponent(p.project_code)}`} className="btn btn-outline-secondary btn-sm" target="_blank" rel="noopener">
              <i className="bi bi-globe me-1" aria-hidden="true" />
              {t('Public page')}
            </Link>
          )}
          {p.can_manage && (
            <Link to={`/editproject/${p.id}`} className="btn btn-outline-primary btn-sm">
              <i className="bi bi-pencil me-1" aria-hidden="true" />
              {t('Edit project')}
            </Link>
          )}
        </div>
      </div>
      <div className="row g-3">
        <div className="col-lg-8">
          <SheetsSection
            projectId={p.id}
            sheets={p.maps}
            canEdit={p.can_edit_sheets}
            fresh={fresh}
            uploader={
              p.permissions.upload || running.length > 0 ? (
                <>
                  {p.permissions.upload && (
                    <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
                      <FileButton
                        className="btn btn-primary btn-sm"
                        accept="application/pdf,.pdf"
                        disabled={sending !== null}
                        inputLabel={t('PDF plan file')}
                        onFile={(f) => void uploadPdf(f)}
                      >
                        <i className="bi bi-file-earmark-pdf me-1" aria-hidden="true" />
                        {t('Upload PDF plans')}
                      </FileButton>
                      <span className="form-text m-0">{t('Every page becomes a sheet. Up to {mb} MB.', { mb: PDF_MAX_MB })}</span>
                    </div>
                  )}
                  <PdfUploadPanel
                    sending={sending}
                    sendError={sendError}
                    uploads={running}
                    onDismiss={(uploadId) => setHidden((h) => new Set(h).add(uploadId))}
                    onDismissSendError={() => setSendError(null)}
                  />
                </>
              ) : null
            }
          />
        </div>
        <div className="col-lg-4">
          <ProjectDetails project={p} />
          <CategoriesCard project={p} onChange={(categories) => setProject((now) => ({ ...now, categories }))} />
          <TeamCard projectId={p.id} />
        </div>
      </div>
    </div>
  );
}
