import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type VisitStarResponse, type VisitSummary } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formatDay, formatNumber } from '../../lib/format';
import { viewerPath } from '../../lib/share-links';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { Spinner } from '../../components/spinner';
import { Pagination } from '../../components/pagination';
import { pageOf } from '../../lib/page-window';
import { useProjectChoicesQuery, useVisitListQuery } from './use-visits-queries';
import '../projects/projects.css';
import './visits.css';

const positiveInt = (s: string | undefined) => (s && /^[1-9]\d{0,9}$/.test(s) ? Number(s) : null);

/**
 * /visits/{id?}: the visits of a project (id = project id), newest first,
 * with stars, dates and room counts; create one, open it in the viewer,
 * copy its share link, compare it with another of the same sheet. Without
 * an id, a project chooser and every visit the user can see.
 */
export default function VisitsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const projectId = positiveInt(id);
  // The page is part of the address (?page=3), so a reload or Back keeps it.
  const [search, setSearch] = useSearchParams();
  const page = pageOf(search.get('page'));
  const projects = useProjectChoicesQuery().data ?? null;
  const visits = useVisitListQuery(projectId, page);
  const list = visits.data;
  const pages = list ? Math.max(1, Math.ceil(list.total / list.per_page)) : 1;
  // Past the last page (visits deleted since, an old link): the last page instead.
  const pastLastPage = !!list && page > pages;
  useEffect(() => {
    if (pastLastPage) setSearch(pages > 1 ? { page: String(pages) } : {}, { replace: true });
  }, [pastLastPage, pages, setSearch]);
  const ready = list && !pastLastPage ? list : null;
  const goToPage = (p: number) => {
    setSearch(p > 1 ? { page: String(p) } : {});
    window.scrollTo({ top: 0 });
  };

  const project = projects?.find((p) => p.id === projectId) ?? null;
  const n = (v: number) => formatNumber(v, i18n.language);

  return (
    <div className="sw-visits" data-testid="visits-page">
      <div className="d-flex flex-wrap align-items-end gap-2 mb-3">
        <div className="me-auto sw-visits-chooser">
          <label htmlFor="visits-project" className="form-label small mb-1">
            {t('Project')}
          </label>
          <select
            id="visits-project"
            className="form-select"
            value={projectId ?? ''}
            onChange={(e) => navigate(e.target.value ? `/visits/${e.target.value}` : '/visits')}
            disabled={projects === null}
          >
            <option value="">{t('All projects')}</option>
            {(projects ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
            {projectId && projects && !project && <option value={projectId}>{t('Project {id}', { id: projectId })}</option>}
          </select>
        </div>
        {projectId ? (
          <>
            <Link to={`/project/${projectId}`} className="btn btn-outline-secondary">
              <i className="bi bi-building me-1" aria-hidden="true" />
              {t('Open project')}
            </Link>
            <Link to={`/editvisit/new?project=${projectId}`} className="btn btn-primary" data-testid="create-visit">
              <i className="bi bi-plus-lg me-1" aria-hidden="true" />
              {t('New visit')}
            </Link>
          </>
        ) : (
          <p className="form-text m-0">{t('Choose a project to create a visit.')}</p>
        )}
      </div>

      {(visits.isPending || pastLastPage) && <Spinner size="lg" />}
      {visits.isError && (
        <div className="alert alert-danger d-flex align-items-center gap-2" role="alert">
          <span className="me-auto">{t(visits.error.message || MESSAGES.fetchVisitsFailed)}</span>
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void visits.refetch()}>
            {t('Try again')}
          </button>
        </div>
      )}
      {ready && ready.items.length === 0 && (
        <div className="card border-0 shadow-sm sw-empty-state" data-testid="visits-empty">
          <i className="bi bi-badge-vr d-block mb-2" aria-hidden="true" />
          <p className="mb-3">{projectId ? t('This project has no visits yet.') : t('No visits yet.')}</p>
          {projectId && (
            <div>
              <Link to={`/editvisit/new?project=${projectId}`} className="btn btn-primary">
                <i className="bi bi-plus-lg me-1" aria-hidden="true" />
                {t('Create the first visit')}
              </Link>
            </div>
          )}
        </div>
      )}
      {ready && ready.items.length > 0 && (
        <>
          <p className="small text-body-secondary mb-2" data-testid="visits-count">
            {t('{n} visits', { count: ready.total, n: n(ready.total) })}
          </p>
          <ul className="list-unstyled d-flex flex-column gap-2 mb-0" aria-label={t('Visits')}>
            {ready.items.map((v) => (
              <VisitRow key={v.id} visit={v} showProject={!projectId} onStar={(s) => visits.setStarred(v.id, s)} />
            ))}
          </ul>
          <Pagination page={page} pages={pages} onPage={goToPage} />
        </>
      )}
    </div>
  );
}

