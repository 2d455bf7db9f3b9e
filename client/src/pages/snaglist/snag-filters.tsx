import { useTranslation } from 'react-i18next';
import {
  ANNOTATION_DUE_FILTERS,
  ANNOTATION_PRIORITIES,
  ANNOTATION_SORTS,
  ANNOTATION_STATUSES,
  type AnnotationDueFilter,
  type AnnotationSort,
  type AnnotationStatus,
  type AnnotationStatusCounts,
} from '@sitewalk/proto';
import { LabelledSelect, type SelectOption } from '../../components/labelled-select';
import { PRIORITY_LABELS, statusLabel } from '../../components/snags/snag-logic';
import { formatNumber } from '../../lib/format';
import { tk } from '../../lib/i18n-keys';
import { useAddressSearch } from '../../lib/use-address-search';
import type { SnagListState } from './snag-list-state';
import type { FilterOption } from './use-snag-filter-options';

const DUE_LABELS: Record<AnnotationDueFilter, string> = { overdue: tk('Overdue'), today: tk('Due today'), week: tk('Due this week'), none: tk('No due date') };
const SORT_LABELS: Record<AnnotationSort, string> = {
  created_at: tk('Newest'),
  updated_at: tk('Last changed'),
  due_date: tk('Due date'),
  priority: tk('Priority'),
  status: tk('Status'),
  title: tk('Title'),
};

/** The status chips: each shows its count under the other filters, and filters by its status. */
export function SnagStatusChips({ chosen, counts, onToggle }: { chosen: AnnotationStatus[]; counts: AnnotationStatusCounts | null; onToggle(s: AnnotationStatus): void }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="d-flex flex-wrap gap-1 mb-3" role="group" aria-label={t('Counts by status')}>
      {ANNOTATION_STATUSES.map((s) => (
        <button
          key={s}
          type="button"
          className={`btn btn-sm sw-snag-chip sw-snag-${s}${chosen.includes(s) ? ' is-active' : ''}`}
          aria-pressed={chosen.includes(s)}
          onClick={() => onToggle(s)}
          data-testid={`snag-count-${s}`}
        >
          <span className="sw-snag-dot me-1" aria-hidden="true" />
          {statusLabel(t, s)} <span className="badge text-bg-light ms-1" data-testid="snag-count">{counts ? formatNumber(counts[s], i18n.language) : '…'}</span>
        </button>
      ))}
    </div>
  );
}

/** The list's fields a select of the filter row sets; '' filters nothing. */
type SelectField = 'id_project' | 'id_visit' | 'id_map' | 'priority' | 'assignee' | 'due';

interface FilterSelectProps {
  state: SnagListState;
  onChange(change: Partial<SnagListState>): void;
  field: SelectField;
  /** Names its id (snag-f-…) and test id (snag-filter-…). */
  name: string;
  label: string;
  anyLabel: string;
  options: readonly SelectOption[];
  /** One grid column on wide screens instead of two (short choices). */
  narrow?: boolean;
}

/** One select of the filter row: its place and size are the row's; choosing sets its field of the list's state. */
function FilterSelect({ state, onChange, field, name, label, anyLabel, options, narrow }: FilterSelectProps) {
  return (
    <LabelledSelect
      id={`snag-f-${name}`}
      className={`col-6 ${narrow ? 'col-md-1' : 'col-md-2'}`}
      small
      testId={`snag-filter-${name}`}
      label={label}
      value={state[field]}
      anyLabel={anyLabel}
      options={options}
      // The options are the field's own values, so the chosen one fits the field.
      onChange={(v) => onChange({ [field]: v } as Partial<SnagListState>)}
    />
  );
}

interface Props {
  state: SnagListState;
  onChange(change: Partial<SnagListState>): void;
  projects: FilterOption[];
  visits: FilterOption[];
  sheets: FilterOption[];
}

/** The filter row of /snaglist: search, project (then its visit and sheet), priority, assignee, due date, sort and direction. */
export function SnagFilters({ state, onChange, projects, visits, sheets }: Props) {
  const { t } = useTranslation();
  const [search, setSearch] = useAddressSearch(state.search, (text) => onChange({ search: text.trim() }));
  const bound = { state, onChange };
  return (
    <div className="row g-2 mb-3 sw-snaglist-filters">
      <div className="col-12 col-md-3">
        <label className="form-label small mb-1" htmlFor="snag-f-search">
          {t('Search')}
        </label>
        <input id="snag-f-search" type="search" className="form-control form-control-sm" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('Title or description')} data-testid="snag-filter-search" />
      </div>
      <FilterSelect {...bound} field="id_project" name="project" label={t('Project')} anyLabel={t('All projects')} options={projects.map((p) => ({ value: p.id, label: p.name }))} />
      {state.id_project && (
        <>
          <FilterSelect {...bound} field="id_visit" name="visit" label={t('Visit')} anyLabel={t('All visits')} options={visits.map((v) => ({ value: v.id, label: v.name }))} />
          <FilterSelect {...bound} field="id_map" name="sheet" label={t('Sheet')} anyLabel={t('All sheets')} options={sheets.map((m) => ({ value: m.id, label: m.name }))} />
        </>
      )}
      <FilterSelect
        {...bound}
        field="priority"
        name="priority"
        label={t('Priority')}
        anyLabel={t('Any priority')}
        options={ANNOTATION_PRIORITIES.map((p) => ({ value: p, label: t(PRIORITY_LABELS[p]) }))}
      />
      <FilterSelect
        {...bound}
        field="assignee"
        name="assignee"
        label={t('Assignee')}
        anyLabel={t('Anyone')}
        options={[
          { value: 'me', label: t('Assigned to me') },
          { value: 'none', label: t('Nobody') },
        ]}
      />
      <FilterSelect {...bound} field="due" name="due" narrow label={t('Due')} anyLabel={t('Any')} options={ANNOTATION_DUE_FILTERS.map((d) => ({ value: d, label: t(DUE_LABELS[d]) }))} />
      <div className="col-12 col-md-2">
        <label className="form-label small mb-1" htmlFor="snag-f-sort">
          {t('Sort by')}
        </label>
        <div className="input-group input-group-sm">
          <select id="snag-f-sort" className="form-select" value={state.sort} onChange={(e) => onChange({ sort: e.target.value as AnnotationSort })} data-testid="snag-sort">
            {ANNOTATION_SORTS.map((s) => (
              <option key={s} value={s}>
                {t(SORT_LABELS[s])}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn btn-outline-secondary"
            onClick={() => onChange({ order: state.order === 'asc' ? 'desc' : 'asc' })}
            aria-label={state.order === 'asc' ? t('Ascending') : t('Descending')}
            title={state.order === 'asc' ? t('Ascending') : t('Descending')}
          >
            <i className={`bi ${state.order === 'asc' ? 'bi-sort-up' : 'bi-sort-down'}`} aria-hidden="true" />
          </button>
        </div>
      </div>
    </div>
  );
}
