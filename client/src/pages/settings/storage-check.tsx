import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings, StorageCheckInput, StorageCheckResult } from '@sitewalk/proto';
import { api } from '../../lib/api-client';

interface Props {
  /** The form's values, saved or not: the check tries what is on screen. */
  values: Partial<Settings>;
}

const KEYS = ['aws_s3_type', 'aws_s3_accountid', 'aws_s3_custom_domain', 'aws_s3_region', 'aws_s3_key', 'aws_s3_secret', 'aws_s3_bucket', 'aws_s3_endpoint'] as const;

/**
 * "Test storage": the server writes, reads and deletes a small file in the
 * bucket with the settings on screen and says which step failed and why.
 */
export function StorageCheck({ values }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<StorageCheckResult | null>(null);
  const run = async () => {
    setBusy(true);
    setResult(null);
    try {
      const body: StorageCheckInput = {};
      for (const k of KEYS) if (typeof values[k] === 'string') (body as Record<string, string>)[k] = values[k] as string;
      setResult(await api.post<StorageCheckResult>('/settings/storage-check', body, t('The storage could not be tested.')));
    } catch (err) {
      setResult({ ok: false, step: null, message: (err as Error).message });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="d-flex flex-wrap align-items-start gap-2 mb-4" data-testid="storage-check">
      <button type="button" className="btn btn-outline-primary" onClick={() => void run()} disabled={busy || !values.aws_s3_type}>
        {busy ? <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" /> : <i className="bi bi-hdd-network me-1" aria-hidden="true" />}
        {t('Test storage')}
      </button>
      {result && (
        <div className={`alert alert-${result.ok ? 'success' : 'danger'} py-2 mb-0 flex-grow-1 min-w-0 small text-break`} role="status" aria-live="polite">
          <i className={`bi ${result.ok ? 'bi-check-circle-fill' : 'bi-x-circle-fill'} me-1`} aria-hidden="true" />
          {result.message}
        </div>
      )}
    </div>
  );
}
