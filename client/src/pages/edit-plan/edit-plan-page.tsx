import { useMemo, useRef } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formMessages, type Plan, type PlanDetail } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { useGuardedEntity } from '../../routes/entity-guard';
import { TextField } from '../../components/text-field';
import { SelectField, TextAreaField } from '../../components/edit-form/fields';
import { EditFormShell } from '../../components/edit-form/edit-form-shell';
import { useEditForm } from '../../components/edit-form/use-edit-form';
import { planCreateRequest, planFormRules, planFormValues, planUpdateRequest, type PlanFormValues } from './plan-form';
import { SubscriptionsCard } from './subscriptions-card';

const M = formMessages('Plan');

/**
 * /editplan/{id} ('new' creates one), for super admins, through the generic
 * edit form: name, prices per month and per year with their currency, member slots and limits; below, who has
 * the plan and until when.
 */
export default function EditPlanPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const plan = useGuardedEntity<PlanDetail>();
  const initial = useMemo(() => planFormValues(plan), [plan]);
  // The whole form at save time: a changed price also sends the listed price and period it gives.
  const latest = useRef(initial);
  const form = useEditForm<PlanFormValues, Plan>({
    entity: 'Plan',
    id: plan?.id ?? null,
    initial,
    rules: planFormRules,
    endpoints: {
      create: (v) => api.post<Plan>('/plans', planCreateRequest(v), M.createFailed),
      update: (id, changes) => api.put<Plan>(`/plans/${id}`, planUpdateRequest(changes, latest.current), M.updateFailed),
      remove: (id) => api.delete(`/plans/${id}`, M.deleteFailed),
      idOf: (p) => p.id,
      valuesOf: planFormValues,
    },
    onCreated: (p) => navigate(`/editplan/${p.id}`, { replace: true }),
  });
  const { values, errors, setValue } = form;
  latest.current = values;
  const creating = form.id === null;
  const text = (k: Exclude<keyof PlanFormValues, 'active'>) => ({
    value: values[k],
    onChange: (v: string) => setValue(k, v),
    error: errors[k] ? t(errors[k] as string) : null,
  });

  return (
    <div className="d-flex flex-column gap-4">
      <EditFormShell
        entity="Plan"
        heading={creating ? t('New plan') : t('Edit plan')}
        id={form.id}
        hasChanges={form.hasChanges}
        busy={form.busy}
        onSave={form.save}
        onDelete={form.remove}
        recordName={values.name}
        actions={
          <Link to="/plans" className="btn btn-outline-secondary">
            {creating ? t('Cancel') : t('Back to plans')}
          </Link>
        }
      >
        <div className="row">
          <TextField className="col-md-6 mb-3" label={t('Name')} required maxLength={100} autoFocus={creating} {...text('name')} />
          <SelectField className="col-md-6 mb-3" label={t('Active')} value={values.active ? 'yes' : 'no'} onChange={(v) => setValue('active', v === 'yes')} hint={t('An inactive plan is kept for its subscribers but not given to anyone new.')}>
            <option value="yes">{t('Yes')}</option>
            <option value="no">{t('No')}</option>
          </SelectField>
        </div>
        <TextAreaField label={t('Description')} rows={2} maxLength={2000} {...text('description')} />
        <div className="row">
          <TextField className="col-6 col-md-4 mb-3" label={t('Price per month')} inputMode="decimal" dir="ltr" hint={t('Empty: not sold per month.')} {...text('price_month')} />
          <TextField className="col-6 col-md-4 mb-3" label={t('Price per year')} inputMode="decimal" dir="ltr" hint={t('Empty: not sold per year.')} {...text('price_year')} />
          <TextField className="col-md-4 mb-3" label={t('Currency')} required maxLength={3} dir="ltr" hint={t('Three letters, such as USD or EUR. Checkout charges these prices in it, tax added.')} {...text('currency')} />
        </div>
        <fieldset className="mb-2">
          <legend className="fs-6 fw-semibold">{t('Members and limits')}</legend>
          <div className="row">
            <TextField className="col-6 col-md-3 mb-3" label={t('Member slots')} required inputMode="numeric" dir="ltr" hint={t('People besides the owner.')} {...text('member_slots')} />
            <TextField className="col-6 col-md-3 mb-3" label={t('Projects')} inputMode="numeric" dir="ltr" hint={t('Empty: no limit.')} {...text('max_projects')} />
            <TextField className="col-6 col-md-3 mb-3" label={t('Storage (MB)')} inputMode="numeric" dir="ltr" hint={t('Empty: no limit.')} {...text('max_storage_mb')} />
            <TextField className="col-6 col-md-3 mb-3" label={t('Video minutes')} inputMode="numeric" dir="ltr" hint={t('Empty: no limit.')} {...text('max_video_minutes')} />
          </div>
        </fieldset>
      </EditFormShell>
      {/* Once the saved plan is read: right after a create the screen moves to the plan's address and
          mounts afresh, so a card shown before that would vanish with anything typed into it. */}
      {plan && <SubscriptionsCard planId={plan.id} initial={plan.subscriptions} />}
    </div>
  );
}
