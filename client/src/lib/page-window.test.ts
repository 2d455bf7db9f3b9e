import { describe, expect, it } from 'vitest';
import { pageFromAddress, pageWindow } from './page-window';

describe('page links', () => {
  it('shows every page of a short list', () => {
    expect(pageWindow(2, 4)).toEqual([1, 2, 3, 4]);
  });
  it('shows the first, the last and the neighbours of the current page, with gaps', () => {
    expect(pageWindow(10, 20)).toEqual([1, null, 9, 10, 11, null, 20]);
    expect(pageWindow(1, 20)).toEqual([1, 2, null, 20]);
  });
});

describe('the page an address names', () => {
  it('reads ?page= and falls back to the first page for anything else', () => {
    expect(pageFromAddress(new URLSearchParams('page=3'))).toBe(3);
    expect(pageFromAddress(new URLSearchParams(''))).toBe(1);
    expect(pageFromAddress(new URLSearchParams('page=0'))).toBe(1);
    expect(pageFromAddress(new URLSearchParams('page=2.5'))).toBe(1);
    expect(pageFromAddress(new URLSearchParams('page=abc'))).toBe(1);
  });
});
