import { useMemo, useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type ProjectDetail, type ProjectList, type ProjectSummary } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { Spinner } from '../../components/spinner';
import { tk } from '../../lib/i18n-keys';
import { Pagination } from '../../components/pagination';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { useAddressSearch } from '../../lib/use-address-search';
import { PROJECT_READS } from '../../components/use-project-query';
import { approvalsApiQuery, approvalsParams, parseApprovalsState, type ApprovalsState, type ApprovalsView as View } from './approvals-list';
type Action = 'validate' | 'invalidate' | 'activate' | 'deactivate';

const ACTION_DONE: Record<Action, string> = {
  validate: tk('Project validated.'),
  invalidate: tk('Project invalidated.'),
  activate: tk('Project activated.'),
  deactivate: tk('Project deactivated.'),
};

const ACTION_FAILED: Record<Action, string> = {
  validate: tk('Failed to validate the project.'),
  invalidate: tk('Failed to invalidate the project.'),
  activate: tk('Failed to activate the project.'),
  deactivate: tk('Failed to deactivate the project.'),
};

/**
 * /approvals (super admins): projects awaiting approval, and every project,
 * to validate or invalidate, activate or deactivate.
 */
export default function ApprovalsPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseApprovalsState(params), [params]);
  const { view, page } = state;
  const go = (change: Partial<ApprovalsState>, replace = false) => setParams(approvalsParams({ ...state, page: 1, ...change }), { replace });
  const [search, setSearch] = useAddressSearch(state.search, (text) => go({ search: text }, true));
  const setView = (v: View) => go({ view: v });
  const setPage = (p: number) => go({ page: p });
  const apiQuery = useMemo(() => approvalsApiQuery(state), [state]);
  const queryKey = [...PROJECT_READS, 'approvals', apiQuery];
  const projects = useQuery({
    queryKey,
    queryFn: ({ signal }) => api.get<ProjectList>('/projects', MESSAGES.fetchProjectsFailed, { params: apiQuery, signal }),
    placeholderData: keepPreviousData,
  });
  const list = projects.data ?? null;
  const error = projects.isError ? projects.error.message : null;
  const [busy, setBusy] = useState<number | null>(null);
  // Invalidating takes a project off its public showcase: asked first.
  const [confirmInvalidate, setConfirmInvalidate] = useState<ProjectSummary | null>(null);

  const act = async (p: ProjectSummary, action: Action) => {
    setBusy(p.id);
    try {
      const res = await api.post<ProjectDetail>(`/projects/${action}/${p.id}`, {}, ACTION_FAILED[action]);
      showToast('success', t(ACTION_DONE[action]));
      // A validated project leaves the "awaiting approval" list.
      if (view === 'pending' && res.validated) void queryClient.invalidateQueries({ queryKey: [...PROJECT_READS, 'approvals'] });
      else queryClient.setQueryData<ProjectList>(queryKey, (l) => l && { ...l, items: l.items.map((x) => (x.id === p.id ? { ...x, active: res.active, validated: res.validated } : x)) });
    } catch (err) {
      showToast('error', t((err as Error).message));
    } finally {
      setBusy(null);
    }
  };

  const pages = list ? Math.max(1, Math.ceil(list.total / list.per_page)) : 1;
  const owner = (p: ProjectSummary) => [p.owner.first_name, p.owner.last_name].filter(Boolean).join(' ') || p.owner.username;

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="approvals-heading">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h2 id="approvals-heading" className="h6 mb-0 me-auto">
          {view === 'pending' ? t('Projects awaiting approval') : t('All projects')}
        </h2>
        <div className="btn-group btn-group-sm" role="group" aria-label={t('Which projects')}>
          <button type="button" className={`btn btn-outline-primary${view === 'pending' ? ' active' : ''}`} aria-pressed={view === 'pending'} onClick={() => setView('pending')}>
            {t('Awaiting approval')}
          </button>
          <button type="button" className={`btn btn-outline-primary${view === 'all' ? ' active' : ''}`} aria-pressed={view === 'all'} onClick={() => setView('all')}>
            {t('All projects')}
          </button>
        </div>
        <label htmlFor="approvals-search" className="visually-hidden">
          {t('Search')}
        </label>
        <input
          id="approvals-search"
          type="search"
          className="form-control form-control-sm w-auto"
          placeholder={t('Search')}
          value={search}
          maxLength={100}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      <div className="card-body p-0">
        {error && (
          <div className="alert alert-danger m-3" role="alert">
            {t(error)}
          </div>
        )}
        {!list && !error && (
          <div className="p-4">
            <Spinner />
          </div>
        )}
        {list && list.items.length === 0 && (
          <div className="sw-empty-state text-center text-body-secondary py-5" data-testid="approvals-empty">
            <i className="bi bi-check2-circle fs-1 d-block mb-2" aria-hidden="true" />
            {view === 'pending' ? t('No project is waiting for approval.') : t('No projects found.')}
          </div>
        )}
        {list && list.items.length > 0 && (
          <div className="table-responsive">
            <table className="table table-hover align-middle mb-0">
              <thead>
                <tr>
                  <th scope="col">{t('Project')}</th>
                  <th scope="col">{t('Owner')}</th>
                  <th scope="col">{t('Created')}</th>
                  <th scope="col">{t('Status')}</th>
                  <th scope="col" className="text-end">
                    {t('Actions')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((p) => (
                  <tr key={p.id} data-testid="approval-row">
                    <td>
                      <Link to={`/project/${p.id}`} className="fw-semibold">
                        {p.name}
                      </Link>
                      <div className="small text-body-secondary">{p.project_code}</div>
                    </td>
                    <td>{owner(p)}</td>
                    <td className="small">{formatDateTime(p.created_at, i18n.language)}</td>
                    <td>
                      <div className="d-flex flex-wrap gap-1">
                        <span className={`badge ${p.validated ? 'text-bg-success' : 'text-bg-warning'}`}>{p.validated ? t('Validated') : t('Awaiting approval')}</span>
                        <span className={`badge ${p.active ? 'text-bg-primary' : 'text-bg-dark'}`}>{p.active ? t('Active') : t('Inactive')}</span>
                      </div>
                    </td>
                    <td className="text-end">
                      <div className="d-inline-flex flex-wrap gap-1 justify-content-end">
                        {p.validated ? (
                          <button type="button" className="btn btn-sm btn-outline-warning" disabled={busy === p.id} onClick={() => setConfirmInvalidate(p)} aria-label={t('Invalidate {name}', { name: p.name })}>
                            {t('Invalidate')}
                          </button>
                        ) : (
                          <button type="button" className="btn btn-sm btn-success" disabled={busy === p.id} onClick={() => void act(p, 'validate')} aria-label={t('Validate {name}', { name: p.name })}>
                            {t('Validate')}
                          </button>
                        )}
                        {p.active ? (
                          <button type="button" className="btn btn-sm btn-outline-secondary" disabled={busy === p.id} onClick={() => void act(p, 'deactivate')} aria-label={t('Deactivate {name}', { name: p.name })}>
                            {t('Deactivate')}
                          </button>
                        ) : (
                          <button type="button" className="btn btn-sm btn-outline-primary" disabled={busy === p.id} onClick={() => void act(p, 'activate')} aria-label={t('Activate {name}', { name: p.name })}>
                            {t('Activate')}
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list && <div className="px-3 pb-3"><Pagination page={page} pages={pages} onPage={setPage} /></div>}
      </div>
      <ConfirmDialog
        show={confirmInvalidate !== null}
        title={t('Invalidate the project?')}
        body={t('"{name}" goes back to awaiting approval and leaves its public showcase until it is validated again.', { name: confirmInvalidate?.name ?? '' })}
        confirmLabel={t('Invalidate')}
        busy={confirmInvalidate !== null && busy === confirmInvalidate.id}
        onCancel={() => setConfirmInvalidate(null)}
        onConfirm={() => {
          const p = confirmInvalidate;
          if (p) void act(p, 'invalidate').then(() => setConfirmInvalidate(null));
        }}
      />
    </section>
  );
}
