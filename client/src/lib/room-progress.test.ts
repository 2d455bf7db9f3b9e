import { describe, expect, it } from 'vitest';
import type { JobProgressEvent } from '@sitewalk/proto';
import { applyRoomEvent, isRoomEventFor, move, tilingFrom } from './room-progress';

const event = (over: Partial<JobProgressEvent> = {}): JobProgressEvent => ({
  job: 'room.tiles',
  subject: { kind: 'room', id: 7 },
  project_id: 3,
  state: 'active',
  percent: 40,
  message: 'Cutting tiles',
  detail: { id_visit: 2, id_room: 7, status: 'processing' },
  ...over,
});

describe('tiling progress of the rooms of a visit', () => {
  it('keeps the events of this visit’s rooms only', () => {
    expect(isRoomEventFor(event(), 2)).toBe(true);
    expect(isRoomEventFor(event(), 5)).toBe(false);
    expect(isRoomEventFor(event({ job: 'sheet.from-pdf' }), 2)).toBe(false);
  });

  it('starts from the visit’s answer and follows the events', () => {
    let s = tilingFrom([
      { id: 7, status: 'queued', error: null },
      { id: 8, status: 'failed', error: 'The photo could not be read.' },
    ]);
    expect(s[8]).toEqual({ status: 'failed', percent: 0, message: 'The photo could not be read.' });
    s = applyRoomEvent(s, event());
    expect(s[7]).toEqual({ status: 'processing', percent: 40, message: 'Cutting tiles' });
    s = applyRoomEvent(s, event({ state: 'completed', percent: 100, message: 'Ready' }));
    expect(s[7].status).toBe('ready');
  });

  it('ignores a repeated event and never takes a finished room back', () => {
    const s = applyRoomEvent({}, event({ state: 'completed', percent: 100 }));
    expect(applyRoomEvent(s, event({ state: 'completed', percent: 100 }))).toBe(s);
    expect(applyRoomEvent(s, event({ state: 'active', percent: 60 }))).toBe(s);
  });

  it('moves a room up or down the list', () => {
    expect(move([1, 2, 3], 2, 0)).toEqual([3, 1, 2]);
    expect(move([1, 2, 3], 0, 1)).toEqual([2, 1, 3]);
    expect(move([1, 2, 3], 0, 5)).toEqual([1, 2, 3]);
  });
});
