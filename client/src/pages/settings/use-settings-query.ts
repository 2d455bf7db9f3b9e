import { useQuery } from '@tanstack/react-query';
import type { Settings } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { SETTINGS_MESSAGES } from '../../lib/settings-form';

/**
 * Every setting as an administrator edits them (GET /settings), read afresh
 * on each visit: the form starts from it, and a copy kept from an earlier
 * visit could start it from values since changed.
 */
export function useSettingsQuery() {
  return useQuery({
    queryKey: ['settings', 'admin'],
    queryFn: ({ signal }) => api.get<Settings>('/settings', SETTINGS_MESSAGES.loadFailed, { signal }),
    gcTime: 0,
  });
}
