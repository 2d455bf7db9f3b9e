import type { ProjectListQuery, ProjectSort } from '@sitewalk/proto';
import { tk } from '../../lib/i18n-keys';

/**
 * The /projects list state kept in the address bar (so Back, reload and a
 * shared link show the same list), and its translation into the query of
 * GET /projects. Pure, unit-tested.
 */

export const PROJECTS_PER_PAGE = 12;

/** The sort choices offered, each a (field, direction) pair of the API. */
export const SORT_OPTIONS = [
  { value: 'updated', label: tk('Recently updated'), sort: 'updated_at', order: 'desc' },
  { value: 'newest', label: tk('Newest first'), sort: 'created_at', order: 'desc' },
  { value: 'oldest', label: tk('Oldest first'), sort: 'created_at', order: 'asc' },
  { value: 'name', label: tk('Name (A to Z)'), sort: 'name', order: 'asc' },
  { value: 'name-desc', label: tk('Name (Z to A)'), sort: 'name', order: 'desc' },
] as const satisfies readonly { value: string; label: string; sort: ProjectSort; order: 'asc' | 'desc' }[];

export type SortChoice = (typeof SORT_OPTIONS)[number]['value'];

export interface ProjectListState {
  search: string;
  category: number | null;
  type: number | null;
  starred: boolean;
  sort: SortChoice;
  page: number;
}

export const DEFAULT_LIST_STATE: ProjectListState = { search: '', category: null, type: null, starred: false, sort: 'updated', page: 1 };

const positiveInt = (v: string | null): number | null => (v && /^[1-9]\d{0,9}$/.test(v) ? Number(v) : null);

/** Reads the list state from the address bar; anything unreadable falls back to the default. */
export function parseListState(params: URLSearchParams): ProjectListState {
  const sort = params.get('sort');
  return {
    search: (params.get('q') ?? '').slice(0, 100),
    category: positiveInt(params.get('category')),
    type: positiveInt(params.get('type')),
    starred: params.get('starred') === '1',
    sort: SORT_OPTIONS.some((o) => o.value === sort) ? (sort as SortChoice) : DEFAULT_LIST_STATE.sort,
    page: positiveInt(params.get('page')) ?? 1,
  };
}

/** The address-bar form of a list state; defaults are left out to keep links short. */
export function listStateToParams(s: ProjectListState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.search.trim()) p.set('q', s.search.trim());
  if (s.category) p.set('category', String(s.category));
  if (s.type) p.set('type', String(s.type));
  if (s.starred) p.set('starred', '1');
  if (s.sort !== DEFAULT_LIST_STATE.sort) p.set('sort', s.sort);
  if (s.page > 1) p.set('page', String(s.page));
  return p;
}

/**
 * A change of filters or sort starts again from page 1; only a page change
 * keeps the rest as it is.
 */
export function changeListState(s: ProjectListState, change: Partial<ProjectListState>): ProjectListState {
  const next = { ...s, ...change };
  if (!('page' in change)) next.page = 1;
  return next;
}

/** The GET /projects query of a list state. */
export function toApiQuery(s: ProjectListState): ProjectListQuery {
  const sort = SORT_OPTIONS.find((o) => o.value === s.sort) ?? SORT_OPTIONS[0];
  const q: ProjectListQuery = { page: s.page, per_page: PROJECTS_PER_PAGE, sort: sort.sort, order: sort.order };
  if (s.search.trim()) q.search = s.search.trim();
  if (s.category) q.id_category = s.category;
  if (s.type) q.id_project_type = s.type;
  if (s.starred) q.starred = 'true';
  return q;
}

/** Whether the list is narrowed by something the user chose (an empty list then means "no match", not "no projects"). */
export const isFiltered = (s: ProjectListState) => !!s.search.trim() || !!s.category || !!s.type || s.starred;
