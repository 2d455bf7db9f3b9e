import { describe, expect, it } from 'vitest';
import { annotationListQuerySchema } from '@sitewalk/proto';
import {
  DEFAULT_SNAG_LIST_STATE,
  changeSnagListState,
  isSnagListFiltered,
  parseSnagListState,
  snagListStateToParams,
  toAnnotationQuery,
  toggledStatuses,
} from './snag-list-state';

const chosen = {
  ...DEFAULT_SNAG_LIST_STATE,
  id_project: '4',
  id_visit: '9',
  id_map: '2',
  status: ['open' as const, 'closed' as const],
  priority: 'high' as const,
  assignee: 'me' as const,
  due: 'overdue' as const,
  search: 'tile',
  sort: 'due_date' as const,
  order: 'asc' as const,
  page: 3,
};

describe('the /snaglist filters in the address bar', () => {
  it('reads back what it wrote', () => {
    expect(snagListStateToParams(chosen).toString()).toBe('q=tile&project=4&visit=9&sheet=2&status=open%2Cclosed&priority=high&assignee=me&due=overdue&sort=due_date&order=asc&page=3');
    expect(parseSnagListState(snagListStateToParams(chosen))).toEqual(chosen);
  });

  it('keeps links short: the defaults leave nothing in the address', () => {
    expect(snagListStateToParams(DEFAULT_SNAG_LIST_STATE).toString()).toBe('');
  });

  it('falls back to the defaults for anything it cannot read, and drops a visit or sheet without its project', () => {
    const odd = new URLSearchParams('project=abc&visit=3&status=done,open&priority=urgent&assignee=7&due=soon&sort=random&order=up&page=0');
    expect(parseSnagListState(odd)).toEqual({ ...DEFAULT_SNAG_LIST_STATE, status: ['open'] });
  });

  it('starts again from page 1 when a filter changes, and forgets the visit and sheet of another project', () => {
    expect(changeSnagListState(chosen, { priority: 'low' }).page).toBe(1);
    expect(changeSnagListState(chosen, { page: 4 })).toEqual({ ...chosen, page: 4 });
    expect(changeSnagListState(chosen, { id_project: '5' })).toMatchObject({ id_project: '5', id_visit: '', id_map: '', page: 1 });
  });

  it('switches a status chip on and off, keeping the order of the statuses', () => {
    expect(toggledStatuses(chosen.status, 'in_progress')).toEqual(['open', 'in_progress', 'closed']);
    expect(toggledStatuses(chosen.status, 'open')).toEqual(['closed']);
  });

  it('tells a filtered list from a plain one (for the right empty state)', () => {
    expect(isSnagListFiltered(DEFAULT_SNAG_LIST_STATE)).toBe(false);
    expect(isSnagListFiltered({ ...DEFAULT_SNAG_LIST_STATE, sort: 'title', page: 2 })).toBe(false);
    expect(isSnagListFiltered({ ...DEFAULT_SNAG_LIST_STATE, due: 'none' })).toBe(true);
  });
});

describe('the GET /annotations query', () => {
  it('is one the API accepts, with the chosen filters and sort', () => {
    const q = toAnnotationQuery(chosen);
    expect(q).toEqual({ page: 3, per_page: 20, sort: 'due_date', order: 'asc', id_project: 4, id_visit: 9, id_map: 2, status: 'open,closed', priority: 'high', assignee: 'me', due: 'overdue', search: 'tile' });
    const parsed = annotationListQuerySchema.parse(Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)])));
    expect(parsed).toMatchObject({ status: ['open', 'closed'], priority: ['high'], id_visit: 9, assignee: 'me' });
  });

  it('leaves out filters that are not set', () => {
    expect(toAnnotationQuery(DEFAULT_SNAG_LIST_STATE)).toEqual({ page: 1, per_page: 20, sort: 'updated_at', order: 'desc' });
  });
});
