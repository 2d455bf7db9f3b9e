import type { Context, Next } from 'koa';
import {
  POI_FILE,
  ROOM_IMAGE,
  UPLOAD_LIMITS,
  bindHotspotSchema,
  poiCreateSchema,
  poiUpdateSchema,
  roomOrderSchema,
  roomUpdateSchema,
  roomUploadFieldsSchema,
  starVisitSchema,
  unbindHotspotSchema,
  viewerRoomPoisQuerySchema,
  viewerVisitQuerySchema,
  visitCreateSchema,
  visitListQuerySchema,
  visitUpdateSchema,
  type Hotspot,
  type Poi,
  type Room,
  type ViewerRoomPois,
  type ViewerVisit,
  type VisitDetail,
  type VisitList,
  type VisitStarResponse,
} from '@sitewalk/proto';
import type { AuthState } from '../http/auth.js';
import { currentUser, optionalAuth, requireAuth } from '../http/auth.js';
import { created, ok } from '../http/envelope.js';
import { multipart, uploadedFile } from '../http/upload.js';
import { body, idParam, query } from '../http/validate.js';
import { HttpError, badRequest } from '@sitewalk/core/errors.js';
import {
  bindHotspot,
  createVisit,
  deleteVisit,
  getVisit,
  listVisits,
  setRoomOrder,
  starVisit,
  unbindHotspot,
  updateVisit,
} from '@sitewalk/core/services/visits.service.js';
import { acceptRoomUpload, deleteRoom, getRoom, roomPois, updateRoom } from '@sitewalk/core/services/rooms.service.js';
import { attachPoiFile, createPoi, deletePoi, detachPoiFile, updatePoi } from '@sitewalk/core/services/pois.service.js';
import { VIEWER_MAINTENANCE_MESSAGE, viewerInMaintenance, viewerRoomPois, viewerVisit } from '@sitewalk/core/services/viewer.service.js';
import type { RouteModule } from './types.js';

/** POST /visits takes its fields as JSON or as a form (multipart or urlencoded); a form carries no file. */
async function visitForm(ctx: Context, next: Next) {
  if (!ctx.is('multipart')) return next();
  return multipart(UPLOAD_LIMITS.jsonBytes)(ctx, async () => {
    const files = (ctx.request as { files?: Record<string, unknown> }).files ?? {};
    if (Object.keys(files).length) throw badRequest('A visit is created without files: add its 360 photos with POST /rooms.');
    await next();
  });
}

/** The public viewer answers 503 while maintenance_viewer is on, except to maintenance_ip. */
async function viewerOpen(ctx: Context, next: Next) {
  if (await viewerInMaintenance(ctx.ip)) {
    ctx.set('Retry-After', '600');
    throw new HttpError(503, VIEWER_MAINTENANCE_MESSAGE);
  }
  await next();
}

