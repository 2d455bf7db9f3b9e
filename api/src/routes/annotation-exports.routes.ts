import {
  ANNOTATION_EXPORT_FILES,
  annotationExportDownloadQuerySchema,
  annotationExportRequestSchema,
  type AnnotationExport,
} from '@sitewalk/proto';
import type { AuthState } from '../http/auth.js';
import { currentUser, optionalAuth, requireAuth } from '../http/auth.js';
import { ok } from '../http/envelope.js';
import { body, idParam } from '../http/validate.js';
import { sendStored } from '../http/send-stored.js';
import { notFound } from '@sitewalk/core/errors.js';
import { exportForDownload, getExport, startExport } from '@sitewalk/core/services/annotation-exports.service.js';
import type { RouteModule } from './types.js';

const GONE = 'This download link is not valid or has expired. Open the export again for a fresh link.';

/** Snag-list exports (proto annotation-exports.ts): start, follow, download. */
const annotationExportsRoutes: RouteModule = (r) => {
  r.post('/annotation-exports', requireAuth, async (ctx) => {
    const { format, ...filters } = body(ctx, annotationExportRequestSchema);
    ok<AnnotationExport>(ctx, await startExport(currentUser(ctx), format, filters), 'The export is being made.', 202);
  });
  r.get('/annotation-exports/:id', requireAuth, async (ctx) => {
    ok<AnnotationExport>(ctx, await getExport(currentUser(ctx), idParam(ctx)));
  });
  // The signed link authorises (a browser download sends no bearer header); a signed-in caller must be the requester.
  r.get('/annotation-exports/:id/download', optionalAuth, async (ctx) => {
    const id = idParam(ctx);
    const parsed = annotationExportDownloadQuerySchema.safeParse(ctx.query);
    if (!parsed.success) throw notFound(GONE);
    const caller = (ctx.state.auth as AuthState | undefined)?.user.id;
    const row = await exportForDownload(id, parsed.data.exp, parsed.data.sig, caller);
    if (!row?.file_key) throw notFound(GONE);
    const file = ANNOTATION_EXPORT_FILES[row.format];
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.attachment(row.file_name ?? `snags.${file.ext}`);
    // Streamed through the API on either driver, so the download keeps the name set above.
    if (!(await sendStored(ctx, row.file_key, { redirect: false }))) throw notFound(GONE);
    ctx.type = file.mime;
  });
};

export default annotationExportsRoutes;
