import { describe, expect, it } from 'vitest';
import { parseViewerPath, positiveInt, sameFile, startRoomId, viewerVisitQuery } from './viewer-preload';

describe('parseViewerPath', () => {
  it('reads the code, the room and the point of interest', () => {
    expect(parseViewerPath('/viewer/abc123')).toEqual({ code: 'abc123', room: null, poi: null });
    expect(parseViewerPath('/viewer/abc123/')).toEqual({ code: 'abc123', room: null, poi: null });
    expect(parseViewerPath('/viewer/abc123/7')).toEqual({ code: 'abc123', room: 7, poi: null });
    expect(parseViewerPath('/viewer/abc123/7/42')).toEqual({ code: 'abc123', room: 7, poi: 42 });
  });

  it('decodes the code as the router does', () => {
    expect(parseViewerPath('/viewer/a%20b')?.code).toBe('a b');
  });

  it('ignores segments that are not ids, and other screens', () => {
    expect(parseViewerPath('/viewer/abc/x/0')).toEqual({ code: 'abc', room: null, poi: null });
    expect(parseViewerPath('/viewer/')).toBeNull();
    expect(parseViewerPath('/viewer')).toBeNull();
    expect(parseViewerPath('/visits/3')).toBeNull();
    expect(parseViewerPath('/viewer/a/1/2/3')).toBeNull();
    expect(parseViewerPath('/viewer/%E0%A4%A')).toBeNull();
  });
});

describe('positiveInt', () => {
  it('takes database ids only', () => {
    expect(positiveInt('12')).toBe(12);
    for (const s of ['', '0', '-1', '1e3', '01', 'abc', '12345678901', undefined, null]) expect(positiveInt(s)).toBeNull();
  });
});

describe('viewerVisitQuery', () => {
  it('asks for the point of interest only when the address names one', () => {
    expect(viewerVisitQuery({ code: 'abc', poi: null })).toBe('code=abc');
    expect(viewerVisitQuery({ code: 'abc', poi: 9 })).toBe('code=abc&poi=9');
    expect(viewerVisitQuery({ code: 'a&b', poi: null })).toBe('code=a%26b');
  });
});

describe('startRoomId', () => {
  const visit = { start_room: 1, poi: null, rooms: [{ id: 1 }, { id: 2 }] };
  it("opens at the point of interest's room first", () => {
    expect(startRoomId({ ...visit, poi: { id_room: 2 } }, 1)).toBe(2);
  });
  it('then at the asked room when the visit shows it', () => {
    expect(startRoomId(visit, 2)).toBe(2);
    expect(startRoomId(visit, 5)).toBe(1);
    expect(startRoomId(visit, null)).toBe(1);
  });
  it('has no room for a visit without rooms', () => {
    expect(startRoomId({ start_room: null, poi: null, rooms: [] }, 3)).toBeNull();
  });
});

describe('sameFile', () => {
  it('compares signed file addresses by their path, whatever their expiry and signature', () => {
    expect(sameFile('/api/files/r/1/base.jpg?exp=3600&sig=a', '/api/files/r/1/base.jpg?exp=7200&sig=b')).toBe(true);
    expect(sameFile('/api/files/r/1/base.jpg?exp=3600&sig=a', '/api/files/r/2/base.jpg?exp=3600&sig=a')).toBe(false);
  });
});
