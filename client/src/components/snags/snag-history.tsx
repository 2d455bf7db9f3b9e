import { useTranslation } from 'react-i18next';
import type { AnnotationHistoryEntry, AnnotationStatus } from '@sitewalk/proto';
import { formatDateTime } from '../../lib/format';
import { tk } from '../../lib/i18n-keys';
import { statusLabel } from './snag-logic';

const FIELD_LABELS: Record<string, string> = {
  title: tk('Title'),
  description: tk('Description'),
  status: tk('Status'),
  priority: tk('Priority'),
  id_assignee: tk('Assignee'),
  due_date: tk('Due date'),
  files: tk('Files'),
  id_room: tk('Room'),
  yaw: tk('Place in the 360 view'),
  pitch: tk('Place in the 360 view'),
  zoom: tk('Place in the 360 view'),
  id_map: tk('Sheet'),
  x: tk('Place on the sheet'),
  y: tk('Place on the sheet'),
};

/** A snag's history, newest first, folded away: who did what and when, status moves and comments. */
export function SnagHistory({ history }: { history: AnnotationHistoryEntry[] }) {
  const { t, i18n } = useTranslation();
  if (!history.length) return null;
  return (
    <details className="small">
      <summary>{t('History')}</summary>
      <ol className="list-unstyled mt-1 mb-0 sw-snag-history" data-testid="snag-history">
        {history.map((h) => (
          <li key={h.id} className="mb-1">
            <time dateTime={h.created_at} className="text-body-secondary">{formatDateTime(h.created_at, i18n.language)}</time> · {h.user?.name ?? t('Someone')}:{' '}
            {h.action === 'created' && t('created the snag')}
            {h.action === 'comment' && t('commented')}
            {h.action === 'file_added' && t('added a file')}
            {h.action === 'file_removed' && t('removed a file')}
            {h.action === 'updated' && `${t('changed')} ${[...new Set(h.changes.map((c) => t(FIELD_LABELS[c.field] ?? c.field)))].join(', ')}`}
            {h.changes.some((c) => c.field === 'status') && (
              <span>
                {' '}
                ({h.changes.filter((c) => c.field === 'status').map((c) => `${statusLabel(t, c.from as AnnotationStatus)} → ${statusLabel(t, c.to as AnnotationStatus)}`)})
              </span>
            )}
            {h.comment && <div className="text-break" style={{ whiteSpace: 'pre-wrap' }}>“{h.comment}”</div>}
          </li>
        ))}
      </ol>
    </details>
  );
}