function VisitRow({ visit: v, showProject, onStar }: { visit: VisitSummary; showProject: boolean; onStar(starred: boolean): void }) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const n = (x: number) => formatNumber(x, i18n.language);
  const path = viewerPath(v.code);

  const toggleStar = async () => {
    const next = !v.starred;
    setBusy(true);
    onStar(next);
    try {
      const res = await api.post<VisitStarResponse>('/visits/star', { id_visit: v.id, starred: next }, tk('Failed to update the star.'));
      onStar(res.starred);
    } catch (err) {
      onStar(!next);
      showToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    const url = `${window.location.origin}${path}`;
    try {
      await navigator.clipboard.writeText(url);
      showToast('success', t('Link copied.'));
    } catch {
      showToast('info', url);
    }
  };
  const starLabel = v.starred ? t('Unstar {name}', { name: v.name }) : t('Star {name}', { name: v.name });

  return (
    <li className="card border-0 shadow-sm sw-visit-row" data-testid="visit-row">
      <div className="card-body d-flex flex-wrap align-items-center gap-3 p-2">
        {v.thumbnail_url ? (
          <img src={v.thumbnail_url} alt="" className="sw-visit-thumb rounded" loading="lazy" />
        ) : (
          <span className="sw-visit-thumb sw-thumb-empty rounded" aria-hidden="true">
            <i className="bi bi-badge-vr" />
          </span>
        )}
        <div className="min-w-0 flex-grow-1">
          <div className="d-flex align-items-center gap-1">
            <button
              type="button"
              className={`btn btn-link p-1 sw-star${v.starred ? ' is-starred' : ''}`}
              onClick={() => void toggleStar()}
              disabled={busy}
              aria-pressed={v.starred}
              aria-label={starLabel}
              title={starLabel}
            >
              <i className={`bi ${v.starred ? 'bi-star-fill' : 'bi-star'}`} aria-hidden="true" />
            </button>
            <h2 className="h6 mb-0 text-break" data-testid="visit-name">
              {v.name}
            </h2>
          </div>
          <div className="small text-body-secondary">
            <time dateTime={v.date}>{formatDay(v.date, i18n.language)}</time>
            {showProject && <> · <bdi>{v.project_name}</bdi></>}
            {v.map_name && <> · <bdi>{v.map_name}</bdi></>}
            {' · '}
            <span data-testid="visit-rooms">
              {v.rooms_ready === v.rooms_count ? t('{n} rooms', { count: v.rooms_count, n: n(v.rooms_count) }) : t('{ready} of {n} rooms ready', { count: v.rooms_count, ready: n(v.rooms_ready), n: n(v.rooms_count) })}
            </span>
          </div>
        </div>
        <div className="d-flex flex-wrap gap-1 sw-visit-actions">
          <a href={path} target="_blank" rel="noopener" className="btn btn-sm btn-primary" aria-label={`${t('View')}: ${v.name}`}>
            <i className="bi bi-play-circle me-1" aria-hidden="true" />
            {t('View')}
          </a>
          <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void copy()} aria-label={`${t('Copy link')}: ${v.name}`}>
            <i className="bi bi-link-45deg" aria-hidden="true" />
            <span className="d-none d-md-inline ms-1">{t('Copy link')}</span>
          </button>
          {v.id_map && (
            <Link to={`/compare/${v.id_map}?left=${v.id}`} className="btn btn-sm btn-outline-secondary" aria-label={`${t('Compare')}: ${v.name}`}>
              <i className="bi bi-layout-split" aria-hidden="true" />
              <span className="d-none d-md-inline ms-1">{t('Compare')}</span>
            </Link>
          )}
          {v.can_edit && (
            <Link to={`/editvisit/${v.id}`} className="btn btn-sm btn-outline-primary" aria-label={`${t('Edit')}: ${v.name}`}>
              <i className="bi bi-pencil" aria-hidden="true" />
              <span className="d-none d-md-inline ms-1">{t('Edit')}</span>
            </Link>
          )}
        </div>
      </div>
    </li>
  );
}
