import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/spinner';
import { SectionCard } from '../../components/section-card';
import { limitText } from './plan-format';
import { usePlansQuery } from './use-plans-query';
import { formatMinor, periodPrices } from '../../lib/billing-format';

/** /plans (super admins): the subscription plans, each opened in the generic edit form. */
export default function PlansPage() {
  const { t, i18n } = useTranslation();
  const query = usePlansQuery();
  const plans = query.data ?? null;
  const error = query.isError ? query.error.message : null;

  return (
    <SectionCard
      headingId="plans-heading"
      title={t('Subscription plans')}
      action={
        <Link to="/editplan/new" className="btn btn-primary btn-sm">
          <i className="bi bi-plus-lg me-1" aria-hidden="true" />
          {t('New plan')}
        </Link>
      }
    >
      <div className="card-body">
        {error ? (
          <div className="alert alert-danger mb-0" role="alert">
            {t(error)}
          </div>
        ) : plans === null ? (
          <Spinner />
        ) : plans.length === 0 ? (
          <p className="text-body-secondary mb-0" data-testid="plans-empty">
            {t('There are no plans yet. Create the first one.')}
          </p>
        ) : (
          <div className="table-responsive">
            <table className="table table-hover align-middle mb-0" data-testid="plans-table">
              <thead>
                <tr>
                  <th scope="col">{t('Name')}</th>
                  <th scope="col">{t('Price')}</th>
                  <th scope="col">{t('Member slots')}</th>
                  <th scope="col">{t('Projects')}</th>
                  <th scope="col">{t('Subscribers')}</th>
                </tr>
              </thead>
              <tbody>
                {plans.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <Link to={`/editplan/${p.id}`}>{p.name}</Link>
                      {!p.active && <span className="badge text-bg-secondary ms-2">{t('Inactive')}</span>}
                    </td>
                    <td className="text-nowrap">
                      {periodPrices(p).map((x) => (
                        <div key={x.period}>
                          {formatMinor(x.amount_minor, p.currency, i18n.language)} {x.period === 'year' ? t('per year') : t('per month')}
                        </div>
                      ))}
                    </td>
                    <td>{p.member_slots}</td>
                    <td>{limitText(p.max_projects, t('No limit'))}</td>
                    <td>{p.subscribers}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </SectionCard>
  );
}
