import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type Plan } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { Spinner } from '../../components/spinner';
import { SectionCard } from '../../components/section-card';
import { formatMoney, limitText } from './plan-format';

/** /plans (super admins): the subscription plans, each opened in the generic edit form. */
export default function PlansPage() {
  const { t, i18n } = useTranslation();
  const [plans, setPlans] = useState<Plan[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api.get<Plan[]>('/plans', MESSAGES.fetchPlansFailed).then(
      (list) => live && setPlans(list),
      (err: unknown) => live && setError((err as Error).message),
    );
    return () => {
      live = false;
    };
  }, []);

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
                      {formatMoney(p.price, p.currency, i18n.language)} {p.period === 'year' ? t('per year') : t('per month')}
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
