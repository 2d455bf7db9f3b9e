import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SHEET_PLAN_TYPES, type SheetDetail } from '@sitewalk/proto';
import { api } from '../lib/api-client';
import { onServerEvent } from '../realtime/socket';
import { showToast } from '../lib/toast';
import { tk } from '../lib/i18n-keys';

const UPLOAD_FAILED = tk('Failed to upload file');

type Step = { kind: 'idle' } | { kind: 'uploading'; percent: number } | { kind: 'drawing'; message: string } | { kind: 'failed'; message: string };

/**
 * A sheet's plan from a PDF page or an image (POST /maps/{id}/plan): what an
 * empty sheet offers instead of a dead end, and how a plan is replaced later
 * (rooms and snags stay where they were on the drawing). Upload progress, then
 * the drawing job's live progress; `onDone` reloads the sheet.
 */
export function SheetPlanUpload({ sheet, onDone }: { sheet: Pick<SheetDetail, 'id' | 'status'>; onDone(): void }) {
  const { t } = useTranslation();
  const fileId = useId();
  const pageId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [page, setPage] = useState('1');
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const replacing = sheet.status === 'ready';
  const isPdf = file?.type === 'application/pdf' || /\.pdf$/i.test(file?.name ?? '');

  useEffect(
    () =>
      onServerEvent('job:progress', (e) => {
        if (e.subject.kind !== 'sheet-plan' || e.subject.id !== sheet.id) return;
        if (e.state === 'completed') {
          setStep({ kind: 'idle' });
          setFile(null);
          showToast('success', t('The plan is on the sheet.'));
          onDone();
        } else if (e.state === 'failed') setStep({ kind: 'failed', message: e.message });
        else setStep({ kind: 'drawing', message: e.message });
      }),
    [sheet.id, onDone, t],
  );

  const send = async () => {
    if (!file) return;
    const form = new FormData();
    if (isPdf) form.append('page', page);
    form.append('file', file);
    setStep({ kind: 'uploading', percent: 0 });
    try {
      await api.upload<SheetDetail>(`/maps/${sheet.id}/plan`, form, UPLOAD_FAILED, { onProgress: (percent) => setStep({ kind: 'uploading', percent }) });
      setStep((s) => (s.kind === 'uploading' ? { kind: 'drawing', message: t('Drawing the plan') } : s));
    } catch (err) {
      setStep({ kind: 'failed', message: (err as Error).message });
    }
  };

  const busy = step.kind === 'uploading' || step.kind === 'drawing';
  return (
    <div className="text-start" data-testid="sheet-plan-upload">
      <p className="small text-body-secondary mb-2">
        {replacing
          ? t('Replace the plan with a newer drawing: rooms and snags stay where they are on it.')
          : t('Upload a PDF page or an image (JPEG, PNG or WebP) as the plan of this sheet.')}
      </p>
      <div className="d-flex flex-wrap align-items-end gap-2">
        <div>
          <label htmlFor={fileId} className="form-label small mb-1">
            {replacing ? t('New plan file') : t('Plan file')}
          </label>
          <input
            id={fileId}
            type="file"
            className="form-control form-control-sm"
            accept={SHEET_PLAN_TYPES.join(',')}
            disabled={busy}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setStep({ kind: 'idle' });
            }}
          />
        </div>
        {isPdf && (
          <div style={{ width: '7rem' }}>
            <label htmlFor={pageId} className="form-label small mb-1">
              {t('PDF page')}
            </label>
            <input id={pageId} type="number" min={1} step={1} className="form-control form-control-sm" value={page} disabled={busy} onChange={(e) => setPage(e.target.value)} />
          </div>
        )}
        <button type="button" className="btn btn-primary btn-sm" disabled={!file || busy} onClick={() => void send()}>
          <i className="bi bi-upload me-1" aria-hidden="true" />
          {replacing ? t('Replace the plan') : t('Upload the plan')}
        </button>
      </div>
      <div aria-live="polite" className="mt-2">
        {step.kind === 'uploading' && (
          <div className="progress" role="progressbar" aria-label={t('Uploading')} aria-valuenow={step.percent} aria-valuemin={0} aria-valuemax={100}>
            <div className="progress-bar" style={{ width: `${step.percent}%` }} />
          </div>
        )}
        {step.kind === 'drawing' && (
          <p className="small mb-0" data-testid="sheet-plan-drawing">
            <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
            {t(step.message)}
          </p>
        )}
        {step.kind === 'failed' && (
          <p className="small text-danger mb-0" role="alert">
            {t(step.message)}
          </p>
        )}
      </div>
    </div>
  );
}
