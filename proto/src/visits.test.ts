import { describe, expect, it } from 'vitest';
import { bindHotspotSchema, normaliseYaw, poiCreateSchema, roomUpdateSchema, visitCreateSchema, viewerRoomPoisQuerySchema } from './visits.js';

describe('angles', () => {
  it('brings any yaw into 0..2π, as Photo Sphere Viewer gives them', () => {
    expect(normaliseYaw(0)).toBe(0);
    expect(normaliseYaw(-Math.PI / 2)).toBeCloseTo((3 * Math.PI) / 2);
    expect(normaliseYaw(2 * Math.PI)).toBe(0);
    expect(normaliseYaw(7)).toBeCloseTo(7 - 2 * Math.PI);
  });

  it('refuses a pitch beyond the poles, a yaw in degrees and a link of a room to itself', () => {
    expect(bindHotspotSchema.safeParse({ id_room: 1, id_room_target: 2, yaw: 1, pitch: 1.6 }).success).toBe(false);
    expect(bindHotspotSchema.safeParse({ id_room: 1, id_room_target: 2, yaw: '90deg', pitch: 0 }).success).toBe(false);
    const self = bindHotspotSchema.safeParse({ id_room: 3, id_room_target: 3, yaw: 0, pitch: 0 });
    expect(self.success ? null : self.error.issues[0].message).toBe('A room cannot link to itself.');
  });
});

describe('visit and room forms', () => {
  it('reads a visit from form fields (digits, an empty sheet) as from JSON', () => {
    expect(visitCreateSchema.parse({ id_project: '12', name: ' Walk ', id_map: '' })).toEqual({ id_project: 12, name: 'Walk', id_map: null });
    expect(visitCreateSchema.parse({ id_project: 12, name: 'Walk', date: '2026-03-31', id_map: 4 })).toMatchObject({ date: '2026-03-31', id_map: 4 });
    expect(visitCreateSchema.safeParse({ id_project: 12, name: 'Walk', date: '31/03/2026' }).success).toBe(false);
    expect(visitCreateSchema.safeParse({ id_project: true, name: 'Walk' }).success).toBe(false);
  });

  it('places a room with x and y together, and only links that start with http(s)', () => {
    expect(roomUpdateSchema.safeParse({ x: 1 }).success).toBe(false);
    expect(roomUpdateSchema.parse({ id_map: null })).toEqual({ id_map: null });
    expect(poiCreateSchema.safeParse({ id_room: 1, title: 'x', yaw: 0, pitch: 0, link: 'javascript:alert(1)' }).success).toBe(false);
    expect(poiCreateSchema.parse({ id_room: 1, title: 'x', yaw: 0, pitch: 0, link: 'https://example.test' }).link).toBe('https://example.test');
  });

  it('reads edit_room as true or false only', () => {
    expect(viewerRoomPoisQuerySchema.parse({ code: 'abc', id_room: '5', edit_room: '1' })).toEqual({ code: 'abc', id_room: 5, edit_room: true });
    expect(viewerRoomPoisQuerySchema.safeParse({ code: 'abc', id_room: '5', edit_room: 'yes' }).success).toBe(false);
  });
});
