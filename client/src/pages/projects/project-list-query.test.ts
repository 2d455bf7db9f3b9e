import { describe, expect, it } from 'vitest';
import { projectListQuerySchema } from '@sitewalk/proto';
import { DEFAULT_LIST_STATE, changeListState, isFiltered, listStateToParams, parseListState, toApiQuery } from './project-list-query';

describe('the /projects list state in the address bar', () => {
  it('reads back what it wrote', () => {
    const state = { search: 'tower', category: 4, type: 2, starred: true, sort: 'name' as const, page: 3 };
    expect(listStateToParams(state).toString()).toBe('q=tower&category=4&type=2&starred=1&sort=name&page=3');
    expect(parseListState(listStateToParams(state))).toEqual(state);
  });

  it('keeps links short: the defaults leave nothing in the address', () => {
    expect(listStateToParams(DEFAULT_LIST_STATE).toString()).toBe('');
  });

  it('falls back to the defaults for anything it cannot read', () => {
    expect(parseListState(new URLSearchParams('category=abc&type=-1&sort=random&page=0&starred=yes'))).toEqual(DEFAULT_LIST_STATE);
  });

  it('starts again from page 1 when a filter or the sort changes, not when the page does', () => {
    const onPage3 = { ...DEFAULT_LIST_STATE, page: 3 };
    expect(changeListState(onPage3, { category: 5 }).page).toBe(1);
    expect(changeListState(onPage3, { sort: 'newest' }).page).toBe(1);
    expect(changeListState(onPage3, { page: 4 }).page).toBe(4);
  });

  it('tells a filtered list from a plain one (for the right empty state)', () => {
    expect(isFiltered(DEFAULT_LIST_STATE)).toBe(false);
    expect(isFiltered({ ...DEFAULT_LIST_STATE, search: '  ' })).toBe(false);
    expect(isFiltered({ ...DEFAULT_LIST_STATE, starred: true })).toBe(true);
  });
});

describe('the GET /projects query', () => {
  it('is one the API accepts, with the chosen sort and filters', () => {
    const q = toApiQuery({ search: ' tower ', category: 4, type: 2, starred: true, sort: 'oldest', page: 2 });
    expect(q).toEqual({ page: 2, per_page: 12, sort: 'created_at', order: 'asc', search: 'tower', id_category: 4, id_project_type: 2, starred: 'true' });
    const parsed = projectListQuerySchema.parse(Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])));
    expect(parsed).toMatchObject({ starred: true, sort: 'created_at', id_category: 4 });
  });

  it('leaves out filters that are not set', () => {
    expect(toApiQuery(DEFAULT_LIST_STATE)).toEqual({ page: 1, per_page: 12, sort: 'updated_at', order: 'desc' });
  });
});
