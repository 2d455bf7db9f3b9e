import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { effectiveRole, formMessages, type User } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formatDateTime, formatNumber } from '../../lib/format';
import { formToast } from '../../lib/toast';
import { useAuthStore } from '../../stores/auth.store';
import { Spinner } from '../../components/spinner';
import { UserAvatar } from '../../components/user-avatar';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { Pagination } from '../../components/pagination';
import { ROLE_LABELS, userDisplayName } from '../edit-user/user-form';
import { pageAfterDelete, pageCount, parseUsersListState, usersListParams, type UsersListState } from './users-list-query';
import { useAddressSearch } from '../../lib/use-address-search';
import { USER_LISTS, useUsersListQuery } from './use-users-list-query';
import '../settings/settings.css';

const M = formMessages('User');

/**
 * /users (super admins): every account, searched and a page at a time, with
 * links to create and edit users and a confirmed delete (never yourself).
 */
export default function UsersPage() {
  const { t, i18n } = useTranslation();
  const me = useAuthStore((s) => s.user?.id);
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseUsersListState(params), [params]);
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState<{ user: User; busy: boolean } | null>(null);

  const go = (next: UsersListState, replace = false) => setParams(usersListParams(next), { replace });

  const [searchText, setSearchText] = useAddressSearch(state.search, (text) => setParams(usersListParams({ search: text, page: 1 }), { replace: true }));
  const users = useUsersListQuery(state);
  const list = users.data ?? null;

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleting({ ...deleting, busy: true });
    try {
      // SPEC §7: the delete carries the current user's id.
      await api.delete(`/users/${deleting.user.id}`, M.deleteFailed, { params: me ? { id_user: me } : undefined });
      formToast('success', t(M.deleted));
      setDeleting(null);
      const page = pageAfterDelete(state, list?.total ?? 0);
      if (page !== state.page) go({ ...state, page }, true);
      void queryClient.invalidateQueries({ queryKey: USER_LISTS });
    } catch (err) {
      formToast('error', t((err as Error).message || M.deleteFailed));
      setDeleting((d) => d && { ...d, busy: false });
    }
  };

  const searching = state.search.trim() !== '';

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="users-heading">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h2 id="users-heading" className="h6 mb-0 me-auto">
          {t('Users')}
          {list && <span className="badge text-bg-secondary ms-2">{formatNumber(list.total, i18n.language)}</span>}
        </h2>
        <form role="search" className="d-flex" onSubmit={(e) => e.preventDefault()}>
          <label htmlFor="users-search" className="visually-hidden">
            {t('Search users')}
          </label>
          <div className="input-group input-group-sm">
            <span className="input-group-text" aria-hidden="true">
              <i className="bi bi-search" />
            </span>
            <input
              id="users-search"
              type="search"
              className="form-control"
              placeholder={t('Name, username or e-mail')}
              value={searchText}
              maxLength={100}
              onChange={(e) => setSearchText(e.target.value)}
            />
          </div>
        </form>
        <Link to="/edituser/new" className="btn btn-primary btn-sm">
          <i className="bi bi-person-plus me-1" aria-hidden="true" />
          {t('New user')}
        </Link>
      </div>
      <div className="card-body p-0">
        {users.isError && (
          <div className="alert alert-danger m-3" role="alert">
            {t(users.error.message)}
          </div>
        )}
        {users.isPending && (
          <div className="p-4">
            <Spinner />
          </div>
        )}
        {list && list.items.length === 0 && (
          <div className="sw-empty-state text-center text-body-secondary py-5" data-testid="users-empty">
            <i className="bi bi-people fs-1 d-block mb-2" aria-hidden="true" />
            {searching ? t('No user matches “{search}”.', { search: state.search }) : t('There are no users yet.')}
          </div>
        )}
        {list && list.items.length > 0 && (
          <div className="table-responsive">
            <table className="table table-hover align-middle mb-0">
              <caption className="visually-hidden">{t('Users')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('User')}</th>
                  <th scope="col">{t('E-mail')}</th>
                  <th scope="col">{t('Role')}</th>
                  <th scope="col">{t('Status')}</th>
                  <th scope="col" className="d-none d-lg-table-cell">
                    {t('Created')}
                  </th>
                  <th scope="col" className="text-end">
                    {t('Actions')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((u) => {
                  const self = u.id === me;
                  const name = userDisplayName(u);
                  const editTo = self ? '/editprofile' : `/edituser/${u.id}`;
                  return (
                    <tr key={u.id} data-testid="user-row" data-username={u.username}>
                      <td>
                        <div className="d-flex align-items-center gap-2 min-w-0">
                          <UserAvatar user={u} size={32} />
                          <div className="min-w-0">
                            <Link to={editTo} className="fw-semibold text-break">
                              {name}
                            </Link>
                            {self && <span className="badge text-bg-info ms-2 text-nowrap">{t('You')}</span>}
                            <div className="small text-body-secondary text-break">
                              <span dir="ltr">@{u.username}</span>
                            </div>
                          </div>
                        </div>
                      </td>
                      <td className="text-break small">
                        <span dir="ltr">{u.email}</span>
                      </td>
                      <td>
                        <div className="d-flex flex-wrap gap-1">
                          {/* One badge: the role that applies (a super admin's stored role, often "guest", does not). */}
                          {effectiveRole(u) === 'super_admin' ? (
                            <span className="badge text-bg-primary" data-testid="user-role">{t('Administrator')}</span>
                          ) : (
                            <span className="badge bg-body-secondary text-body border" data-testid="user-role">{t(ROLE_LABELS[effectiveRole(u)] ?? effectiveRole(u))}</span>
                          )}
                        </div>
                      </td>
                      <td>
                        <span className={`badge ${u.active ? 'text-bg-success' : 'text-bg-secondary'}`}>{u.active ? t('Active') : t('Inactive')}</span>
                      </td>
                      <td className="small text-nowrap d-none d-lg-table-cell">{formatDateTime(u.created_at, i18n.language)}</td>
                      <td className="text-end">
                        <div className="d-inline-flex flex-nowrap gap-1 justify-content-end">
                          <Link to={editTo} className="btn btn-sm btn-outline-primary" aria-label={t('Edit {name}', { name })} title={t('Edit')}>
                            <i className="bi bi-pencil" aria-hidden="true" />
                            <span className="d-none d-xxl-inline ms-1">{t('Edit')}</span>
                          </Link>
                          {!self && (
                            <button
                              type="button"
                              className="btn btn-sm btn-outline-danger"
                              aria-label={t('Delete {name}', { name })}
                              title={t('Delete')}
                              onClick={() => setDeleting({ user: u, busy: false })}
                            >
                              <i className="bi bi-trash" aria-hidden="true" />
                              <span className="d-none d-xxl-inline ms-1">{t('Delete')}</span>
                            </button>
                          )}
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        {list && (
          <div className="px-3 pb-3">
            <Pagination page={state.page} pages={pageCount(list.total, list.per_page)} onPage={(page) => go({ ...state, page })} />
          </div>
        )}
      </div>
      <ConfirmDialog
        show={!!deleting}
        title={t('Delete user')}
        body={deleting ? t('Delete "{name}"? This cannot be undone.', { name: userDisplayName(deleting.user) }) : ''}
        confirmLabel={t('Delete')}
        busy={deleting?.busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void confirmDelete()}
      />
    </section>
  );
}
