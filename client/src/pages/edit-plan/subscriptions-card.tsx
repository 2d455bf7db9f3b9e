import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type PlanSubscription } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { TextField } from '../../components/text-field';
import { usePlanSubscriptionsQuery } from './use-plan-subscriptions-query';

/** A year from today, the usual first expiry date. */
const nextYear = () => {
  const d = new Date();
  d.setFullYear(d.getFullYear() + 1);
  return d.toISOString().slice(0, 10);
};

/** Who has a plan and until when (super admins): give it to a user, move the date, cancel. */
export function SubscriptionsCard({ planId, initial }: { planId: number; initial: PlanSubscription[] }) {
  const { t } = useTranslation();
  const { subscriptions: subs, refresh } = usePlanSubscriptionsQuery(planId, initial);
  const [user, setUser] = useState('');
  const [expires, setExpires] = useState(nextYear);
  const [dates, setDates] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState(false);
  const [cancelling, setCancelling] = useState<PlanSubscription | null>(null);

  const run = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await work();
      showToast('success', done);
      await refresh();
      return true;
    } catch (err) {
      showToast('error', (err as Error).message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!user.trim()) return;
    if (await run(() => api.post(`/plans/${planId}/subscriptions`, { user: user.trim(), expires_at: expires }, MESSAGES.fetchPlansFailed), t('The user has the plan now.'))) setUser('');
  };

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="plan-subscriptions-heading">
      <div className="card-header bg-transparent">
        <h2 id="plan-subscriptions-heading" className="h6 mb-0">
          {t('Subscribers')}
        </h2>
      </div>
      <div className="card-body">
        <form className="row g-2 align-items-end mb-3" onSubmit={add} aria-label={t('Give this plan to a user')}>
          <TextField className="col-md-5" label={t('Username or e-mail')} value={user} onChange={setUser} autoComplete="off" dir="ltr" />
          <TextField className="col-7 col-md-4" label={t('Expires on')} type="date" value={expires} onChange={setExpires} />
          <div className="col-5 col-md-3">
            <button type="submit" className="btn btn-primary w-100" disabled={busy || !user.trim()}>
              {t('Give the plan')}
            </button>
          </div>
        </form>
        {subs.length === 0 ? (
          <p className="text-body-secondary mb-0" data-testid="subscriptions-empty">
            {t('Nobody has this plan yet.')}
          </p>
        ) : (
          <ul className="list-group list-group-flush" aria-label={t('Subscribers')}>
            {subs.map((s) => (
              <li key={s.id} className="list-group-item px-0 d-flex flex-wrap align-items-center gap-2" data-testid="subscription-row">
                <div className="me-auto text-break" style={{ minWidth: 0 }}>
                  <div>{s.owner.name}</div>
                  <div className="small text-body-secondary">{s.owner.email}</div>
                  <div className="small text-body-secondary">
                    {t('Slots used')}: {s.slots_used}
                  </div>
                </div>
                <input
                  type="date"
                  className="form-control form-control-sm w-auto"
                  aria-label={t('Expiry date of {name}', { name: s.owner.name })}
                  value={dates[s.id] ?? s.expires_at}
                  onChange={(e) => setDates((d) => ({ ...d, [s.id]: e.target.value }))}
                />
                {dates[s.id] && dates[s.id] !== s.expires_at && (
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-primary"
                    disabled={busy}
                    onClick={() => void run(() => api.put(`/plan-subscriptions/${s.id}`, { expires_at: dates[s.id] }, MESSAGES.fetchPlansFailed), t('Subscription updated.'))}
                  >
                    {t('Save')}
                  </button>
                )}
                <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy} onClick={() => setCancelling(s)}>
                  {t('Cancel plan')}
                </button>
              </li>
            ))}
          </ul>
        )}
        <p className="small text-body-secondary mt-3 mb-0">
          {t('Owners see their members on their profile.')} <Link to="/users">{t('Users')}</Link>
        </p>
      </div>
      <ConfirmDialog
        show={cancelling !== null}
        title={t('Cancel plan')}
        body={t('Cancel the plan of {name}? Its members leave the plan too.', { name: cancelling?.owner.name ?? '' })}
        confirmLabel={t('Cancel plan')}
        busy={busy}
        onCancel={() => setCancelling(null)}
        onConfirm={() => {
          const s = cancelling;
          if (s) void run(() => api.delete(`/plan-subscriptions/${s.id}`, MESSAGES.fetchPlansFailed), t('Subscription cancelled.')).then(() => setCancelling(null));
        }}
      />
    </section>
  );
}
