import { useMemo, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { INVOICE_PDF_URL_TTL_SEC, MESSAGES, type Invoice } from '@sitewalk/proto';
import { useUiStore } from '../../stores/ui.store';
import { api } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { joinIsolated } from '../../lib/bidi';
import { STATUS_BADGE, STATUS_LABEL, formatMinor, invoiceLabel } from '../../lib/billing-format';
import { formatDate } from '../../lib/format';

interface Props {
  invoices: Invoice[];
  /** Show whose invoice each is (the administrator's list). */
  showUser?: boolean;
  /** Buttons at the end of a row (mark paid, delete). */
  actions?: (invoice: Invoice) => ReactNode;
  testId?: string;
}

/**
 * Invoices: number, date, plan, total, status, PDF and the row's actions. A
 * table on wide screens; under 768 px a list of cards, so on a phone every
 * invoice's total, status and actions (Mark paid) are in view without
 * scrolling a table sideways.
 */
export function InvoiceTable(props: Props) {
  const narrow = useUiStore((s) => s.narrowScreen);
  return narrow ? <InvoiceCards {...props} /> : <InvoiceRows {...props} />;
}

/** A listed link is used as it is while it surely works; after this, a click asks for a fresh one. */
const LINK_FRESH_MS = (INVOICE_PDF_URL_TTL_SEC - 60) * 1000;

function useInvoiceParts(invoices: Invoice[]) {
  const { t, i18n } = useTranslation();
  // When the list (and its signed PDF links) arrived.
  const listedAt = useMemo(() => Date.now(), [invoices]);
  /** A page left open longer than the links last: GET /invoices/{id} gives a fresh link, opened in the tab the click made. */
  const openPdf = (e: MouseEvent<HTMLAnchorElement>, i: Invoice) => {
    if (Date.now() - listedAt < LINK_FRESH_MS) return;
    e.preventDefault();
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    api.get<Invoice>(`/invoices/${i.id}?with_temp_urls=true`, MESSAGES.fetchInvoiceFailed).then(
      (fresh) => {
        if (fresh.pdf_url && tab) tab.location.href = fresh.pdf_url;
        else tab?.close();
      },
      (err: unknown) => {
        tab?.close();
        showToast('error', t((err as Error).message));
      },
    );
  };
  return {
    t,
    number: (i: Invoice) => (
      <>
        <span dir="ltr">{invoiceLabel(i)}</span>
        {i.kind === 'credit_note' && <span className="badge text-bg-info ms-2">{t('Credit note')}</span>}
      </>
    ),
    method: (i: Invoice) => (i.method === 'paypal' ? t('PayPal') : t('Bank transfer')),
    date: (i: Invoice) => formatDate(i.paid_at ?? i.created_at, i18n.language),
    period: (i: Invoice) => (
      <>
        {i.period === 'year' ? t('Yearly') : t('Monthly')} · <span dir="ltr">{i.period_start} – {i.period_end}</span>
      </>
    ),
    total: (i: Invoice) => formatMinor(i.total_minor, i.currency, i18n.language),
    status: (i: Invoice) => (
      <span className={`badge ${STATUS_BADGE[i.status]}`} data-testid="invoice-status">
        {t(STATUS_LABEL[i.status])}
      </span>
    ),
    pdf: (i: Invoice) =>
      i.pdf_url && i.pdf_ready ? (
        <a className="btn btn-sm btn-outline-secondary" href={i.pdf_url} target="_blank" rel="noopener" download onClick={(e) => openPdf(e, i)}>
          <i className="bi bi-file-earmark-pdf me-1" aria-hidden="true" />
          {t('PDF')}
        </a>
      ) : (
        <span className="small text-body-secondary">{t('PDF being made…')}</span>
      ),
  };
}

function InvoiceRows({ invoices, showUser = false, actions, testId = 'invoice-table' }: Props) {
  const p = useInvoiceParts(invoices);
  const { t } = p;
  return (
    <div className="table-responsive">
      <table className="table table-hover align-middle mb-0" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">{t('Invoice')}</th>
            {showUser && <th scope="col">{t('User')}</th>}
            <th scope="col">{t('Date')}</th>
            <th scope="col">{t('Plan')}</th>
            <th scope="col" className="text-end">
              {t('Total')}
            </th>
            <th scope="col">{t('Status')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('Actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invoices.map((i) => (
            <tr key={i.id} data-testid={`invoice-row-${i.id}`}>
              <td className="text-nowrap">
                {p.number(i)}
                <div className="small text-body-secondary">{p.method(i)}</div>
              </td>
              {showUser && (
                <td>
                  <bdi>{i.username}</bdi>
                </td>
              )}
              <td className="text-nowrap">{p.date(i)}</td>
              <td>
                <bdi>{i.plan_name}</bdi>
                <div className="small text-body-secondary">{p.period(i)}</div>
              </td>
              <td className="text-end text-nowrap">{p.total(i)}</td>
              <td>{p.status(i)}</td>
              <td className="text-nowrap text-end">
                {p.pdf(i)}
                {actions?.(i)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function InvoiceCards({ invoices, showUser = false, actions, testId = 'invoice-table' }: Props) {
  const p = useInvoiceParts(invoices);
  return (
    <ul className="list-group list-group-flush" data-testid={testId}>
      {invoices.map((i) => (
        <li key={i.id} className="list-group-item" data-testid={`invoice-row-${i.id}`}>
          <div className="d-flex flex-wrap align-items-center gap-2">
            <span className="fw-semibold text-break">{p.number(i)}</span>
            {p.status(i)}
            <span className="ms-auto fw-semibold text-nowrap">{p.total(i)}</span>
          </div>
          <div className="small text-body-secondary text-break">{joinIsolated([showUser && i.username, p.date(i), p.method(i)])}</div>
          <div className="small text-break">
            <bdi>{i.plan_name}</bdi> · <span className="text-body-secondary">{p.period(i)}</span>
          </div>
          <div className="d-flex flex-wrap align-items-center gap-1 mt-2">
            {p.pdf(i)}
            {actions?.(i)}
          </div>
        </li>
      ))}
    </ul>
  );
}
