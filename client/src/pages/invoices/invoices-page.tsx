import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { INVOICE_STATUSES, MESSAGES, type Invoice } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { STATUS_LABEL, invoiceLabel } from '../../lib/billing-format';
import { Spinner } from '../../components/spinner';
import { SectionCard } from '../../components/section-card';
import { SelectField } from '../../components/edit-form/fields';
import { TextField } from '../../components/text-field';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { InvoiceTable } from '../../components/billing/invoice-table';
import { BILLING_READS, useInvoicesQuery } from '../../components/billing/use-billing-queries';

type Pending = { kind: 'paid' | 'delete'; invoice: Invoice } | null;

/**
 * /invoices (super admins): every invoice, filtered by user and status (kept
 * in the URL); mark a bank transfer paid, delete a mistaken unpaid one — each
 * after a confirmation, with a toast.
 */
export default function InvoicesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const userId = params.get('user_id') ?? '';
  const status = params.get('status') ?? '';
  const queryClient = useQueryClient();
  const query = useInvoicesQuery({ userId, status });
  const invoices = query.data ?? null;
  const error = query.isError ? query.error.message : null;
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);

  const setFilter = (key: 'user_id' | 'status', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      if (pending.kind === 'paid') {
        await api.put<Invoice>(`/invoices/${pending.invoice.id}/mark-paid`, {}, MESSAGES.markInvoicePaidFailed);
        showToast('success', t('Invoice marked as paid.'));
      } else {
        await api.delete(`/invoices/${pending.invoice.id}`, MESSAGES.deleteInvoiceFailed);
        showToast('success', t('Invoice deleted.'));
      }
      setPending(null);
      void queryClient.invalidateQueries({ queryKey: BILLING_READS });
    } catch (err) {
      showToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <SectionCard headingId="invoices-heading" title={t('Invoices')}>
      <div className="card-body border-bottom">
        <div className="row g-2">
          <TextField className="col-sm-4" label={t('User id')} inputMode="numeric" value={userId} onChange={(v) => setFilter('user_id', v.replace(/\D/g, ''))} />
          <SelectField className="col-sm-4" label={t('Status')} value={status} onChange={(v) => setFilter('status', v)}>
            <option value="">{t('All')}</option>
            {INVOICE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(STATUS_LABEL[s])}
              </option>
            ))}
          </SelectField>
        </div>
      </div>
      {error ? (
        <div className="card-body">
          <div className="alert alert-danger mb-0" role="alert">
            {t(error)}
          </div>
        </div>
      ) : invoices === null ? (
        <Spinner />
      ) : invoices.length === 0 ? (
        <div className="card-body">
          <p className="text-body-secondary mb-0" data-testid="invoices-empty">
            {t('No invoices match.')}
          </p>
        </div>
      ) : (
        <InvoiceTable
          invoices={invoices}
          showUser
          testId="admin-invoice-table"
          actions={(i) => (
            <>
              {i.status === 'pending' && i.kind === 'invoice' && (
                <button type="button" className="btn btn-sm btn-success ms-1" onClick={() => setPending({ kind: 'paid', invoice: i })} data-testid="mark-paid">
                  <i className="bi bi-check2-circle me-1" aria-hidden="true" />
                  {t('Mark paid')}
                </button>
              )}
              {!i.number && i.status !== 'paid' && (
                <button type="button" className="btn btn-sm btn-outline-danger ms-1" onClick={() => setPending({ kind: 'delete', invoice: i })} aria-label={t('Delete invoice {name}', { name: invoiceLabel(i) })}>
                  <i className="bi bi-trash" aria-hidden="true" />
                </button>
              )}
            </>
          )}
        />
      )}
      <ConfirmDialog
        show={pending !== null}
        title={pending?.kind === 'paid' ? t('Mark invoice as paid') : t('Delete invoice')}
        body={
          pending?.kind === 'paid'
            ? t('Mark {name} of {user} as paid? The plan is extended and the invoice is mailed.', { name: pending ? invoiceLabel(pending.invoice) : '', user: pending?.invoice.username ?? '' })
            : t('Delete "{name}"? This cannot be undone.', { name: pending ? invoiceLabel(pending.invoice) : '' })
        }
        confirmLabel={pending?.kind === 'paid' ? t('Mark paid') : t('Delete')}
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      />
    </SectionCard>
  );
}
