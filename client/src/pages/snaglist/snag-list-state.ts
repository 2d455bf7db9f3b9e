import {
  ANNOTATION_DUE_FILTERS,
  ANNOTATION_PRIORITIES,
  ANNOTATION_SORTS,
  ANNOTATION_STATUSES,
  type AnnotationDueFilter,
  type AnnotationListQuery,
  type AnnotationPriority,
  type AnnotationSort,
  type AnnotationStatus,
} from '@sitewalk/proto';

/**
 * The /snaglist filters, sort and page kept in the address bar (so Back,
 * reload and a shared link show the same list, as /projects does), and
 * their translation into the query of GET /annotations. Pure, unit-tested.
 * Ids stay strings here because the filter selects hold them so ('' = all).
 */

export const SNAGS_PER_PAGE = 20;

export interface SnagListState {
  id_project: string;
  id_visit: string;
  id_map: string;
  status: AnnotationStatus[];
  priority: '' | AnnotationPriority;
  assignee: '' | 'me' | 'none';
  due: '' | AnnotationDueFilter;
  search: string;
  sort: AnnotationSort;
  order: 'asc' | 'desc';
  page: number;
}

export const DEFAULT_SNAG_LIST_STATE: SnagListState = {
  id_project: '',
  id_visit: '',
  id_map: '',
  status: [],
  priority: '',
  assignee: '',
  due: '',
  search: '',
  sort: 'updated_at',
  order: 'desc',
  page: 1,
};

const idText = (v: string | null): string => (v && /^[1-9]\d{0,9}$/.test(v) ? v : '');
const oneOf = <T extends string>(values: readonly T[], v: string | null, fallback: T | ''): T | '' => (values.includes(v as T) ? (v as T) : fallback);

/** Reads the list state from the address bar; anything unreadable falls back to the default. */
export function parseSnagListState(params: URLSearchParams): SnagListState {
  const d = DEFAULT_SNAG_LIST_STATE;
  const project = idText(params.get('project'));
  const statuses = (params.get('status') ?? '').split(',');
  const page = idText(params.get('page'));
  return {
    id_project: project,
    // A visit or sheet means nothing without its project (the filters offer them only then).
    id_visit: project ? idText(params.get('visit')) : '',
    id_map: project ? idText(params.get('sheet')) : '',
    status: ANNOTATION_STATUSES.filter((s) => statuses.includes(s)),
    priority: oneOf(ANNOTATION_PRIORITIES, params.get('priority'), ''),
    assignee: oneOf(['me', 'none'] as const, params.get('assignee'), ''),
    due: oneOf(ANNOTATION_DUE_FILTERS, params.get('due'), ''),
    search: (params.get('q') ?? '').trim().slice(0, 100),
    sort: oneOf(ANNOTATION_SORTS, params.get('sort'), d.sort) || d.sort,
    order: params.get('order') === 'asc' ? 'asc' : params.get('order') === 'desc' ? 'desc' : d.order,
    page: page ? Number(page) : 1,
  };
}

/** The address-bar form of a list state; defaults are left out to keep links short. */
export function snagListStateToParams(s: SnagListState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.search.trim()) p.set('q', s.search.trim());
  if (s.id_project) p.set('project', s.id_project);
  if (s.id_project && s.id_visit) p.set('visit', s.id_visit);
  if (s.id_project && s.id_map) p.set('sheet', s.id_map);
  if (s.status.length) p.set('status', s.status.join(','));
  if (s.priority) p.set('priority', s.priority);
  if (s.assignee) p.set('assignee', s.assignee);
  if (s.due) p.set('due', s.due);
  if (s.sort !== DEFAULT_SNAG_LIST_STATE.sort) p.set('sort', s.sort);
  if (s.order !== DEFAULT_SNAG_LIST_STATE.order) p.set('order', s.order);
  if (s.page > 1) p.set('page', String(s.page));
  return p;
}

/**
 * A change of filters or sort starts again from page 1 (only a page change
 * keeps the rest); another project drops the visit and sheet of the last one,
 * which would match nothing.
 */
export function changeSnagListState(s: SnagListState, change: Partial<SnagListState>): SnagListState {
  const next = { ...s, ...change };
  if (!('page' in change)) next.page = 1;
  if ('id_project' in change && change.id_project !== s.id_project) {
    next.id_visit = change.id_visit ?? '';
    next.id_map = change.id_map ?? '';
  }
  return next;
}

/** The status filter with one status chip switched on or off, in the statuses' own order. */
export function toggledStatuses(chosen: readonly AnnotationStatus[], status: AnnotationStatus): AnnotationStatus[] {
  const on = chosen.includes(status);
  return ANNOTATION_STATUSES.filter((x) => (x === status ? !on : chosen.includes(x)));
}

/** The GET /annotations query of a list state, filters not set left out. */
export function toAnnotationQuery(s: SnagListState): AnnotationListQuery {
  const q: AnnotationListQuery = { page: s.page, per_page: SNAGS_PER_PAGE, sort: s.sort, order: s.order };
  if (s.id_project) q.id_project = Number(s.id_project);
  if (s.id_project && s.id_visit) q.id_visit = Number(s.id_visit);
  if (s.id_project && s.id_map) q.id_map = Number(s.id_map);
  if (s.status.length) q.status = s.status.join(',');
  if (s.priority) q.priority = s.priority;
  if (s.assignee) q.assignee = s.assignee;
  if (s.due) q.due = s.due;
  if (s.search.trim()) q.search = s.search.trim();
  return q;
}

/** Whether the list is narrowed by something the user chose (an empty list then means "no match", not "no snags"). */
export const isSnagListFiltered = (s: SnagListState) =>
  !!(s.id_project || s.status.length || s.priority || s.assignee || s.due || s.search.trim());
