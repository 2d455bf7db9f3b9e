import { describe, expect, it } from 'vitest';
import { approvalsApiQuery, approvalsParams, parseApprovalsState } from './approvals-list';

describe('the approvals list in the address', () => {
  it('reads the view, search and page, anything unreadable falling back to the first page of projects awaiting approval', () => {
    expect(parseApprovalsState(new URLSearchParams('view=all&q=tower&page=3'))).toEqual({ view: 'all', search: 'tower', page: 3 });
    expect(parseApprovalsState(new URLSearchParams('view=odd&page=-2'))).toEqual({ view: 'pending', search: '', page: 1 });
  });

  it('writes back only what differs from the default, so a link stays short', () => {
    expect(approvalsParams({ view: 'pending', search: '  ', page: 1 }).toString()).toBe('');
    expect(approvalsParams({ view: 'all', search: ' tower ', page: 2 }).toString()).toBe('view=all&q=tower&page=2');
  });

  it('asks for the unvalidated projects oldest first, or every project newest first', () => {
    expect(approvalsApiQuery({ view: 'pending', search: '', page: 1 })).toEqual({ scope: 'all', page: 1, per_page: 20, sort: 'created_at', order: 'asc', validated: 'false' });
    expect(approvalsApiQuery({ view: 'all', search: 'tower', page: 2 })).toEqual({ scope: 'all', page: 2, per_page: 20, sort: 'created_at', order: 'desc', search: 'tower' });
  });
});
