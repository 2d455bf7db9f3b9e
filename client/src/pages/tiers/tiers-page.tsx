import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type Tier } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { Spinner } from '../../components/spinner';
import { SectionCard } from '../../components/section-card';
import { TextField } from '../../components/text-field';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { formatMoney } from '../plans/plan-format';
import { ChartWithTable } from './chart-with-table';
import { EMPTY_TIER, rangeText, tierFieldErrors, tierFormValues, tierRequest, type TierFormErrors, type TierFormValues } from './tier-form';
import { monthName, monthSeries, statsSeries, yearSeries } from './usage-data';
import { TIER_READS, useTierUsageQueries, useTiersQuery } from './use-tier-queries';

const FIELDS: { key: keyof TierFormValues; label: string; numeric?: boolean }[] = [
  { key: 'name', label: 'Name' },
  { key: 'price', label: 'Price per project and month', numeric: true },
  { key: 'min_area', label: 'Area from (m²)', numeric: true },
  { key: 'max_area', label: 'Area up to (m², not included)', numeric: true },
  { key: 'min_buildings', label: 'Buildings from', numeric: true },
  { key: 'max_buildings', label: 'Buildings to', numeric: true },
  { key: 'min_floors', label: 'Floors from', numeric: true },
  { key: 'max_floors', label: 'Floors to', numeric: true },
];

