import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { AnnotationList } from '@sitewalk/proto';
import { PRIORITY_LABELS, snagViewerPath, statusLabel } from '../../components/snags/snag-logic';
import { formatDateTime, formatDay } from '../../lib/format';
import { joinIsolated } from '../../lib/bidi';

type Row = AnnotationList['items'][number];

interface Props {
  items: Row[];
  selected: ReadonlySet<number>;
  onSelect(next: Set<number>): void;
  /** Opens the quick view of a snag. */
  onQuick(id: number): void;
}

/** One page of snags as a table: a check box per row (and one for the page), title with its place, status, priority, assignee, due date, last change, and a link into the 360 view. */
export function SnagTable({ items, selected, onSelect, onQuick }: Props) {
  const { t, i18n } = useTranslation();
  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelect(next);
  };
  return (
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
                onChange={(e) => onSelect(e.target.checked ? new Set(items.map((a) => a.id)) : new Set())}
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
                <input type="checkbox" className="form-check-input" aria-label={t('Select {name}', { name: a.title })} checked={selected.has(a.id)} onChange={(e) => toggle(a.id, e.target.checked)} />
              </td>
              <td className="sw-snag-title-cell">
                <button type="button" className="btn btn-link p-0 text-start text-break fw-semibold" onClick={() => onQuick(a.id)} data-testid="snag-quick">
                  {a.title}
                </button>
                <div className="small text-body-secondary text-truncate">{joinIsolated([a.project_name, a.visit_name, a.room_name])}</div>
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
              <td className="text-end sw-snag-row-action">
                <Link to={snagViewerPath(a)} className="btn btn-sm btn-outline-secondary" title={t('Open in the 360 view')} aria-label={t('Open {name} in the 360 view', { name: a.title })}>
                  <i className="bi bi-badge-vr" aria-hidden="true" />
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
