/**
 * The /approvals list state kept in the address (?view=all&q=…&page=2), so
 * Back, a reload and a shared link show the same list, and its GET /projects
 * query. Pure, unit-tested.
 */

export const APPROVALS_PER_PAGE = 20;

export type ApprovalsView = 'pending' | 'all';

export interface ApprovalsState {
  view: ApprovalsView;
  search: string;
  page: number;
}

export function parseApprovalsState(params: URLSearchParams): ApprovalsState {
  const page = params.get('page');
  return {
    view: params.get('view') === 'all' ? 'all' : 'pending',
    search: (params.get('q') ?? '').slice(0, 100),
    page: page && /^[1-9]\d{0,9}$/.test(page) ? Number(page) : 1,
  };
}

/** The address form of a state; defaults are left out to keep links short. */
export function approvalsParams(s: ApprovalsState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.view === 'all') p.set('view', 'all');
  if (s.search.trim()) p.set('q', s.search.trim());
  if (s.page > 1) p.set('page', String(s.page));
  return p;
}

/** GET /projects of a state: every user's projects, the ones awaiting approval oldest first. */
export function approvalsApiQuery(s: ApprovalsState): Record<string, string | number> {
  const q: Record<string, string | number> = { scope: 'all', page: s.page, per_page: APPROVALS_PER_PAGE, sort: 'created_at', order: s.view === 'pending' ? 'asc' : 'desc' };
  if (s.view === 'pending') q.validated = 'false';
  if (s.search.trim()) q.search = s.search.trim();
  return q;
}
