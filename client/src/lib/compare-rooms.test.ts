import { describe, expect, it } from 'vitest';
import { counterpart, defaultPair, matchingView, nearestRoom, normalizeYaw, viewsDiffer, visitNearestDate } from './compare-rooms';

const rooms = [
  { id: 1, x: 100, y: 100 },
  { id: 2, x: 400, y: 120 },
  { id: 3, x: null, y: null },
  { id: 4, x: 390, y: 500 },
];

describe('the nearest room on the sheet', () => {
  it('finds the placed room nearest a point, with its distance', () => {
    expect(nearestRoom(rooms, 380, 130)).toMatchObject({ id: 2 });
    expect(nearestRoom(rooms, 0, 0)).toMatchObject({ id: 1, distance: Math.hypot(100, 100) });
  });

  it('ignores rooms not placed yet, and has nothing when none is placed', () => {
    expect(nearestRoom([{ id: 3, x: null, y: null }], 0, 0)).toBeNull();
    expect(nearestRoom([], 0, 0)).toBeNull();
  });

  it('breaks a tie by the lower id, so the answer never flickers', () => {
    expect(nearestRoom([{ id: 9, x: 10, y: 0 }, { id: 5, x: -10, y: 0 }], 0, 0)).toMatchObject({ id: 5 });
  });

  it('pairs a room with the other visit’s room at the same place', () => {
    expect(counterpart({ id: 10, x: 395, y: 480 }, rooms)).toMatchObject({ id: 4 });
    expect(counterpart({ id: 10, x: null, y: null }, rooms)).toBeNull();
    expect(counterpart(null, rooms)).toBeNull();
  });
});

describe('choosing a visit by date', () => {
  const visits = [
    { id: 1, date: '2026-01-10' },
    { id: 2, date: '2026-03-01' },
    { id: 3, date: '2026-03-05T10:00:00Z' },
    { id: 4, date: 'not a date' },
  ];

  it('picks the visit nearest the chosen day', () => {
    expect(visitNearestDate(visits, '2026-01-01')).toMatchObject({ id: 1 });
    expect(visitNearestDate(visits, '2026-03-04')).toMatchObject({ id: 3 });
    expect(visitNearestDate(visits, '2026-02-28')).toMatchObject({ id: 2 });
  });

  it('prefers the earlier visit on a tie and answers nothing for an unreadable date', () => {
    expect(visitNearestDate([{ id: 7, date: '2026-01-03' }, { id: 6, date: '2026-01-01' }], '2026-01-02')).toMatchObject({ id: 6 });
    expect(visitNearestDate(visits, '')).toBeNull();
  });

  it('compares the two newest visits by default, the older on the left', () => {
    expect(defaultPair(visits)!.map((v) => v.id)).toEqual([2, 3]);
    expect(defaultPair([{ id: 1, date: '2026-01-01' }])).toBeNull();
  });
});

describe('keeping two views in step', () => {
  it('keeps yaw, pitch and zoom when both rooms face the same way', () => {
    expect(matchingView({ yaw: 1, pitch: 0.2, zoom: 40 }, { id: 1, x: 0, y: 0 }, { id: 2, x: 0, y: 0 })).toEqual({ yaw: 1, pitch: 0.2, zoom: 40 });
  });

  it('keeps the direction on the sheet when the rooms’ headings differ', () => {
    // Room 1 looks 0.25 rad clockwise of the sheet's up at yaw 0, room 2 looks 1 rad: the same direction is 0.75 rad less yaw in room 2.
    const v = matchingView({ yaw: 0.5, pitch: -0.1, zoom: 10 }, { id: 1, x: 0, y: 0, heading: 0.25 }, { id: 2, x: 0, y: 0, heading: 1 });
    expect(v.yaw).toBeCloseTo(normalizeYaw(-0.25));
    expect(v.pitch).toBe(-0.1);
    expect(matchingView({ yaw: 0.1, pitch: 0, zoom: 0 }, { id: 1, x: 0, y: 0, heading: 1 }, { id: 2, x: 0, y: 0 }).yaw).toBeCloseTo(1.1);
  });

  it('tells a real turn from an echo of the same view', () => {
    expect(viewsDiffer({ yaw: 0, pitch: 0, zoom: 50 }, { yaw: Math.PI * 2 - 0.0001, pitch: 0, zoom: 50 })).toBe(false);
    expect(viewsDiffer({ yaw: 0, pitch: 0, zoom: 50 }, { yaw: 0.2, pitch: 0, zoom: 50 })).toBe(true);
    expect(viewsDiffer({ yaw: 0, pitch: 0, zoom: 50 }, { yaw: 0, pitch: 0, zoom: 60 })).toBe(true);
  });
});