/** The tier list with its add/edit form and delete (behind a confirmation). */
function TiersCard({ tiers, onChanged }: { tiers: Tier[]; onChanged(): Promise<void> }) {
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<TierFormValues>(EMPTY_TIER);
  const [errors, setErrors] = useState<TierFormErrors>({});
  const [editing, setEditing] = useState<Tier | null>(null);
  const [deleting, setDeleting] = useState<Tier | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (k: keyof TierFormValues, v: string) => {
    setValues((s) => ({ ...s, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };
  const reset = () => {
    setEditing(null);
    setValues(EMPTY_TIER);
    setErrors({});
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = tierFieldErrors(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    try {
      if (editing) await api.put(`/project-tiers/${editing.id}`, tierRequest(values), t('Failed to update Tier'));
      else await api.post('/project-tiers', tierRequest(values), t('Failed to create Tier'));
      showToast('success', editing ? t('Tier updated successfully!') : t('Tier created successfully!'), { form: true });
      reset();
      await onChanged();
    } catch (err) {
      showToast('error', (err as Error).message, { form: true });
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await api.delete(`/project-tiers/${deleting.id}`, t('Failed to delete Tier'));
      showToast('success', t('Tier deleted successfully!'), { form: true });
      if (editing?.id === deleting.id) reset();
      setDeleting(null);
      await onChanged();
    } catch (err) {
      showToast('error', (err as Error).message, { form: true });
    } finally {
      setBusy(false);
    }
  };

  return (
    <SectionCard headingId="tiers-heading" title={t('Project tiers')}>
      <div className="card-body">
        <p className="small text-body-secondary">
          {t('A tier covers an area from its lower limit up to, but not including, its upper limit, and buildings and floors from the lower to the upper number. Tiers may not overlap; an empty upper limit has no end.')}
        </p>
        {tiers.length === 0 ? (
          <p className="text-body-secondary" data-testid="tiers-empty">
            {t('There are no tiers yet. Add the first one below.')}
          </p>
        ) : (
          <div className="table-responsive mb-3">
            <table className="table table-sm align-middle mb-0" data-testid="tiers-table">
              <thead>
                <tr>
                  <th scope="col">{t('Name')}</th>
                  <th scope="col">{t('Area (m²)')}</th>
                  <th scope="col">{t('Buildings')}</th>
                  <th scope="col">{t('Floors')}</th>
                  <th scope="col">{t('Price')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('Actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tiers.map((x) => (
                  <tr key={x.id}>
                    <td>{x.name}</td>
                    <td dir="ltr">{rangeText(x.min_area, x.max_area)}</td>
                    <td dir="ltr">{rangeText(x.min_buildings, x.max_buildings)}</td>
                    <td dir="ltr">{rangeText(x.min_floors, x.max_floors)}</td>
                    <td className="text-nowrap">{formatMoney(x.price, x.currency, i18n.language)}</td>
                    <td className="text-end text-nowrap">
                      <button type="button" className="btn btn-sm btn-outline-secondary me-1" onClick={() => (setEditing(x), setValues(tierFormValues(x)), setErrors({}))} aria-label={t('Edit {name}', { name: x.name })}>
                        <i className="bi bi-pencil" aria-hidden="true" />
                      </button>
                      <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setDeleting(x)} aria-label={t('Delete {name}', { name: x.name })}>
                        <i className="bi bi-trash" aria-hidden="true" />
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <form onSubmit={submit} noValidate aria-labelledby="tier-form-heading" data-testid="tier-form">
          <h3 id="tier-form-heading" className="h6">
            {editing ? t('Edit {name}', { name: editing.name }) : t('New tier')}
          </h3>
          <div className="row g-2">
            {FIELDS.map((f) => (
              <TextField
                key={f.key}
                className={f.key === 'name' ? 'col-md-6' : 'col-6 col-md-3'}
                label={t(f.label)}
                value={values[f.key]}
                onChange={(v) => set(f.key, v)}
                error={errors[f.key] ? t(errors[f.key] as string) : null}
                inputMode={f.numeric ? 'decimal' : undefined}
                dir={f.numeric ? 'ltr' : undefined}
                required={f.key === 'name' || f.key === 'price'}
              />
            ))}
          </div>
          <div className="d-flex gap-2 mt-3">
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {editing ? t('Save changes') : t('Add tier')}
            </button>
            {editing && (
              <button type="button" className="btn btn-outline-secondary" onClick={reset}>
                {t('Cancel')}
              </button>
            )}
          </div>
        </form>
      </div>
      <ConfirmDialog
        show={deleting !== null}
        title={t('Delete tier')}
        body={t('Delete "{name}"? This cannot be undone.', { name: deleting?.name ?? '' })}
        confirmLabel={t('Delete')}
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </SectionCard>
  );
}

/** Which tier a size falls in, or the sentence saying none does. */
function FindTierCard() {
  const { t, i18n } = useTranslation();
  const [size, setSize] = useState({ area: '', num_buildings: '1', num_floors: '1' });
  const [answer, setAnswer] = useState<{ tier: Tier | null; message: string | null } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const tier = await api.post<Tier>('/project-tiers/find-tier', { area: Number(size.area), num_buildings: Number(size.num_buildings), num_floors: Number(size.num_floors) }, MESSAGES.fetchTiersFailed);
      setAnswer({ tier, message: null });
    } catch (err) {
      setAnswer({ tier: null, message: (err as Error).message });
    }
  };
  const field = (k: keyof typeof size, label: string) => (
    <TextField className="col-4" label={label} value={size[k]} onChange={(v) => setSize((s) => ({ ...s, [k]: v }))} inputMode="decimal" dir="ltr" required />
  );
  return (
    <SectionCard headingId="find-tier-heading" title={t('Find the tier of a project')}>
      <form className="card-body" onSubmit={submit} data-testid="find-tier-form">
        <div className="row g-2 align-items-end">
          {field('area', t('Area (m²)'))}
          {field('num_buildings', t('Buildings'))}
          {field('num_floors', t('Floors'))}
        </div>
        <button type="submit" className="btn btn-outline-primary mt-3" disabled={!size.area.trim()}>
          {t('Find tier')}
        </button>
        <div aria-live="polite" className="mt-3" data-testid="find-tier-answer">
          {answer?.tier && (
            <div className="alert alert-success mb-0">
              {t('This project is in the tier "{name}" ({price} per month).', { name: answer.tier.name, price: formatMoney(answer.tier.price, answer.tier.currency, i18n.language) })}
            </div>
          )}
          {answer?.message && <div className="alert alert-warning mb-0">{answer.message}</div>}
        </div>
      </form>
    </SectionCard>
  );
}

function UsageCharts() {
  const { t, i18n } = useTranslation();
  const now = new Date();
  const [year, setYear] = useState(now.getFullYear());
  const [month, setMonth] = useState(now.getMonth() + 1);
  const usage = useTierUsageQueries(year, month);
  const current = usage.current.data ?? null;
  const yearly = usage.yearly.data ?? null;
  const stats = usage.stats.data ?? null;
  const error = usage.error?.message ?? null;

  const money = (v: number) => formatMoney(v, 'USD', i18n.language);
  const noTier = t('No tier');
  const years = Array.from({ length: 6 }, (_, i) => now.getFullYear() - i);
  return (
    <div className="d-flex flex-column gap-4">
      <div className="d-flex flex-wrap gap-2 align-items-end">
        <div>
          <label htmlFor="usage-year" className="form-label">
            {t('Year')}
          </label>
          <select id="usage-year" className="form-select" value={year} onChange={(e) => setYear(Number(e.target.value))}>
            {years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="usage-month" className="form-label">
            {t('Month')}
          </label>
          <select id="usage-month" className="form-select" value={month} onChange={(e) => setMonth(Number(e.target.value))}>
            {Array.from({ length: 12 }, (_, i) => (
              <option key={i + 1} value={i + 1}>
                {monthName(i18n.language)(i + 1)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {error && (
        <div className="alert alert-danger mb-0" role="alert">
          {t(error)}
        </div>
      )}
      {!error && (!current || !yearly || !stats) && <Spinner />}
      {current && (
        <ChartWithTable
          testId="usage-month-chart"
          kind="bar"
          title={t('Projects per tier in {month} {year}', { month: monthName(i18n.language)(current.month), year: current.year })}
          series={monthSeries(current, noTier)}
          measures={[
            { key: 'projects', label: t('Projects') },
            { key: 'cost', label: t('Cost'), format: money, axis: 'money' },
          ]}
        />
      )}
      {yearly && (
        <ChartWithTable
          testId="usage-year-chart"
          kind="line"
          title={t('Projects and cost month by month in {year}', { year: yearly.year })}
          series={yearSeries(yearly, monthName(i18n.language))}
          measures={[
            { key: 'projects', label: t('Projects') },
            { key: 'cost', label: t('Cost'), format: money, axis: 'money' },
          ]}
        />
      )}
      {stats && (
        <ChartWithTable
          testId="admin-stats-chart"
          kind="bar"
          title={t('Every project per tier today')}
          series={statsSeries(stats, noTier)}
          measures={[
            { key: 'projects', label: t('Projects') },
            { key: 'owners', label: t('Owners') },
            { key: 'revenue', label: t('Monthly revenue'), format: money, axis: 'money' },
          ]}
        />
      )}
    </div>
  );
}

/** /tiers (super admins): the project tiers, the tier lookup, and usage and statistics as charts. */
export default function TiersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const query = useTiersQuery();
  const tiers = query.data ?? null;
  const error = query.error?.message ?? null;
  // A tier changed: the list and the usage charts (which count projects per tier) are read again.
  const changed = () => queryClient.invalidateQueries({ queryKey: TIER_READS });

  if (error)
    return (
      <div className="alert alert-danger" role="alert">
        {t(error)}
      </div>
    );
  if (!tiers) return <Spinner />;
  return (
    <div className="d-flex flex-column gap-4">
      <TiersCard tiers={tiers} onChanged={changed} />
      <FindTierCard />
      <UsageCharts />
    </div>
  );
}
