import {
  ANNOTATION_FILE,
  annotationBulkStatusSchema,
  annotationCreateSchema,
  annotationFileDeleteQuerySchema,
  annotationFileFieldsSchema,
  annotationListQuerySchema,
  annotationPeopleQuerySchema,
  annotationUpdateSchema,
  type AnnotationBulkStatusResult,
  type AnnotationDetail,
  type AnnotationFile,
  type AnnotationList,
  type AnnotationPerson,
} from '@sitewalk/proto';
import { currentUser, requireAuth } from '../http/auth.js';
import { created, ok } from '../http/envelope.js';
import { multipart, uploadedFile } from '../http/upload.js';
import { body, idParam, query } from '../http/validate.js';
import { getAnnotation, listAnnotations, projectPeople } from '@sitewalk/core/services/annotations.queries.js';
import { createAnnotation, deleteAnnotation, updateAnnotation, updateAnnotationStatuses } from '@sitewalk/core/services/annotations.commands.js';
import { deleteAnnotationFile, uploadAnnotationFile } from '@sitewalk/core/services/annotations-files.service.js';
import type { RouteModule } from './types.js';

/** The snag list (SPEC §7 "Annotations (snag list)"); see proto/src/annotations.ts. */
const annotationsRoutes: RouteModule = (r) => {
  r.get('/annotations', requireAuth, async (ctx) => {
    ok<AnnotationList>(ctx, await listAnnotations(currentUser(ctx), query(ctx, annotationListQuerySchema)));
  });
  r.post('/annotations', requireAuth, async (ctx) => {
    const input = body(ctx, annotationCreateSchema);
    created<AnnotationDetail>(ctx, await createAnnotation(currentUser(ctx), input), 'Snag created.');
  });
  // Before /annotations/:id, which would take these words for an id.
  r.get('/annotations/people', requireAuth, async (ctx) => {
    const { id_project } = query(ctx, annotationPeopleQuerySchema);
    ok<AnnotationPerson[]>(ctx, await projectPeople(currentUser(ctx), id_project));
  });
  r.post('/annotations/file', requireAuth, multipart(ANNOTATION_FILE.maxBytes), async (ctx) => {
    const fields = body(ctx, annotationFileFieldsSchema);
    created<AnnotationFile>(ctx, await uploadAnnotationFile(currentUser(ctx), fields, uploadedFile(ctx)), 'File uploaded.');
  });
  r.delete('/annotations/file/delete', requireAuth, async (ctx) => {
    ok(ctx, await deleteAnnotationFile(currentUser(ctx), query(ctx, annotationFileDeleteQuerySchema)), 'File deleted.');
  });
  r.put('/annotations/status', requireAuth, async (ctx) => {
    const { ids, status } = body(ctx, annotationBulkStatusSchema);
    const result = await updateAnnotationStatuses(currentUser(ctx), ids, status);
    ok<AnnotationBulkStatusResult>(ctx, result, result.items.length === 1 ? 'Snag updated.' : 'Snags updated.');
  });
  r.get('/annotations/:id', requireAuth, async (ctx) => {
    ok<AnnotationDetail>(ctx, await getAnnotation(currentUser(ctx), idParam(ctx)));
  });
  r.put('/annotations/:id', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const patch = body(ctx, annotationUpdateSchema);
    ok<AnnotationDetail>(ctx, await updateAnnotation(currentUser(ctx), id, patch), 'Snag updated.');
  });
  r.delete('/annotations/:id', requireAuth, async (ctx) => {
    ok(ctx, await deleteAnnotation(currentUser(ctx), idParam(ctx)), 'Snag deleted.');
  });
};

export default annotationsRoutes;
