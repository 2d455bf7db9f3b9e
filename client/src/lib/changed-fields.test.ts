import { describe, expect, it } from 'vitest';
import { changedValues, hasChanges, markSaved, setField, startTracking, valuesEqual } from './changed-fields';

describe('valuesEqual', () => {
  it('compares arrays without regard to order', () => {
    expect(valuesEqual([1, 2, 3], [3, 1, 2])).toBe(true);
    expect(valuesEqual(['a', 'b'], ['a', 'b', 'b'])).toBe(false);
    expect(valuesEqual([{ id: 1 }, { id: 2 }], [{ id: 2 }, { id: 1 }])).toBe(true);
  });

  it('compares objects deeply, whatever the key order', () => {
    expect(valuesEqual({ a: 1, b: [2, 1] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(valuesEqual({ a: 1 }, { a: 2 })).toBe(false);
  });

  it('treats undefined as null but tells an empty string apart', () => {
    expect(valuesEqual(undefined, null)).toBe(true);
    expect(valuesEqual('', null)).toBe(false);
  });
});

describe('change tracking', () => {
  const initial = { name: 'Tower A', categories: [1, 2], city: 'Amman' };

  it('records a change only when the value differs', () => {
    let s = startTracking(initial);
    s = setField(s, 'categories', [2, 1]);
    expect(hasChanges(s)).toBe(false);
    s = setField(s, 'name', 'Tower B');
    expect([...s.changed]).toEqual(['name']);
    expect(hasChanges(s)).toBe(true);
  });

  it('forgets a change that is set back', () => {
    let s = setField(startTracking(initial), 'city', 'Irbid');
    s = setField(s, 'city', 'Amman');
    expect(hasChanges(s)).toBe(false);
  });

  it('sends only the changed fields, and a save clears them', () => {
    let s = setField(startTracking(initial), 'categories', [3]);
    s = setField(s, 'city', 'Zarqa');
    expect(changedValues(s)).toEqual({ categories: [3], city: 'Zarqa' });
    s = markSaved(s);
    expect(hasChanges(s)).toBe(false);
    expect(s.initial).toEqual({ name: 'Tower A', categories: [3], city: 'Zarqa' });
  });
});
