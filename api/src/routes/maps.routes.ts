import {
  mapCreateSchema,
  mapRoomsQuerySchema,
  mapUpdateSchema,
  roomPositionsSchema,
  type MapDetail,
  type MapRoom,
} from '@sitewalk/proto';
import { currentUser, requireAuth } from '../http/auth.js';
import { created, ok } from '../http/envelope.js';
import { body, idParam, query } from '../http/validate.js';
import { createMap, deleteMap, mapRooms, requireMap, setRoomPositions, toMapDetail, updateMap } from '../core/services/sheets.service.js';
import type { RouteModule } from './types.js';

/** Sheets ("maps" in the paths of SPEC §7). */
const mapsRoutes: RouteModule = (r) => {
  r.post('/maps', requireAuth, async (ctx) => {
    const input = body(ctx, mapCreateSchema);
    created<MapDetail>(ctx, toMapDetail(await createMap(currentUser(ctx), input)), 'Sheet created successfully!');
  });
  r.get('/maps/:id', requireAuth, async (ctx) => {
    const { map } = await requireMap(currentUser(ctx), idParam(ctx), 'read');
    ok<MapDetail>(ctx, toMapDetail(map));
  });
  r.put('/maps/:id', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const patch = body(ctx, mapUpdateSchema);
    ok<MapDetail>(ctx, toMapDetail(await updateMap(currentUser(ctx), id, patch)), 'Sheet updated successfully!');
  });
  r.delete('/maps/:id', requireAuth, async (ctx) => {
    ok(ctx, await deleteMap(currentUser(ctx), idParam(ctx)), 'Sheet deleted successfully!');
  });
  r.get('/maps/:id/rooms', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const filter = query(ctx, mapRoomsQuerySchema);
    ok<MapRoom[]>(ctx, await mapRooms(currentUser(ctx), id, filter));
  });
  r.put('/maps/:id/room-positions', requireAuth, async (ctx) => {
    const id = idParam(ctx);
    const input = body(ctx, roomPositionsSchema);
    ok<MapRoom[]>(ctx, await setRoomPositions(currentUser(ctx), id, input), 'Room positions saved.');
  });
};

export default mapsRoutes;
