import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Offcanvas } from 'react-bootstrap';
import {
  ANNOTATION_DUE_FILTERS,
  ANNOTATION_PRIORITIES,
  ANNOTATION_SORTS,
  ANNOTATION_STATUSES,
  MESSAGES,
  type AnnotationDueFilter,
  type AnnotationList,
  type AnnotationPriority,
  type AnnotationSort,
  type AnnotationStatus,
  type ProjectDetail,
  type ProjectList,
  type ProjectSummary,
  type VisitList,
} from '@sitewalk/proto';
import { api, errorMessage } from '../../lib/api-client';
import { formatDay, formatDateTime, formatNumber } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { Spinner } from '../../components/spinner';
import { LabelledSelect } from '../../components/labelled-select';
import { Pagination } from '../projects/pagination';
import { SnagPanel } from '../../components/snags/snag-panel';
import { SnagSnapshot } from '../../components/snags/snag-snapshot';
import { PRIORITY_LABELS, statusLabel, applySnagEvent, commonNextStatuses, needsRefetch, recount, snagViewerPath } from '../../components/snags/snag-logic';
import { useSnagEvents } from '../../components/snags/use-snag-events';
import { SnagExportButton } from '../../components/snags/export-button';
import '../../components/snags/snags.css';
import './snaglist.css';

type Load = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; list: AnnotationList };

interface Filters {
  id_project: string;
  id_visit: string;
  id_map: string;
  status: AnnotationStatus[];
  priority: '' | AnnotationPriority;
  assignee: '' | 'me' | 'none';
  due: '' | AnnotationDueFilter;
  search: string;
  sort: AnnotationSort;
  order: 'asc' | 'desc';
}

const NO_FILTERS: Filters = { id_project: '', id_visit: '', id_map: '', status: [], priority: '', assignee: '', due: '', search: '', sort: 'updated_at', order: 'desc' };
const PER_PAGE = 20;
const LOAD_FAILED = tk('The snags could not be loaded.');

const DUE_LABELS: Record<AnnotationDueFilter, string> = { overdue: tk('Overdue'), today: tk('Due today'), week: tk('Due this week'), none: tk('No due date') };
const SORT_LABELS: Record<AnnotationSort, string> = {
  created_at: tk('Newest'),
  updated_at: tk('Last changed'),
  due_date: tk('Due date'),
  priority: tk('Priority'),
  status: tk('Status'),
  title: tk('Title'),
};

const isFiltered = (f: Filters) => !!(f.id_project || f.id_visit || f.id_map || f.status.length || f.priority || f.assignee || f.due || f.search);

/**
 * /snaglist: every snag of the user's projects — counts by status (which
 * also filter), filters by project, priority, assignee and due date, a text
 * search, sort and pages; several snags moved to another status at once; a
 * quick view with the snapshot and the snag panel; rows change live when
 * someone else changes a snag.
 */
