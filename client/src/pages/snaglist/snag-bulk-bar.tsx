import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnnotationList, AnnotationStatus } from '@sitewalk/proto';
import { commonNextStatuses, statusLabel } from '../../components/snags/snag-logic';
import { errorMessage } from '../../lib/api-client';
import { formatNumber } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { SAVE_FAILED, useBulkStatusMutation } from './use-snag-list-query';

interface Props {
  chosen: AnnotationList['items'];
  /** After the move, whether it worked or not: the selection is cleared. */
  onDone(): void;
}

/**
 * The bar over the table while snags are chosen: a status every chosen snag
 * may move to, applied to all of them in one call (all or none).
 */
export function SnagBulkBar({ chosen, onDone }: Props) {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<'' | AnnotationStatus>('');
  const move = useBulkStatusMutation();
  const choices = commonNextStatuses(chosen.map((a) => a.status));
  const allEditable = chosen.every((a) => a.can_edit);

  // Awaited rather than given callbacks: the list read again may drop the moved rows (and this bar) first.
  const apply = async () => {
    if (!status || !chosen.length) return;
    const n = chosen.length;
    try {
      await move.mutateAsync({ ids: chosen.map((a) => a.id), status });
      showToast('success', t('{n} snags moved to {status}.', { count: n, n: formatNumber(n, i18n.language), status: statusLabel(t, status) }));
    } catch (err) {
      showToast('error', t(errorMessage(err, SAVE_FAILED)));
    }
    setStatus('');
    onDone();
  };

  return (
    <div className="d-flex flex-wrap align-items-center gap-2 mb-2 p-2 border rounded bg-body-tertiary" data-testid="snag-bulk">
      <span className="small me-auto">{t('{n} selected', { n: formatNumber(chosen.length, i18n.language) })}</span>
      <label className="visually-hidden" htmlFor="snag-bulk-status">
        {t('New status')}
      </label>
      <select id="snag-bulk-status" className="form-select form-select-sm w-auto" value={status} onChange={(e) => setStatus(e.target.value as AnnotationStatus)} disabled={!allEditable || !choices.length} data-testid="snag-bulk-status">
        <option value="">{choices.length ? t('Move to…') : t('No common next status')}</option>
        {choices.map((s) => (
          <option key={s} value={s}>
            {statusLabel(t, s)}
          </option>
        ))}
      </select>
      <button type="button" className="btn btn-sm btn-primary" disabled={!status || move.isPending || !allEditable} onClick={() => void apply()} data-testid="snag-bulk-apply">
        {move.isPending && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
        {t('Apply')}
      </button>
      {!allEditable && <span className="small text-body-secondary w-100">{t('Some of the chosen snags are in projects you may only view.')}</span>}
    </div>
  );
}
