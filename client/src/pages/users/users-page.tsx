import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formMessages, type User, type UserList } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formatDateTime, formatNumber } from '../../lib/format';
import { formToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { useAuthStore } from '../../stores/auth.store';
import { Spinner } from '../../components/spinner';
import { UserAvatar } from '../../components/user-avatar';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { Pagination } from '../projects/pagination';
import { ROLE_LABELS, userDisplayName } from '../edit-user/user-form';
import { pageAfterDelete, pageCount, parseUsersListState, usersApiQuery, usersListParams, type UsersListState } from './users-list-query';
import '../settings/settings.css';

const M = formMessages('User');
const FETCH_FAILED = tk('Failed to fetch users');

type Load = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; list: UserList };

/**
 * /users (super admins): every account, searched and a page at a time, with
 * links to create and edit users and a confirmed delete (never yourself).
 */
export default function UsersPage() {
  const { t, i18n } = useTranslation();
  const me = useAuthStore((s) => s.user?.id);
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseUsersListState(params), [params]);
  const [searchText, setSearchText] = useState(state.search);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [reloadKey, setReloadKey] = useState(0);
  const [deleting, setDeleting] = useState<{ user: User; busy: boolean } | null>(null);

  const go = (next: UsersListState, replace = false) => setParams(usersListParams(next), { replace });

  // The search box follows the address (Back, a shared link) ...
  // (A trailing space being typed is kept: it is not a different search.)
  useEffect(() => setSearchText((typed) => (typed.trim() === state.search.trim() ? typed : state.search)), [state.search]);
  // ... and the address follows the search box once the typing pauses.
  useEffect(() => {
    if (searchText.trim() === state.search.trim()) return;
    const timer = setTimeout(() => setParams(usersListParams({ search: searchText, page: 1 }), { replace: true }), 350);
    return () => clearTimeout(timer);
  }, [searchText, state.search, setParams]);

  useEffect(() => {
    let live = true;
    setLoad((l) => (l.status === 'ready' ? l : { status: 'loading' }));
    api.get<UserList>('/users', FETCH_FAILED, { params: usersApiQuery(state) }).then(
      (list) => live && setLoad({ status: 'ready', list }),
      (err: unknown) => live && setLoad({ status: 'error', message: (err as Error).message }),
    );
    return () => {
      live = false;
    };
  }, [state, reloadKey]);

  const confirmDelete = async () => {
    if (!deleting) return;
    setDeleting({ ...deleting, busy: true });
    try {
      // SPEC §7: the delete carries the current user's id.
      await api.delete(`/users/${deleting.user.id}`, M.deleteFailed, { params: me ? { id_user: me } : undefined });
      formToast('success', t(M.deleted));
      setDeleting(null);
      const total = load.status === 'ready' ? load.list.total : 0;
      const page = pageAfterDelete(state, total);
      if (page !== state.page) go({ ...state, page }, true);
      else setReloadKey((k) => k + 1);
    } catch (err) {
      formToast('error', t((err as Error).message || M.deleteFailed));
      setDeleting((d) => d && { ...d, busy: false });
    }
  };

  const list = load.status === 'ready' ? load.list : null;
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
        {load.status === 'error' && (
          <div className="alert alert-danger m-3" role="alert">
            {t(load.message)}
          </div>
        )}
        {load.status === 'loading' && (
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
                          {u.super_admin && <span className="badge text-bg-primary">{t('Administrator')}</span>}
                          {(!u.super_admin || u.role !== 'super_admin') && (
                            <span className="badge bg-body-secondary text-body border">{t(ROLE_LABELS[u.role] ?? u.role)}</span>
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
