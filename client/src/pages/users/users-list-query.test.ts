import { describe, expect, it } from 'vitest';
import { pageAfterDelete, pageCount, parseUsersListState, usersApiQuery, usersListParams } from './users-list-query';

describe('the users list in the address', () => {
  it('reads the search and the page, ignoring nonsense', () => {
    expect(parseUsersListState(new URLSearchParams('search=hala&page=3'))).toEqual({ search: 'hala', page: 3 });
    expect(parseUsersListState(new URLSearchParams('page=-2'))).toEqual({ search: '', page: 1 });
    expect(parseUsersListState(new URLSearchParams('page=abc'))).toEqual({ search: '', page: 1 });
  });

  it('writes a short address and the GET /users query', () => {
    expect(usersListParams({ search: ' ', page: 1 }).toString()).toBe('');
    expect(usersListParams({ search: 'hala ', page: 2 }).toString()).toBe('search=hala&page=2');
    expect(usersApiQuery({ search: ' hala', page: 2 })).toEqual({ page: 2, per_page: 20, search: 'hala' });
    expect(usersApiQuery({ search: '', page: 1 })).toEqual({ page: 1, per_page: 20 });
  });

  it('counts pages and steps back when the last user of the last page goes', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(41)).toBe(3);
    expect(pageAfterDelete({ search: '', page: 3 }, 41)).toBe(2);
    expect(pageAfterDelete({ search: '', page: 2 }, 41)).toBe(2);
  });
});
