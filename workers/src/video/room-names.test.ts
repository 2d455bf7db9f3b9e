import { describe, expect, it } from 'vitest';
import { areaRoomNames, isAreaLabel, videoClock, videoRoomNames } from './room-names.js';

describe('names of the rooms a video makes', () => {
  it('reads the time as minutes and seconds, cutting (not rounding) the fraction', () => {
    expect(videoClock(3.96)).toBe('0:03');
    expect(videoClock(3.96, 1)).toBe('0:03.9');
    expect(videoClock(125.5, 1)).toBe('2:05.5');
    expect(videoClock(0.3, 1)).toBe('0:00.3');
    expect(videoClock(59.999, 2)).toBe('0:59.99');
    expect(videoClock(-1)).toBe('0:00');
  });

  it('keeps the short name when it is already unique', () => {
    expect(videoRoomNames([1, 3, 7])).toEqual(['Video 0:01', 'Video 0:03', 'Video 0:07']);
  });

  it('gives rooms taken in the same second tenths, and only those rooms', () => {
    expect(videoRoomNames([3.0, 3.5, 5.2])).toEqual(['Video 0:03.0', 'Video 0:03.5', 'Video 0:05']);
  });

  it('goes to hundredths when tenths are not enough', () => {
    expect(videoRoomNames([3.51, 3.55])).toEqual(['Video 0:03.51', 'Video 0:03.55']);
  });

  it('never takes a name another room of the visit already has', () => {
    expect(videoRoomNames([3.2], ['Video 0:03'])).toEqual(['Video 0:03.2']);
  });

  it('adds a counter when even milliseconds collide', () => {
    const names = videoRoomNames([3.5, 3.5, 3.5]);
    expect(new Set(names).size).toBe(3);
    expect(names).toEqual(['Video 0:03.500 (2)', 'Video 0:03.500 (3)', 'Video 0:03.500 (4)']);
  });

  it('names an 86-room walk without one repeat', () => {
    // About 2.3 rooms a second for 37 s, as a slow turn makes keyframes close together.
    const times = Array.from({ length: 86 }, (_, i) => i * 0.43);
    const names = videoRoomNames(times);
    expect(new Set(names).size).toBe(86);
    expect(names.every((n) => n.startsWith('Video 0:'))).toBe(true);
  });
});

describe('names of video rooms from the plan', () => {
  const labels = [
    { text: 'Kitchen', x: 100, y: 100 },
    { text: 'Room B', x: 400, y: 100 },
    { text: '3.40', x: 120, y: 100 },
    { text: 'Scale 1:100 — drawn by the architects of the project', x: 400, y: 400 },
  ];

  it('names each room by the nearest label of the plan, numbered in walking order', () => {
    const rooms = [
      { x: 90, y: 110, time: 1 },
      { x: 130, y: 90, time: 2 },
      { x: 390, y: 120, time: 3 },
      { x: 110, y: 100, time: 4 },
    ];
    expect(areaRoomNames(rooms, labels, 100)).toEqual(['Kitchen · 1', 'Kitchen · 2', 'Room B · 1', 'Kitchen · 3']);
  });

  it('falls back to the time in the video when no label is in reach, and never repeats a name of the visit', () => {
    const rooms = [
      { x: 105, y: 100, time: 1 },
      { x: 1000, y: 1000, time: 3.5 },
    ];
    expect(areaRoomNames(rooms, labels, 100, ['Kitchen · 1', 'Kitchen · 4', 'Video 0:03'])).toEqual(['Kitchen · 5', 'Video 0:03.5']);
  });

  it('takes room names and skips measures, levels and title-block sentences', () => {
    for (const t of ['Kitchen', 'Room B', 'WC', 'A-101 Lobby', 'غرفة النوم']) expect(isAreaLabel(t), t).toBe(true);
    for (const t of ['3.40', "12'6\"", '1:100', '25 m²', '+3.20', 'x', '12', 'Scale 1:100 — drawn by the architects of the project']) expect(isAreaLabel(t), t).toBe(false);
  });
});
