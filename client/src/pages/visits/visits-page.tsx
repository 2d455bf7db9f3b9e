import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type ProjectList, type ProjectSummary, type VisitList, type VisitStarResponse, type VisitSummary } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formatDay, formatNumber } from '../../lib/format';
import { viewerPath } from '../../lib/share-links';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { Spinner } from '../../components/spinner';
import { Pagination } from '../projects/pagination';
import { allPages, pageOf, VISITS_PER_PAGE } from './visits-paging';
import '../projects/projects.css';
import './visits.css';

type Load = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; visits: VisitSummary[]; total: number; page: number; pages: number };

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
  const [projects, setProjects] = useState<ProjectSummary[] | null>(null);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [reloadKey, setReloadKey] = useState(0);

  useEffect(() => {
    let live = true;
    // Every project for the chooser, page after page (the API gives at most 100 at a time).
    allPages((p, perPage) => api.get<ProjectList>('/projects', MESSAGES.fetchProjectsFailed, { params: { page: p, per_page: perPage, sort: 'name', order: 'asc' } })).then(
      (items) => live && setProjects(items),
      (err: unknown) => {
        console.warn(err);
        if (live) setProjects([]);
      },
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    let live = true;
    setLoad({ status: 'loading' });
    const params: Record<string, string | number> = { page, per_page: VISITS_PER_PAGE, sort: 'date', order: 'desc' };
    if (projectId) params.id_project = projectId;
    api.get<VisitList>('/visits', MESSAGES.fetchVisitsFailed, { params }).then(
      (list) => {
        if (!live) return;
        const pages = Math.max(1, Math.ceil(list.total / list.per_page));
        // Past the last page (visits deleted since, an old link): the last page instead.
        if (page > pages) setSearch(pages > 1 ? { page: String(pages) } : {}, { replace: true });
        else setLoad({ status: 'ready', visits: list.items, total: list.total, page, pages });
      },
      (err: unknown) => live && setLoad({ status: 'error', message: (err as Error).message || MESSAGES.fetchVisitsFailed }),
    );
    return () => {
      live = false;
    };
  }, [projectId, page, reloadKey, setSearch]);
  const goToPage = (p: number) => {
    setSearch(p > 1 ? { page: String(p) } : {});
    window.scrollTo({ top: 0 });
  };

  const project = projects?.find((p) => p.id === projectId) ?? null;
  const setStar = (visitId: number, starred: boolean) =>
    setLoad((l) => (l.status === 'ready' ? { ...l, visits: l.visits.map((v) => (v.id === visitId ? { ...v, starred } : v)) } : l));
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

      {load.status === 'loading' && <Spinner size="lg" />}
      {load.status === 'error' && (
        <div className="alert alert-danger d-flex align-items-center gap-2" role="alert">
          <span className="me-auto">{t(load.message)}</span>
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setReloadKey((k) => k + 1)}>
            {t('Try again')}
          </button>
        </div>
      )}
      {load.status === 'ready' && load.visits.length === 0 && (
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
      {load.status === 'ready' && load.visits.length > 0 && (
        <>
          <p className="small text-body-secondary mb-2" data-testid="visits-count">
            {t('{n} visits', { n: n(load.total) })}
          </p>
          <ul className="list-unstyled d-flex flex-column gap-2 mb-0" aria-label={t('Visits')}>
            {load.visits.map((v) => (
              <VisitRow key={v.id} visit={v} showProject={!projectId} onStar={(s) => setStar(v.id, s)} />
            ))}
          </ul>
          <Pagination page={load.page} pages={load.pages} onPage={goToPage} />
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
            {showProject && <> · {v.project_name}</>}
            {v.map_name && <> · {v.map_name}</>}
            {' · '}
            <span data-testid="visit-rooms">
              {v.rooms_ready === v.rooms_count ? t('{n} rooms', { n: n(v.rooms_count) }) : t('{ready} of {n} rooms ready', { ready: n(v.rooms_ready), n: n(v.rooms_count) })}
            </span>
          </div>
        </div>
        <div className="d-flex flex-wrap gap-1 sw-visit-actions">
          <a href={path} target="_blank" rel="noopener" className="btn btn-sm btn-primary" aria-label={t('Open {name} in the viewer', { name: v.name })}>
            <i className="bi bi-play-circle me-1" aria-hidden="true" />
            {t('View')}
          </a>
          <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => void copy()} aria-label={t('Copy the share link of {name}', { name: v.name })}>
            <i className="bi bi-link-45deg" aria-hidden="true" />
            <span className="d-none d-md-inline ms-1">{t('Copy link')}</span>
          </button>
          {v.id_map && (
            <Link to={`/compare/${v.id_map}?left=${v.id}`} className="btn btn-sm btn-outline-secondary" aria-label={t('Compare {name} with another date', { name: v.name })}>
              <i className="bi bi-layout-split" aria-hidden="true" />
              <span className="d-none d-md-inline ms-1">{t('Compare')}</span>
            </Link>
          )}
          {v.can_edit && (
            <Link to={`/editvisit/${v.id}`} className="btn btn-sm btn-outline-primary" aria-label={t('Edit {name}', { name: v.name })}>
              <i className="bi bi-pencil" aria-hidden="true" />
              <span className="d-none d-md-inline ms-1">{t('Edit')}</span>
            </Link>
          )}
        </div>
      </div>
    </li>
  );
}