export default function SnaglistPage() {
  const { t, i18n } = useTranslation();
  const [projects, setProjects] = useState<ProjectSummary[]>([]);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [reloadKey, setReloadKey] = useState(0);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [bulkStatus, setBulkStatus] = useState<'' | AnnotationStatus>('');
  const [bulkBusy, setBulkBusy] = useState(false);
  const [quick, setQuick] = useState<number | null>(null);
  const [quickVersion, setQuickVersion] = useState(0);
  // The visits and sheets of the chosen project, for their filters.
  const [places, setPlaces] = useState<{ visits: { id: number; name: string }[]; sheets: { id: number; name: string }[] }>({ visits: [], sheets: [] });
  const refetchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    let live = true;
    api.get<ProjectList>('/projects', MESSAGES.fetchProjectsFailed, { params: { per_page: 100, sort: 'name', order: 'asc' } }).then(
      (list) => live && setProjects(list.items),
      (err: unknown) => console.warn(err),
    );
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    setPlaces({ visits: [], sheets: [] });
    if (!filters.id_project) return;
    let live = true;
    Promise.all([
      api.get<VisitList>('/visits', MESSAGES.fetchVisitsFailed, { params: { id_project: filters.id_project, per_page: 100, sort: 'date', order: 'desc' } }),
      api.get<ProjectDetail>(`/projects/${filters.id_project}`, MESSAGES.fetchProjectsFailed),
    ]).then(
      ([visits, project]) => live && setPlaces({ visits: visits.items.map((v) => ({ id: v.id, name: v.name })), sheets: project.maps.map((m) => ({ id: m.id, name: m.name })) }),
      (err: unknown) => console.warn(err),
    );
    return () => {
      live = false;
    };
  }, [filters.id_project]);

  // The search box asks the server once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => {
      setFilters((f) => (f.search === search.trim() ? f : { ...f, search: search.trim() }));
      setPage(1);
    }, 350);
    return () => clearTimeout(timer);
  }, [search]);

  useEffect(() => {
    let live = true;
    setLoad((l) => (l.status === 'ready' ? l : { status: 'loading' }));
    const params: Record<string, string | number> = { page, per_page: PER_PAGE, sort: filters.sort, order: filters.order };
    if (filters.id_project) params.id_project = filters.id_project;
    if (filters.id_visit) params.id_visit = filters.id_visit;
    if (filters.id_map) params.id_map = filters.id_map;
    if (filters.status.length) params.status = filters.status.join(',');
    if (filters.priority) params.priority = filters.priority;
    if (filters.assignee) params.assignee = filters.assignee;
    if (filters.due) params.due = filters.due;
    if (filters.search) params.search = filters.search;
    api.get<AnnotationList>('/annotations', LOAD_FAILED, { params }).then(
      (list) => {
        if (!live) return;
        setLoad({ status: 'ready', list });
        setSelected((s) => new Set([...s].filter((id) => list.items.some((a) => a.id === id))));
      },
      (err: unknown) => live && setLoad({ status: 'error', message: errorMessage(err, LOAD_FAILED) }),
    );
    return () => {
      live = false;
    };
  }, [filters, page, reloadKey]);

  const refetch = useCallback(() => {
    if (refetchTimer.current) clearTimeout(refetchTimer.current);
    // A burst of changes (a bulk move elsewhere) reads the list once.
    refetchTimer.current = setTimeout(() => setReloadKey((k) => k + 1), 300);
  }, []);
  useEffect(() => () => void (refetchTimer.current && clearTimeout(refetchTimer.current)), []);

  const items = load.status === 'ready' ? load.list.items : [];
  const watched = useMemo(() => [...new Set([...projects.map((p) => p.id), ...items.map((a) => a.id_project)])], [projects, items]);
  useSnagEvents(
    watched,
    (e) => {
      if (e.annotation.id === quick) setQuickVersion((n) => n + 1);
      if (needsRefetch(e)) return refetch();
      setLoad((l) => {
        if (l.status !== 'ready') return l;
        const before = l.list.items.find((a) => a.id === e.annotation.id);
        if (!before) return l;
        const stillShown = !filters.status.length || filters.status.includes(e.annotation.status);
        return {
          status: 'ready',
          list: {
            ...l.list,
            items: stillShown ? applySnagEvent(l.list.items, e) : l.list.items.map((a) => (a.id === e.annotation.id ? { ...a, ...e.annotation } : a)),
            counts: recount(l.list.counts, before.status, e),
          },
        };
      });
    },
    refetch,
  );

  const setFilter = <K extends keyof Filters>(k: K, v: Filters[K]) => {
    setFilters((f) => ({ ...f, [k]: v }));
    setPage(1);
  };
  const toggleStatus = (s: AnnotationStatus) => setFilter('status', filters.status.includes(s) ? filters.status.filter((x) => x !== s) : [...filters.status, s]);

  const chosen = items.filter((a) => selected.has(a.id));
  const bulkChoices = commonNextStatuses(chosen.map((a) => a.status));
  const allEditable = chosen.every((a) => a.can_edit);

  const applyBulk = async () => {
    if (!bulkStatus || !chosen.length) return;
    setBulkBusy(true);
    const results = await Promise.allSettled(chosen.map((a) => api.put(`/annotations/${a.id}`, { status: bulkStatus }, tk('The snag could not be saved.'))));
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    const done = results.length - failed.length;
    if (done) showToast('success', t('{n} snags moved to {status}.', { n: formatNumber(done, i18n.language), status: statusLabel(t, bulkStatus) }));
    if (failed.length) showToast('error', t(errorMessage(failed[0].reason, tk('The snag could not be saved.'))));
    setSelected(new Set());
    setBulkStatus('');
    setBulkBusy(false);
    setReloadKey((k) => k + 1);
  };

  const counts = load.status === 'ready' ? load.list.counts : null;
  const total = load.status === 'ready' ? load.list.total : 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const n = (v: number) => formatNumber(v, i18n.language);
  const quickRow = items.find((a) => a.id === quick) ?? null;

  return (
    <div className="sw-snaglist" data-testid="snaglist-page">
      <div className="d-flex justify-content-end mb-2"><SnagExportButton filters={filters} /></div>
      <div className="d-flex flex-wrap gap-1 mb-3" role="group" aria-label={t('Counts by status')}>
        {ANNOTATION_STATUSES.map((s) => (
          <button
            key={s}
            type="button"
            className={`btn btn-sm sw-snag-chip sw-snag-${s}${filters.status.includes(s) ? ' is-active' : ''}`}
            aria-pressed={filters.status.includes(s)}
            onClick={() => toggleStatus(s)}
            data-testid={`snag-count-${s}`}
          >
            <span className="sw-snag-dot me-1" aria-hidden="true" />
            {statusLabel(t, s)} <span className="badge text-bg-light ms-1" data-testid="snag-count">{counts ? n(counts[s]) : '…'}</span>
          </button>
        ))}
      </div>

      <div className="row g-2 mb-3 sw-snaglist-filters">
        <div className="col-12 col-md-3">
          <label className="form-label small mb-1" htmlFor="snag-f-search">
            {t('Search')}
          </label>
          <input id="snag-f-search" type="search" className="form-control form-control-sm" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('Title or description')} data-testid="snag-filter-search" />
        </div>
        <LabelledSelect
          id="snag-f-project"
          className="col-6 col-md-2"
          small
          testId="snag-filter-project"
          label={t('Project')}
          value={filters.id_project}
          anyLabel={t('All projects')}
          options={projects.map((p) => ({ value: p.id, label: p.name }))}
          onChange={(v) => {
            // A visit or sheet of another project would match nothing.
            setFilters((f) => ({ ...f, id_project: v, id_visit: '', id_map: '' }));
            setPage(1);
          }}
        />
        {filters.id_project && (
          <>
            <LabelledSelect
              id="snag-f-visit"
              className="col-6 col-md-2"
              small
              testId="snag-filter-visit"
              label={t('Visit')}
              value={filters.id_visit}
              anyLabel={t('All visits')}
              options={places.visits.map((v) => ({ value: v.id, label: v.name }))}
              onChange={(v) => setFilter('id_visit', v)}
            />
            <LabelledSelect
              id="snag-f-sheet"
              className="col-6 col-md-2"
              small
              testId="snag-filter-sheet"
              label={t('Sheet')}
              value={filters.id_map}
              anyLabel={t('All sheets')}
              options={places.sheets.map((m) => ({ value: m.id, label: m.name }))}
              onChange={(v) => setFilter('id_map', v)}
            />
          </>
        )}
        <LabelledSelect
          id="snag-f-priority"
          className="col-6 col-md-2"
          small
          testId="snag-filter-priority"
          label={t('Priority')}
          value={filters.priority}
          anyLabel={t('Any priority')}
          options={ANNOTATION_PRIORITIES.map((p) => ({ value: p, label: t(PRIORITY_LABELS[p]) }))}
          onChange={(v) => setFilter('priority', v as Filters['priority'])}
        />
        <LabelledSelect
          id="snag-f-assignee"
          className="col-6 col-md-2"
          small
          testId="snag-filter-assignee"
          label={t('Assignee')}
          value={filters.assignee}
          anyLabel={t('Anyone')}
          options={[
            { value: 'me', label: t('Assigned to me') },
            { value: 'none', label: t('Nobody') },
          ]}
          onChange={(v) => setFilter('assignee', v as Filters['assignee'])}
        />
        <LabelledSelect
          id="snag-f-due"
          className="col-6 col-md-1"
          small
          testId="snag-filter-due"
          label={t('Due')}
          value={filters.due}
          anyLabel={t('Any')}
          options={ANNOTATION_DUE_FILTERS.map((d) => ({ value: d, label: t(DUE_LABELS[d]) }))}
          onChange={(v) => setFilter('due', v as Filters['due'])}
        />
        <div className="col-12 col-md-2">
          <label className="form-label small mb-1" htmlFor="snag-f-sort">
            {t('Sort by')}
          </label>
          <div className="input-group input-group-sm">
            <select id="snag-f-sort" className="form-select" value={filters.sort} onChange={(e) => setFilter('sort', e.target.value as AnnotationSort)} data-testid="snag-sort">
              {ANNOTATION_SORTS.map((s) => (
                <option key={s} value={s}>
                  {t(SORT_LABELS[s])}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="btn btn-outline-secondary"
              onClick={() => setFilter('order', filters.order === 'asc' ? 'desc' : 'asc')}
              aria-label={filters.order === 'asc' ? t('Ascending') : t('Descending')}
              title={filters.order === 'asc' ? t('Ascending') : t('Descending')}
            >
              <i className={`bi ${filters.order === 'asc' ? 'bi-sort-up' : 'bi-sort-down'}`} aria-hidden="true" />
            </button>
          </div>
        </div>
      </div>

      {chosen.length > 0 && (
        <div className="d-flex flex-wrap align-items-center gap-2 mb-2 p-2 border rounded bg-body-tertiary" data-testid="snag-bulk">
          <span className="small me-auto">{t('{n} selected', { n: n(chosen.length) })}</span>
          <label className="visually-hidden" htmlFor="snag-bulk-status">
            {t('New status')}
          </label>
          <select id="snag-bulk-status" className="form-select form-select-sm w-auto" value={bulkStatus} onChange={(e) => setBulkStatus(e.target.value as AnnotationStatus)} disabled={!allEditable || !bulkChoices.length} data-testid="snag-bulk-status">
            <option value="">{bulkChoices.length ? t('Move to…') : t('No common next status')}</option>
            {bulkChoices.map((s) => (
              <option key={s} value={s}>
                {statusLabel(t, s)}
              </option>
            ))}
          </select>
          <button type="button" className="btn btn-sm btn-primary" disabled={!bulkStatus || bulkBusy || !allEditable} onClick={() => void applyBulk()} data-testid="snag-bulk-apply">
            {bulkBusy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            {t('Apply')}
          </button>
          {!allEditable && <span className="small text-body-secondary w-100">{t('Some of the chosen snags are in projects you may only view.')}</span>}
        </div>
      )}

      {load.status === 'loading' && <Spinner />}
      {load.status === 'error' && (
        <div className="alert alert-danger d-flex align-items-center gap-2" role="alert">
          <span className="me-auto">{t(load.message)}</span>
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setReloadKey((k) => k + 1)}>
            {t('Try again')}
          </button>
        </div>
      )}
      {load.status === 'ready' && items.length === 0 && (
        <div className="card border-0 shadow-sm sw-empty-state" data-testid="snaglist-empty">
          <i className="bi bi-clipboard-check d-block mb-2" aria-hidden="true" />
          {isFiltered(filters) ? (
            <>
              <p className="mb-3">{t('No snags match these filters.')}</p>
              <div>
                <button
                  type="button"
                  className="btn btn-outline-primary"
                  onClick={() => {
                    setFilters(NO_FILTERS);
                    setSearch('');
                    setPage(1);
                  }}
                >
                  {t('Clear the filters')}
                </button>
              </div>
            </>
          ) : (
            <>
              <p className="mb-3">{t('No snags yet. Open a visit in the 360 viewer and use "Add a snag" to pin a defect where you see it.')}</p>
              <div>
                <Link to="/visits" className="btn btn-outline-primary">
                  {t('Go to the visits')}
                </Link>
              </div>
            </>
          )}
        </div>
      )}
      {load.status === 'ready' && items.length > 0 && (
        <div className="table-responsive">
          <table className="table table-sm table-hover align-middle sw-snaglist-table" data-testid="snaglist-table">
            <thead>
              <tr>
                <th scope="col" className="sw-snag-check">
                  <input
                    type="checkbox"
                    className="form-check-input"
                    aria-label={t('Select every snag on this page')}
                    checked={items.length > 0 && items.every((a) => selected.has(a.id))}
                    onChange={(e) => setSelected(e.target.checked ? new Set(items.map((a) => a.id)) : new Set())}
                  />
                </th>
                <th scope="col">{t('Snag')}</th>
                <th scope="col">{t('Status')}</th>
                <th scope="col" className="d-none d-md-table-cell">{t('Priority')}</th>
                <th scope="col" className="d-none d-lg-table-cell">{t('Assignee')}</th>
                <th scope="col" className="d-none d-sm-table-cell">{t('Due')}</th>
                <th scope="col" className="d-none d-lg-table-cell">{t('Last changed')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('Actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((a) => (
                <tr key={a.id} data-testid="snag-row" data-snag={a.id} data-status={a.status}>
                  <td className="sw-snag-check">
                    <input
                      type="checkbox"
                      className="form-check-input"
                      aria-label={t('Select {name}', { name: a.title })}
                      checked={selected.has(a.id)}
                      onChange={(e) =>
                        setSelected((s) => {
                          const next = new Set(s);
                          if (e.target.checked) next.add(a.id);
                          else next.delete(a.id);
                          return next;
                        })
                      }
                    />
                  </td>
                  <td className="sw-snag-title-cell">
                    <button type="button" className="btn btn-link p-0 text-start text-break fw-semibold" onClick={() => setQuick(a.id)} data-testid="snag-quick">
                      {a.title}
                    </button>
                    <div className="small text-body-secondary text-truncate">
                      {a.project_name} · {a.visit_name}
                      {a.room_name ? ` · ${a.room_name}` : ''}
                    </div>
                  </td>
                  <td>
                    <span className={`badge sw-snag-badge sw-snag-${a.status}`} data-testid="snag-row-status">
                      {statusLabel(t, a.status)}
                    </span>
                  </td>
                  <td className="d-none d-md-table-cell">{t(PRIORITY_LABELS[a.priority])}</td>
                  <td className="d-none d-lg-table-cell">{a.assignee?.name ?? <span className="text-body-secondary">{t('Nobody')}</span>}</td>
                  <td className={`d-none d-sm-table-cell${a.overdue ? ' text-danger fw-semibold' : ''}`}>
                    {a.due_date ? <time dateTime={a.due_date}>{formatDay(a.due_date, i18n.language)}</time> : '—'}
                    {a.overdue && <span className="visually-hidden"> ({t('Overdue')})</span>}
                  </td>
                  <td className="d-none d-lg-table-cell small">
                    <time dateTime={a.updated_at}>{formatDateTime(a.updated_at, i18n.language)}</time>
                  </td>
                  <td className="text-end">
                    <Link to={snagViewerPath(a)} className="btn btn-sm btn-outline-secondary" title={t('Open in the 360 view')} aria-label={t('Open {name} in the 360 view', { name: a.title })}>
                      <i className="bi bi-badge-vr" aria-hidden="true" />
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {load.status === 'ready' && (
        <>
          <p className="small text-body-secondary text-center mb-0">{t('Snags: {n}', { n: n(total) })}</p>
          <Pagination page={page} pages={pages} onPage={setPage} />
        </>
      )}

      <Offcanvas show={quick !== null} onHide={() => setQuick(null)} placement={i18n.dir() === 'rtl' ? 'start' : 'end'} className="sw-snag-quick" aria-labelledby="snag-quick-title">
        <Offcanvas.Header closeButton closeLabel={t('Close')}>
          <Offcanvas.Title id="snag-quick-title" className="h6">
            {t('Snag')}
          </Offcanvas.Title>
        </Offcanvas.Header>
        <Offcanvas.Body className="p-0">
          {quickRow && (
            <div className="px-3 pt-2">
              <div className="mb-2">
                <SnagSnapshot snag={quickRow} />
              </div>
              <Link to={snagViewerPath(quickRow)} className="btn btn-sm btn-outline-primary mb-2" data-testid="snag-open-viewer">
                <i className="bi bi-badge-vr me-1" aria-hidden="true" />
                {t('Open in the 360 view')}
              </Link>
            </div>
          )}
          {quick !== null && (
            <SnagPanel
              snagId={quick}
              version={quickVersion}
              className="is-inline"
              onClose={() => setQuick(null)}
              onSaved={() => setReloadKey((k) => k + 1)}
              onDeleted={() => setReloadKey((k) => k + 1)}
            />
          )}
        </Offcanvas.Body>
      </Offcanvas>
    </div>
  );
}
