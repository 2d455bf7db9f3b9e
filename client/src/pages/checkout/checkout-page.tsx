import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { type CheckoutResult, type Invoice, type PaymentMethod, type PlanPeriod } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { formatMinor, percentOf } from '../../lib/billing-format';
import { tk } from '../../lib/i18n-keys';
import { Spinner } from '../../components/spinner';
import { isolate } from '../../lib/bidi';
import { SectionCard } from '../../components/section-card';
import { SelectField } from '../../components/edit-form/fields';
import { useBillingQuery, useQuoteQuery } from '../../components/billing/use-billing-queries';

const CHECKOUT_FAILED = tk('The payment could not be started. Please try again.');

/**
 * /checkout: a plan and a period, the total with tax as the server computes
 * it, then PayPal (through PayPal's approval page, back here to capture) or a
 * bank transfer (the bank details and the payment reference).
 */
export default function CheckoutPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const billing = useBillingQuery();
  const info = billing.data ?? null;
  const [planId, setPlanId] = useState('');
  const [period, setPeriod] = useState<PlanPeriod>('month');
  const [busy, setBusy] = useState<PaymentMethod | 'capture' | null>(null);
  const [transfer, setTransfer] = useState<CheckoutResult | null>(null);
  const captured = useRef(false);
  const started = useRef(false);

  // Only on arrival: the plan in the URL is where to start (a later read of the billing keeps the user's choice).
  useEffect(() => {
    if (!info || started.current) return;
    started.current = true;
    const wanted = Number(params.get('plan'));
    const first = info.plans.find((p) => p.id === wanted) ?? info.plans[0];
    if (first) {
      setPlanId(String(first.id));
      setPeriod(first.prices[0]?.period ?? 'month');
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [info]);

  // Back from PayPal: capture once (the server answers a second capture with the same invoice).
  useEffect(() => {
    const invoiceId = Number(params.get('invoice'));
    const back = params.get('paypal');
    if (!invoiceId || !back || captured.current) return;
    captured.current = true;
    if (back === 'cancel') {
      showToast('info', t('The payment was cancelled. Nothing was charged.'));
      setParams({}, { replace: true });
      return;
    }
    setBusy('capture');
    api.post<Invoice>('/billing/paypal/capture', { invoice_id: invoiceId }, CHECKOUT_FAILED).then(
      (inv) => {
        showToast('success', t('Payment received. Your plan runs until {date}.', { date: inv.period_end }));
        navigate('/billing', { replace: true });
      },
      (err: unknown) => {
        setBusy(null);
        showToast('error', t((err as Error).message));
        setParams({}, { replace: true });
      },
    );
  }, [params, navigate, setParams, t]);

  const plan = info?.plans.find((p) => String(p.id) === planId) ?? null;
  const periods = plan?.prices.map((p) => p.period) ?? [];
  const offered = plan !== null && periods.includes(period);

  // A plan without the chosen period starts at its first one.
  useEffect(() => {
    if (plan && periods.length && !periods.includes(period)) setPeriod(periods[0]);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [planId, period, info]);

  const quoteQuery = useQuoteQuery(offered ? plan.id : null, period, CHECKOUT_FAILED);
  const quote = offered ? (quoteQuery.data ?? null) : null;
  const error = billing.error?.message ?? quoteQuery.error?.message ?? null;

  const pay = async (method: PaymentMethod) => {
    if (!plan) return;
    setBusy(method);
    try {
      // Only the plan and the period: the server computes what is owed.
      const result = await api.post<CheckoutResult>('/billing/checkout', { id_plan: plan.id, period, method }, CHECKOUT_FAILED);
      if (method === 'paypal' && result.approve_url) {
        window.location.assign(result.approve_url);
        return;
      }
      setTransfer(result);
      showToast('success', t('Your invoice is waiting for your bank transfer.'));
      setBusy(null);
    } catch (err) {
      showToast('error', t((err as Error).message));
      setBusy(null);
    }
  };

  if (error) {
    return (
      <div className="alert alert-danger" role="alert">
        {t(error)}
      </div>
    );
  }
  if (!info || busy === 'capture') {
    return (
      <div className="text-center py-5" data-testid="checkout-capturing">
        <Spinner />
        {busy === 'capture' && <p className="mt-2">{t('Confirming your payment with PayPal…')}</p>}
      </div>
    );
  }

  if (transfer?.bank) {
    const inv = transfer.invoice;
    const b = transfer.bank;
    const rows: [string, string][] = [
      [t('Amount'), formatMinor(inv.total_minor, inv.currency, i18n.language)],
      [t('Payment reference'), inv.reference],
      [t('Bank'), b.bank_name],
      [t('Account name'), b.bank_account_name],
      [t('Account number'), b.bank_account_number],
      [t('IBAN'), b.bank_iban],
      [t('SWIFT/BIC'), b.bank_swift_bic],
      [t('Bank address'), b.bank_address],
    ];
    return (
      <SectionCard headingId="bank-heading" title={t('Pay by bank transfer')}>
        <div className="card-body" data-testid="bank-details">
          <p>{t('Please transfer the amount below and write the payment reference on the transfer. Your plan is extended as soon as the payment arrives; the details were also sent to you by e-mail.')}</p>
          <dl className="row mb-3">
            {rows
              .filter(([, v]) => v)
              .map(([k, v]) => (
                <div className="col-12 row" key={k}>
                  <dt className="col-sm-4">{k}</dt>
                  <dd className="col-sm-8" dir="ltr" style={{ textAlign: 'start' }}>
                    {v}
                  </dd>
                </div>
              ))}
          </dl>
          <Link to="/billing" className="btn btn-primary">
            {t('Back to billing')}
          </Link>
        </div>
      </SectionCard>
    );
  }

  if (!info.plans.length || !info.methods.length) {
    return (
      <SectionCard headingId="checkout-heading" title={t('Checkout')}>
        <div className="card-body">
          <p className="mb-0 text-body-secondary">{t('Online payment is not available on this site. Please contact the administrator.')}</p>
        </div>
      </SectionCard>
    );
  }

  return (
    <SectionCard headingId="checkout-heading" title={t('Checkout')}>
      <div className="card-body" data-testid="checkout-page">
        <div className="row">
          <SelectField className="col-md-6 mb-3" label={t('Plan')} value={planId} onChange={setPlanId}>
            {info.plans.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </SelectField>
          <fieldset className="col-md-6 mb-3">
            <legend className="form-label fs-6">{t('Period')}</legend>
            {periods.map((p) => {
              const price = plan!.prices.find((x) => x.period === p)!;
              return (
                <div className="form-check" key={p}>
                  <input className="form-check-input" type="radio" name="period" id={`period-${p}`} checked={period === p} onChange={() => setPeriod(p)} />
                  <label className="form-check-label" htmlFor={`period-${p}`}>
                    {p === 'year' ? t('Yearly') : t('Monthly')} — {formatMinor(price.amount_minor, price.currency, i18n.language)}
                  </label>
                </div>
              );
            })}
          </fieldset>
        </div>
        {plan?.description && (
          <p className="text-body-secondary" dir="auto">
            {plan.description}
          </p>
        )}
        {quote ? (
          <table className="table table-sm mb-3" style={{ maxWidth: 420 }} data-testid="checkout-quote">
            <tbody>
              <tr>
                <th scope="row">{t('Subtotal')}</th>
                <td className="text-end">{formatMinor(quote.subtotal_minor, quote.currency, i18n.language)}</td>
              </tr>
              <tr>
                <th scope="row">{t('Tax ({rate}%)', { rate: percentOf(quote.tax_rate_bp) })}</th>
                <td className="text-end">{formatMinor(quote.tax_minor, quote.currency, i18n.language)}</td>
              </tr>
              <tr className="fw-bold">
                <th scope="row">{t('Total')}</th>
                <td className="text-end" data-testid="checkout-total">
                  {formatMinor(quote.total_minor, quote.currency, i18n.language)}
                </td>
              </tr>
              <tr>
                <td colSpan={2} className="small text-body-secondary">
                  {t('Your plan will run from {start} to {end}.', { start: isolate(quote.period_start), end: isolate(quote.period_end) })}
                </td>
              </tr>
            </tbody>
          </table>
        ) : (
          <Spinner />
        )}
        <div className="d-flex flex-wrap gap-2">
          {info.methods.includes('paypal') && (
            <button type="button" className="btn btn-primary" disabled={!quote || busy !== null} onClick={() => void pay('paypal')} data-testid="pay-paypal">
              {busy === 'paypal' ? <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" /> : <i className="bi bi-paypal me-1" aria-hidden="true" />}
              {t('Pay with PayPal')}
            </button>
          )}
          {info.methods.includes('bank_transfer') && (
            <button type="button" className="btn btn-outline-primary" disabled={!quote || busy !== null} onClick={() => void pay('bank_transfer')} data-testid="pay-bank">
              {busy === 'bank_transfer' ? <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" /> : <i className="bi bi-bank me-1" aria-hidden="true" />}
              {t('Pay by bank transfer')}
            </button>
          )}
          <Link to="/billing" className="btn btn-link">
            {t('Back to billing')}
          </Link>
        </div>
      </div>
    </SectionCard>
  );
}
