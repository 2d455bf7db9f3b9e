import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/api-client';
import { formatNumber } from '../../lib/format';
import { tk } from '../../lib/i18n-keys';
import { useInstantValue } from '../../lib/use-instant-value';
import { Spinner } from '../../components/spinner';
import { Pagination } from '../../components/pagination';
import { SnagExportButton } from '../../components/snags/export-button';
import '../../components/snags/snags.css';
import './snaglist.css';
import { DEFAULT_SNAG_LIST_STATE, SNAGS_PER_PAGE, changeSnagListState, isSnagListFiltered, parseSnagListState, snagListStateToParams, toggledStatuses, type SnagListState } from './snag-list-state';
import { useSnagListQuery } from './use-snag-list-query';
import { useSnagFilterOptions } from './use-snag-filter-options';
import { SnagFilters, SnagStatusChips } from './snag-filters';
import { SnagBulkBar } from './snag-bulk-bar';
import { SnagTable } from './snag-table';
import { SnaglistEmpty } from './snaglist-empty';
import { SnagQuickView } from './snag-quick-view';

const LOAD_FAILED = tk('The snags could not be loaded.');

/**
 * /snaglist: every snag of the user's projects — counts by status (which
 * also filter), filters by project, priority, assignee and due date, a text
 * search, sort and pages, all kept in the address; several snags moved to
 * another status at once; a quick view with the snapshot and the snag panel;
 * rows change live when someone else changes a snag.
 */
export default function SnaglistPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  // Shown at once on a click, before the router commits the new address (see useInstantValue).
  const [state, setShownState] = useInstantValue(useMemo(() => parseSnagListState(params), [params]));
  const show = (next: SnagListState, replace: boolean) => {
    setShownState(next);
    setParams(snagListStateToParams(next), { replace });
  };
  // A new page is a step Back returns from; a filter change replaces the address.
  const update = (change: Partial<SnagListState>) => show(changeSnagListState(state, change), !('page' in change));

  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [quick, setQuick] = useState<number | null>(null);
  const options = useSnagFilterOptions(state.id_project);
  const projectIds = useMemo(() => options.projects.map((p) => p.id), [options.projects]);
  const list = useSnagListQuery(state, projectIds);

  const items = useMemo(() => list.data?.items ?? [], [list.data]);
  // A chosen snag that left the page is no longer chosen.
  useEffect(() => {
    const onPage = new Set(items.map((a) => a.id));
    setSelected((s) => ([...s].every((id) => onPage.has(id)) ? s : new Set([...s].filter((id) => onPage.has(id)))));
  }, [items]);

  const chosen = items.filter((a) => selected.has(a.id));
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / SNAGS_PER_PAGE));
  const shown = !list.isError && list.data;

  return (
    <div className="sw-snaglist" data-testid="snaglist-page">
      <div className="d-flex justify-content-end mb-2">
        <SnagExportButton filters={state} />
      </div>
      <SnagStatusChips chosen={state.status} counts={list.data?.counts ?? null} onToggle={(s) => update({ status: toggledStatuses(state.status, s) })} />
      <SnagFilters state={state} onChange={update} projects={options.projects} visits={options.visits} sheets={options.sheets} />
      {chosen.length > 0 && <SnagBulkBar chosen={chosen} onDone={() => setSelected(new Set())} />}

      {list.isPending && <Spinner />}
      {list.isError && (
        <div className="alert alert-danger d-flex align-items-center gap-2" role="alert">
          <span className="me-auto">{t(errorMessage(list.error, LOAD_FAILED))}</span>
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void list.refetch()}>
            {t('Try again')}
          </button>
        </div>
      )}
      {shown && items.length === 0 && <SnaglistEmpty filtered={isSnagListFiltered(state)} onClear={() => show(DEFAULT_SNAG_LIST_STATE, true)} />}
      {shown && items.length > 0 && <SnagTable items={items} selected={selected} onSelect={setSelected} onQuick={setQuick} />}
      {shown && (
        <>
          <p className="small text-body-secondary text-center mb-0">{t('Snags: {n}', { n: formatNumber(total, i18n.language) })}</p>
          <Pagination page={state.page} pages={pages} onPage={(page) => update({ page })} />
        </>
      )}

      <SnagQuickView snagId={quick} row={items.find((a) => a.id === quick) ?? null} onClose={() => setQuick(null)} onChanged={() => void list.refetch()} />
    </div>
  );
}
