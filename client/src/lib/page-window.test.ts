import { describe, expect, it } from 'vitest';
import { pageOf, pageWindow } from './page-window';

describe('page links', () => {
  it('shows every page of a short list', () => {
    expect(pageWindow(2, 4)).toEqual([1, 2, 3, 4]);
  });
  it('shows the first, the last and the neighbours of the current page, with gaps', () => {
    expect(pageWindow(10, 20)).toEqual([1, null, 9, 10, 11, null, 20]);
    expect(pageWindow(1, 20)).toEqual([1, 2, null, 20]);
  });
});

describe('pageOf', () => {
  it('reads a page number from the address, else the first page', () => {
    expect(pageOf('3')).toBe(3);
    for (const v of [null, undefined, '', '0', '-2', 'abc', '1.5', '9999999']) expect(pageOf(v)).toBe(1);
  });
});
