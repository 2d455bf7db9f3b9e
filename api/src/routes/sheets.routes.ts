import {
  sheetCreateSchema,
  sheetPlanFieldsSchema,
  UPLOAD_LIMITS,
  sheetRoomsQuerySchema,
  sheetUpdateSchema,
  roomPositionsSchema,
  type SheetDetail,
  type SheetRoom,
} from '@sitewalk/proto';
import { currentUser, requireAuth } from '../http/auth.js';
import { created, ok } from '../http/envelope.js';
import { body, idParam, query } from '../http/validate.js';
import { createSheet, deleteSheet, roomsOfSheet, requireSheet, setRoomPositions, toSheetDetail, updateSheet } from '@sitewalk/core/services/sheets.service.js';
import { acceptSheetPlan } from '@sitewalk/core/services/sheet-plans.service.js';
import { multipart, uploadedFile } from '../http/upload.js';
import type { RouteModule } from './types.js';

/** Sheets ("maps" in the paths of SPEC §7). */
const sheetsRoutes: RouteModule = (r) => {
  r.post('/maps', requireAuth, async (ctx) => {
    const input = body(ctx, sheetCreateSchema);
    created<SheetDetail>(ctx, toSheetDetail(await createSheet(currentUser(ctx), input)), 'Sheet created successfully!');
  });
  r.get('/maps/:id', requireAuth, async (ctx) => {
    const { map, access } = await requireSheet(currentUser(ctx), idParam(ctx), 'read');
    ok<SheetDetail>(ctx, { ...toSheetDetail(map), project_name: access.project.name });
  });
  r.put('/maps/:id', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const patch = body(ctx, sheetUpdateSchema);
    ok<SheetDetail>(ctx, toSheetDetail(await updateSheet(currentUser(ctx), id, patch)), 'Sheet updated successfully!');
  });
  r.delete('/maps/:id', requireAuth, async (ctx) => {
    ok(ctx, await deleteSheet(currentUser(ctx), idParam(ctx)), 'Sheet deleted successfully!');
  });
  r.post('/maps/:id/plan', requireAuth, multipart(UPLOAD_LIMITS.pdfBytes), async (ctx) => {
    const id = idParam(ctx);
    const fields = body(ctx, sheetPlanFieldsSchema);
    const map = await acceptSheetPlan(currentUser(ctx), id, fields, uploadedFile(ctx));
    ok<SheetDetail>(ctx, toSheetDetail(map), 'The plan is uploaded. It is being drawn on the sheet.', 202);
  });
  r.get('/maps/:id/rooms', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const filter = query(ctx, sheetRoomsQuerySchema);
    ok<SheetRoom[]>(ctx, await roomsOfSheet(currentUser(ctx), id, filter));
  });
  r.put('/maps/:id/room-positions', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const input = body(ctx, roomPositionsSchema);
    ok<SheetRoom[]>(ctx, await setRoomPositions(currentUser(ctx), id, input), 'Room positions saved.');
  });
};

export default sheetsRoutes;
