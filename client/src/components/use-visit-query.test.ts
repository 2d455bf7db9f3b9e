import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-client';
import { visitLoadOf } from './use-visit-query';

const pending = { status: 'pending' as const, error: null };
const done = { status: 'success' as const, error: null };
const failed = (status: number | null) => ({ status: 'error' as const, error: new ApiError('Failed to load the visit.', status) });

describe('the load state of a visit screen from its reads', () => {
  it('is ready only when every read is there', () => {
    expect(visitLoadOf([done, done])).toEqual({ status: 'ready' });
    expect(visitLoadOf([done, pending])).toEqual({ status: 'loading' });
    // The project's read waits for the visit's: not started is loading, not ready.
    expect(visitLoadOf([pending, pending])).toEqual({ status: 'loading' });
  });

  it('shows the 404 page for a visit or project the user may not see (404 or 403)', () => {
    expect(visitLoadOf([failed(404), pending])).toEqual({ status: 'missing' });
    expect(visitLoadOf([done, failed(403)])).toEqual({ status: 'missing' });
  });

  it('shows the retry for any other failure, even while another read is on its way', () => {
    expect(visitLoadOf([failed(500), pending])).toEqual({ status: 'error' });
    expect(visitLoadOf([done, failed(null)])).toEqual({ status: 'error' });
    expect(visitLoadOf([{ status: 'error', error: new Error('offline') }])).toEqual({ status: 'error' });
  });
});
