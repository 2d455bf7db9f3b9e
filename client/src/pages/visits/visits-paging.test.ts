import { describe, expect, it } from 'vitest';
import { allPages } from './visits-paging';

describe('allPages', () => {
  const server = (total: number) => {
    const asked: number[] = [];
    const fetchPage = async (page: number, perPage: number) => {
      asked.push(page);
      const from = (page - 1) * perPage;
      return { items: Array.from({ length: Math.max(0, Math.min(perPage, total - from)) }, (_, i) => from + i), total };
    };
    return { asked, fetchPage };
  };

  it('gets every item beyond the first hundred', async () => {
    const s = server(250);
    const items = await allPages(s.fetchPage);
    expect(items).toHaveLength(250);
    expect(items[249]).toBe(249);
    expect(s.asked).toEqual([1, 2, 3]);
  });

  it('asks once for a short list, and stops on an exact multiple', async () => {
    const short = server(7);
    expect(await allPages(short.fetchPage)).toHaveLength(7);
    expect(short.asked).toEqual([1]);
    const exact = server(200);
    expect(await allPages(exact.fetchPage)).toHaveLength(200);
    expect(exact.asked).toEqual([1, 2]);
  });

  it('stops when a page comes back short even if the total said more (items deleted meanwhile)', async () => {
    const fetchPage = async (page: number) => ({ items: page === 1 ? Array.from({ length: 100 }, (_, i) => i) : [1, 2], total: 500 });
    expect(await allPages(fetchPage)).toHaveLength(102);
  });
});