/** Visits, their rooms, hotspots and points of interest (SPEC §7 "Maps, rooms and visits"), and the public viewer. */
const visitsRoutes: RouteModule = (r) => {
  r.get('/visits', requireAuth, async (ctx) => {
    ok<VisitList>(ctx, await listVisits(currentUser(ctx), query(ctx, visitListQuerySchema)));
  });
  r.post('/visits', requireAuth, visitForm, async (ctx) => {
    const input = body(ctx, visitCreateSchema);
    created<VisitDetail>(ctx, await createVisit(currentUser(ctx), input), 'Visit created successfully!');
  });
  // Before /visits/:id, which would take "star" for an id.
  r.post('/visits/star', requireAuth, async (ctx) => {
    const { id_visit, starred } = body(ctx, starVisitSchema);
    ok<VisitStarResponse>(ctx, await starVisit(currentUser(ctx), id_visit, starred), starred ? 'Visit starred.' : 'Visit unstarred.');
  });
  r.get('/visits/:id', requireAuth, async (ctx) => {
    ok<VisitDetail>(ctx, await getVisit(currentUser(ctx), idParam(ctx)));
  });
  r.put('/visits/:id', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const patch = body(ctx, visitUpdateSchema);
    ok<VisitDetail>(ctx, await updateVisit(currentUser(ctx), id, patch), 'Visit updated successfully!');
  });
  r.delete('/visits/:id', requireAuth, async (ctx) => {
    ok(ctx, await deleteVisit(currentUser(ctx), idParam(ctx)), 'Visit deleted successfully!');
  });
  r.put('/visits/:id/room-order', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const { ids } = body(ctx, roomOrderSchema);
    ok<Room[]>(ctx, await setRoomOrder(currentUser(ctx), id, ids), 'Room order saved.');
  });
  r.post('/visits/:id/bind-hotspot', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const input = body(ctx, bindHotspotSchema);
    ok<Hotspot>(ctx, await bindHotspot(currentUser(ctx), id, input), 'Rooms linked.');
  });
  r.post('/visits/:id/unbind-hotspot', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const input = body(ctx, unbindHotspotSchema);
    const result = await unbindHotspot(currentUser(ctx), id, input);
    ok(ctx, result, result.removed ? 'Link removed.' : 'There was no link to remove.');
  });

  r.post('/rooms', requireAuth, multipart(ROOM_IMAGE.maxBytes), async (ctx) => {
    const fields = body(ctx, roomUploadFieldsSchema);
    const room = await acceptRoomUpload(currentUser(ctx), fields, uploadedFile(ctx));
    ok<Room>(ctx, room, 'The photo is uploaded. It is being prepared for the viewer.', 202);
  });
  r.get('/rooms/:id', requireAuth, async (ctx) => {
    ok<Room>(ctx, await getRoom(currentUser(ctx), idParam(ctx)));
  });
  r.put('/rooms/:id', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const patch = body(ctx, roomUpdateSchema);
    ok<Room>(ctx, await updateRoom(currentUser(ctx), id, patch), 'Room updated.');
  });
  r.delete('/rooms/:id', requireAuth, async (ctx) => {
    ok(ctx, await deleteRoom(currentUser(ctx), idParam(ctx)), 'Room deleted.');
  });
  r.get('/rooms/:id/pois', requireAuth, async (ctx) => {
    ok<Poi[]>(ctx, await roomPois(currentUser(ctx), idParam(ctx)));
  });

  r.post('/pois', requireAuth, async (ctx) => {
    const input = body(ctx, poiCreateSchema);
    created<Poi>(ctx, await createPoi(currentUser(ctx), input), 'Point of interest added.');
  });
  r.put('/pois/:id', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const patch = body(ctx, poiUpdateSchema);
    ok<Poi>(ctx, await updatePoi(currentUser(ctx), id, patch), 'Point of interest updated.');
  });
  r.delete('/pois/:id', requireAuth, async (ctx) => {
    ok(ctx, await deletePoi(currentUser(ctx), idParam(ctx)), 'Point of interest deleted.');
  });
  r.post('/pois/:id/file', requireAuth, multipart(POI_FILE.maxBytes), async (ctx) => {
    const id = idParam(ctx);
    ok<Poi>(ctx, await attachPoiFile(currentUser(ctx), id, uploadedFile(ctx)), 'File attached.');
  });
  r.delete('/pois/:id/file', requireAuth, async (ctx) => {
    ok<Poi>(ctx, await detachPoiFile(currentUser(ctx), idParam(ctx)), 'File removed.');
  });

  // Public: anyone holding the visit's code.
  r.get('/viewer-visit', viewerOpen, async (ctx) => {
    const { code, poi } = query(ctx, viewerVisitQuerySchema);
    ok<ViewerVisit>(ctx, await viewerVisit(code, poi));
  });
  r.get('/viewer-room-pois', viewerOpen, optionalAuth, async (ctx) => {
    const { code, id_room, edit_room } = query(ctx, viewerRoomPoisQuerySchema);
    const user = (ctx.state.auth as AuthState | undefined)?.user ?? null;
    ok<ViewerRoomPois>(ctx, await viewerRoomPois(code, id_room, !!edit_room, user));
  });
};

export default visitsRoutes;
