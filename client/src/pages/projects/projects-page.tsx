import { useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type ProjectSummary } from '@sitewalk/proto';
import { errorMessage } from '../../lib/api-client';
import { useAddressSearch } from '../../lib/use-address-search';
import { formatNumber } from '../../lib/format';
import { useInstantValue } from '../../lib/use-instant-value';
import { useCategoriesQuery, useProjectTypesQuery } from '../../components/use-project-lookups';
import { Spinner } from '../../components/spinner';
import { ProjectCard } from './project-card';
import { LabelledSelect } from '../../components/labelled-select';
import { Pagination } from '../../components/pagination';
import {
  SORT_OPTIONS,
  changeListState,
  isFiltered,
  listStateToParams,
  parseListState,
  type ProjectListState,
} from './project-list-query';
import { useProjectListQuery } from './use-project-list-query';
import './projects.css';

/** /projects: the user's projects as cards, with search, filters, sort, stars and pages. */
export default function ProjectsPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseListState(params), [params]);
  const categories = useCategoriesQuery().data ?? null;
  const types = useProjectTypesQuery().data ?? null;

  const update = (change: Partial<ProjectListState>) => setParams(listStateToParams(changeListState(state, change)), { replace: !('page' in change) });
  const [shownCategory, setShownCategory] = useInstantValue(state.category);
  const [shownType, setShownType] = useInstantValue(state.type);
  const [shownSort, setShownSort] = useInstantValue(state.sort);
  const [shownStarred, setShownStarred] = useInstantValue(state.starred);

  const [searchText, setSearchText] = useAddressSearch(state.search, (text) => setParams(listStateToParams(changeListState(state, { search: text })), { replace: true }));
  const projects = useProjectListQuery(state);

  const filtered = isFiltered(state);
  const list = projects.isError ? null : (projects.data ?? null);
  const pages = list ? Math.max(1, Math.ceil(list.total / list.per_page)) : 1;

  return (
    <div className="sw-projects">
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h2 className="h4 mb-0 me-auto">{t('Your projects')}</h2>
        <Link to="/categories" className="btn btn-outline-secondary btn-sm">
          <i className="bi bi-tags me-1" aria-hidden="true" />
          {t('Manage categories')}
        </Link>
        <Link to="/editproject/new" className="btn btn-primary btn-sm">
          <i className="bi bi-plus-lg me-1" aria-hidden="true" />
          {t('New project')}
        </Link>
      </div>

      <form className="card border-0 shadow-sm mb-3" role="search" aria-label={t('Find projects')} onSubmit={(e) => { e.preventDefault(); update({ search: searchText }); }}>
        <div className="card-body row g-2 align-items-end">
          <div className="col-12 col-lg-3">
            <label htmlFor="project-search" className="form-label small mb-1">
              {t('Search')}
            </label>
            <div className="input-group">
              <span className="input-group-text" aria-hidden="true">
                <i className="bi bi-search" />
              </span>
              <input
                id="project-search"
                type="search"
                className="form-control"
                placeholder={t('Name, code, client or city')}
                value={searchText}
                maxLength={100}
                onChange={(e) => setSearchText(e.target.value)}
              />
            </div>
          </div>
          <LabelledSelect
            id="project-category"
            className="col-6 col-lg-2"
            label={t('Category')}
            value={shownCategory ?? ''}
            anyLabel={t('All categories')}
            options={(categories ?? []).map((c) => ({ value: c.id, label: c.name }))}
            onChange={(v) => {
              const category = v ? Number(v) : null;
              setShownCategory(category);
              update({ category });
            }}
          />
          <LabelledSelect
            id="project-type"
            className="col-6 col-lg-2"
            label={t('Project type')}
            value={shownType ?? ''}
            anyLabel={t('All types')}
            options={(types ?? []).map((pt) => ({ value: pt.id, label: pt.name }))}
            onChange={(v) => {
              const type = v ? Number(v) : null;
              setShownType(type);
              update({ type });
            }}
          />
          <LabelledSelect
            id="project-sort"
            className="col-6 col-lg-3"
            label={t('Sort by')}
            value={shownSort}
            options={SORT_OPTIONS.map((o) => ({ value: o.value, label: t(o.label) }))}
            onChange={(v) => {
              const sort = v as ProjectListState['sort'];
              setShownSort(sort);
              update({ sort });
            }}
          />
          <div className="col-6 col-lg-2">
            <div className="form-check form-switch mb-2 text-nowrap">
              <input
                id="project-starred"
                className="form-check-input"
                type="checkbox"
                role="switch"
                checked={shownStarred}
                onChange={(e) => {
                  setShownStarred(e.target.checked);
                  update({ starred: e.target.checked });
                }}
              />
              <label htmlFor="project-starred" className="form-check-label">
                {t('Starred only')}
              </label>
            </div>
          </div>
        </div>
      </form>

      <div aria-live="polite" className="visually-hidden">
        {list ? t('{n} projects found', { count: list.total, n: formatNumber(list.total, i18n.language) }) : ''}
      </div>

      {projects.isPending && <Spinner />}
      {projects.isError && (
        <div className="alert alert-danger d-flex align-items-center gap-2" role="alert">
          <span className="me-auto">{t(errorMessage(projects.error, MESSAGES.fetchProjectsFailed))}</span>
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void projects.refetch()}>
            {t('Try again')}
          </button>
        </div>
      )}
      {list && list.items.length === 0 && (
        <div className="card border-0 shadow-sm sw-empty-state" data-testid="projects-empty">
          {filtered ? (
            <>
              <i className="bi bi-funnel d-block mb-2" aria-hidden="true" />
              <p className="mb-3">{t('No projects match these filters.')}</p>
              <div>
                <button type="button" className="btn btn-outline-primary" onClick={() => setParams(new URLSearchParams())}>
                  {t('Clear filters')}
                </button>
              </div>
            </>
          ) : (
            <>
              <i className="bi bi-building-add d-block mb-2" aria-hidden="true" />
              <h3 className="h5">{t('You have no projects yet')}</h3>
              <p className="text-body-secondary mb-3">{t('Create a project, upload its PDF plans and supervise the site remotely.')}</p>
              <div>
                <Link to="/editproject/new" className="btn btn-primary">
                  <i className="bi bi-plus-lg me-1" aria-hidden="true" />
                  {t('Create your first project')}
                </Link>
              </div>
            </>
          )}
        </div>
      )}
      {list && list.items.length > 0 && (
        <>
          <div className="row g-3" aria-label={t('Projects')} role="list">
            {list.items.map((p: ProjectSummary) => (
              <div key={p.id} className="col-12 col-sm-6 col-lg-4 col-xxl-3" role="listitem">
                <ProjectCard project={p} onStar={(s) => projects.setStarred(p.id, s)} />
              </div>
            ))}
          </div>
          <Pagination page={Math.min(state.page, pages)} pages={pages} onPage={(page) => update({ page })} />
        </>
      )}
    </div>
  );
}
