import { pageOf } from '../../lib/page-window';

/**
 * The users list's state in the address (?search=&page=), so Back and a
 * reload keep the search and the page, and its GET /users query. Pure.
 */

export const USERS_PER_PAGE = 20;

export interface UsersListState {
  search: string;
  page: number;
}

export function parseUsersListState(params: URLSearchParams): UsersListState {
  return { search: (params.get('search') ?? '').slice(0, 100), page: pageOf(params.get('page')) };
}

/** The address parameters of a state; defaults are left out so the address stays short. */
export function usersListParams(s: UsersListState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.search.trim()) p.set('search', s.search.trim());
  if (s.page > 1) p.set('page', String(s.page));
  return p;
}

/** GET /users query of a state. */
export function usersApiQuery(s: UsersListState): Record<string, string | number> {
  const q: Record<string, string | number> = { page: s.page, per_page: USERS_PER_PAGE };
  if (s.search.trim()) q.search = s.search.trim();
  return q;
}

/** How many pages a list of `total` users takes (at least one). */
export const pageCount = (total: number, perPage = USERS_PER_PAGE) => Math.max(1, Math.ceil(total / perPage));

/**
 * The page to show after deleting a user: the same one, or the one before
 * when the deleted user was the only one on the last page.
 */
export const pageAfterDelete = (s: UsersListState, total: number) => Math.min(s.page, pageCount(Math.max(0, total - 1)));
