import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/spinner';
import { SectionCard } from '../../components/section-card';
import { InvoiceTable } from '../../components/billing/invoice-table';
import { useBillingQuery } from '../../components/billing/use-billing-queries';
import { isolate } from '../../lib/bidi';

/**
 * /billing: the user's plan (name, end date, days left), Renew, and every
 * invoice with its PDF. A payment confirmed elsewhere (PayPal's webhook, an
 * administrator marking a transfer paid) reloads it live.
 */
export default function BillingPage() {
  const { t } = useTranslation();
  const query = useBillingQuery();
  const info = query.data ?? null;
  const error = query.isError ? query.error.message : null;

  if (error) {
    return (
      <div className="alert alert-danger" role="alert">
        {t(error)}
      </div>
    );
  }
  if (!info) return <Spinner />;
  const plan = info.plan;
  const canBuy = info.methods.length > 0 && info.plans.length > 0 && (!plan || plan.is_owner);

  return (
    <div className="d-flex flex-column gap-3" data-testid="billing-page">
      <SectionCard
        headingId="billing-plan-heading"
        title={t('Your plan')}
        action={
          canBuy ? (
            <Link to={plan ? `/checkout?plan=${plan.id_plan}` : '/checkout'} className="btn btn-primary btn-sm" data-testid="renew-button">
              <i className="bi bi-arrow-repeat me-1" aria-hidden="true" />
              {plan ? t('Renew or change plan') : t('Choose a plan')}
            </Link>
          ) : undefined
        }
      >
        <div className="card-body">
          {plan ? (
            <div className="d-flex flex-wrap align-items-center gap-3">
              <div>
                <div className="fs-5 fw-semibold text-break" dir="auto" data-testid="billing-plan-name">
                  {plan.name}
                </div>
                <div className="text-body-secondary">
                  {plan.expired ? t('Expired on {date}', { date: isolate(plan.expires_at) }) : t('Runs until {date}', { date: isolate(plan.expires_at) })}{' '}
                  <span dir="ltr" data-testid="billing-plan-expiry" className="visually-hidden">
                    {plan.expires_at}
                  </span>
                </div>
              </div>
              {plan.expired ? (
                <span className="badge text-bg-danger">{t('Expired')}</span>
              ) : plan.days_left <= 7 ? (
                <span className="badge text-bg-warning">{t('{count} days left', { count: plan.days_left })}</span>
              ) : null}
              {!plan.is_owner && <p className="small text-body-secondary mb-0 w-100">{t('You use the plan of its owner; only the owner pays for it.')}</p>}
            </div>
          ) : (
            <p className="mb-0 text-body-secondary" data-testid="billing-no-plan">
              {t('You have no plan yet.')}
            </p>
          )}
          {info.methods.length === 0 && <p className="small text-body-secondary mt-2 mb-0">{t('Online payment is not available on this site. Please contact the administrator.')}</p>}
          <p className="small mt-3 mb-0">
            {info.company ? t('Invoices are made out to {name}.', { name: isolate(info.company.name) }) : t('Invoices are made out to you.')}{' '}
            <Link to="/mycompany">{info.company ? t('Change the company details') : t('Add your company details')}</Link>
          </p>
        </div>
      </SectionCard>

      <SectionCard headingId="billing-invoices-heading" title={t('Your invoices')}>
        {info.invoices.length === 0 ? (
          <div className="card-body">
            <p className="text-body-secondary mb-0" data-testid="invoices-empty">
              {t('No invoices yet.')}
            </p>
          </div>
        ) : (
          <InvoiceTable invoices={info.invoices} />
        )}
      </SectionCard>
    </div>
  );
}
