import type { Context, Next } from 'koa';
import {
  UPLOAD_LIMITS,
  pdfSheetDeleteQuerySchema,
  projectCreateSchema,
  projectDeleteSchema,
  projectListQuerySchema,
  projectUpdateSchema,
  recentProjectsQuerySchema,
  showcaseQuerySchema,
  starProjectSchema,
  type PdfUpload,
  type ProjectDetail,
  type ProjectList,
  type ProjectSummary,
  type ShowcaseProject,
  type StarResponse,
} from '@sitewalk/proto';
import { currentUser, requireAuth } from '../http/auth.js';
import { created, ok } from '../http/envelope.js';
import { forbidden } from '@sitewalk/core/errors.js';
import { multipart, uploadedFile } from '../http/upload.js';
import { body, idParam, parseWith, query } from '../http/validate.js';
import { requireProject, type ProjectNeed } from '@sitewalk/core/services/access.service.js';
import { acceptPdfUpload, deleteStoredPdfs } from '@sitewalk/core/services/pdf-uploads.service.js';
import { deleteProjectCover, replaceProjectCover } from '@sitewalk/core/services/project-cover.service.js';
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  projectDetail,
  recentProjects,
  setProjectFlags,
  showcase,
  starProject,
  updateProject,
} from '@sitewalk/core/services/projects.service.js';
import { toPdfUploadDto } from '@sitewalk/core/services/sheets.service.js';
import type { RouteModule } from './types.js';

/**
 * Checks the project before an upload is read: someone who may not change it
 * is refused before sending megabytes.
 */
const projectAllows = (need: ProjectNeed) => async (ctx: Context, next: Next) => {
  await requireProject(currentUser(ctx), idParam(ctx), need);
  await next();
};

const projectsRoutes: RouteModule = (r) => {
  r.get('/projects', requireAuth, async (ctx) => {
    const q = query(ctx, projectListQuerySchema);
    const user = currentUser(ctx);
    if (q.scope === 'all' && !user.super_admin) throw forbidden('Only administrators can list every project.');
    ok<ProjectList>(ctx, await listProjects(user, q));
  });

  // Before /projects/:id, which would take "recent" for an id.
  r.get('/projects/recent', requireAuth, async (ctx) => {
    const { limit } = query(ctx, recentProjectsQuerySchema);
    ok<ProjectSummary[]>(ctx, await recentProjects(currentUser(ctx), limit));
  });

  r.post('/projects', requireAuth, async (ctx) => {
    const input = body(ctx, projectCreateSchema);
    created<ProjectDetail>(ctx, await createProject(currentUser(ctx), input), 'Project created successfully!');
  });

  r.post('/projects/star', requireAuth, async (ctx) => {
    const { id_project, starred } = body(ctx, starProjectSchema);
    ok<StarResponse>(ctx, await starProject(currentUser(ctx), id_project, starred), starred ? 'Project starred.' : 'Project unstarred.');
  });

  const flag = (change: { active?: boolean; validated?: boolean }, message: string) => async (ctx: Context) => {
    ok<ProjectDetail>(ctx, await setProjectFlags(currentUser(ctx), idParam(ctx), change), message);
  };
  // Administrators only: a member is told so (403); anyone else does not learn the project exists (404).
  const superAdminOfProject = async (ctx: Context, next: Next) => {
    const user = currentUser(ctx);
    if (!user.super_admin) {
      await requireProject(user, idParam(ctx), 'read');
      throw forbidden('Only administrators can do this.');
    }
    await next();
  };
  r.post('/projects/activate/:id', requireAuth, superAdminOfProject, flag({ active: true }, 'Project activated.'));
  r.post('/projects/deactivate/:id', requireAuth, superAdminOfProject, flag({ active: false }, 'Project deactivated.'));
  r.post('/projects/validate/:id', requireAuth, superAdminOfProject, flag({ validated: true }, 'Project validated.'));
  r.post('/projects/invalidate/:id', requireAuth, superAdminOfProject, flag({ validated: false }, 'Project invalidated.'));

  r.get('/projects/:id', requireAuth, async (ctx) => {
    ok<ProjectDetail>(ctx, await getProject(currentUser(ctx), idParam(ctx)));
  });

  r.put('/projects/:id', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const input = body(ctx, projectUpdateSchema);
    ok<ProjectDetail>(ctx, await updateProject(currentUser(ctx), id, input), 'Project updated successfully!');
  });

  r.delete('/projects/:id', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    // SPEC §7: the call carries id_user, in the body or the query; only its form is checked.
    parseWith(projectDeleteSchema, { ...(ctx.query as object), ...((ctx.request as { body?: object }).body ?? {}) });
    ok(ctx, await deleteProject(currentUser(ctx), id), 'Project deleted successfully!');
  });

  r.post('/projects/:id/cover', requireAuth, projectAllows('manage'), multipart(UPLOAD_LIMITS.imageBytes), async (ctx) => {
    const id = idParam(ctx);
    const user = currentUser(ctx);
    await replaceProjectCover(user, id, uploadedFile(ctx));
    ok<ProjectDetail>(ctx, await projectDetail(user, id), 'Cover uploaded.');
  });

  r.delete('/projects/:id/cover/delete', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const user = currentUser(ctx);
    await deleteProjectCover(user, id);
    ok<ProjectDetail>(ctx, await projectDetail(user, id), 'Cover removed.');
  });

  r.post('/projects/:id/pdf-sheet', requireAuth, projectAllows('upload'), multipart(UPLOAD_LIMITS.pdfBytes), async (ctx) => {
    const upload = await acceptPdfUpload(currentUser(ctx), idParam(ctx), uploadedFile(ctx));
    ok<PdfUpload>(ctx, toPdfUploadDto(upload), 'The PDF is uploaded. Its pages are being turned into sheets.', 202);
  });

  r.delete('/projects/:id/pdf-sheet/delete', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const { id_upload } = query(ctx, pdfSheetDeleteQuerySchema);
    const result = await deleteStoredPdfs(currentUser(ctx), id, id_upload);
    ok(ctx, result, result.removed ? 'The PDF was deleted. Its sheets stay.' : 'There was no stored PDF to delete.');
  });

  // Public: the showcase of an active, validated project, by its code.
  r.get('/showcase', async (ctx) => {
    const { project_code } = query(ctx, showcaseQuerySchema);
    ok<ShowcaseProject>(ctx, await showcase(project_code));
  });
};

export default projectsRoutes;
