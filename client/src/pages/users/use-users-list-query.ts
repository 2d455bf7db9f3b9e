import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { UserList } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';
import { usersApiQuery, type UsersListState } from './users-list-query';

/** Every read of the users list in the query cache, whatever its search and page. */
export const USER_LISTS = ['users', 'list'] as const;

const FETCH_FAILED = tk('Failed to fetch users');

/** One page of the accounts under the list state (GET /users, super admins). */
export function useUsersListQuery(state: UsersListState) {
  const params = useMemo(() => usersApiQuery(state), [state]);
  return useQuery({
    queryKey: [...USER_LISTS, params],
    queryFn: ({ signal }) => api.get<UserList>('/users', FETCH_FAILED, { params, signal }),
    // The rows of the last search stay while the next ones load, instead of a spinner.
    placeholderData: keepPreviousData,
  });
}
