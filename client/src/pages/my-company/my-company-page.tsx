import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { companySaveSchema, formMessages, type Company, type CompanySaveRequest } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { tk } from '../../lib/i18n-keys';
import { Spinner } from '../../components/spinner';
import { TextField } from '../../components/text-field';
import { EditFormShell } from '../../components/edit-form/edit-form-shell';
import { useEditForm } from '../../components/edit-form/use-edit-form';
import { requestRules } from '../../components/edit-form/edit-form-model';

const M = formMessages('Company');

interface CompanyFormValues {
  name: string;
  tax_id: string;
  street: string;
  city: string;
  postal_code: string;
  province: string;
  country: string;
  email: string;
}

const FIELDS: { key: keyof CompanyFormValues; label: string; col: string; max: number; type?: string }[] = [
  { key: 'name', label: tk('Company name'), col: 'col-md-8', max: 200 },
  { key: 'tax_id', label: tk('Tax id'), col: 'col-md-4', max: 50 },
  { key: 'street', label: tk('Street'), col: 'col-12', max: 200 },
  { key: 'postal_code', label: tk('Postal code'), col: 'col-md-4', max: 20 },
  { key: 'city', label: tk('City'), col: 'col-md-8', max: 100 },
  { key: 'province', label: tk('Province'), col: 'col-md-6', max: 100 },
  { key: 'country', label: tk('Country'), col: 'col-md-6', max: 100 },
  { key: 'email', label: tk('Invoice e-mail'), col: 'col-md-6', max: 254, type: 'email' },
];

const companyValues = (c: Company | null): CompanyFormValues => ({
  name: c?.name ?? '',
  tax_id: c?.tax_id ?? '',
  street: c?.street ?? '',
  city: c?.city ?? '',
  postal_code: c?.postal_code ?? '',
  province: c?.province ?? '',
  country: c?.country ?? '',
  email: c?.email ?? '',
});

const trimmed = (v: Partial<CompanyFormValues>): CompanySaveRequest => Object.fromEntries(Object.entries(v).map(([k, x]) => [k, (x ?? '').trim()]));

/** The rules: proto's companySaveSchema on every field. */
const companyFormRules = requestRules<CompanyFormValues>(trimmed, companySaveSchema);

/** /mycompany: the buyer's company on every invoice, in the generic edit form (Company). */
export default function MyCompanyPage() {
  const { t } = useTranslation();
  // After a delete the form redirects here (SPEC §2): a new location loads the (now empty) company again.
  const { key } = useLocation();
  const query = useQuery({
    queryKey: ['company', key],
    queryFn: ({ signal }) => api.get<Company | null>('/company', M.loadFailed, { signal }),
    // Each visit of the page reads the company afresh; the form starts from what was read.
    gcTime: 0,
  });

  if (query.isError) {
    return (
      <div className="alert alert-danger" role="alert">
        {t(query.error.message)}
      </div>
    );
  }
  if (query.isPending) return <Spinner />;
  return <CompanyForm key={key} company={query.data} />;
}

function CompanyForm({ company }: { company: Company | null }) {
  const { t } = useTranslation();
  const initial = useMemo(() => companyValues(company), [company]);
  const form = useEditForm<CompanyFormValues, Company>({
    entity: 'Company',
    id: company?.id ?? null,
    initial,
    rules: companyFormRules,
    endpoints: {
      create: (v) => api.put<Company>('/company', trimmed(v), M.createFailed),
      update: (_id, changes) => api.put<Company>('/company', trimmed(changes), M.updateFailed),
      remove: () => api.delete('/company', M.deleteFailed),
      idOf: (c) => c.id,
      valuesOf: companyValues,
    },
  });

  return (
    <div data-testid="my-company-page">
      <EditFormShell
        entity="Company"
        heading={t('My company')}
        id={form.id}
        hasChanges={form.hasChanges}
        busy={form.busy}
        onSave={form.save}
        onDelete={form.remove}
        recordName={form.values.name || company?.name || ''}
        actions={
          <Link to="/billing" className="btn btn-outline-secondary">
            {t('Back to billing')}
          </Link>
        }
      >
        <p className="small text-body-secondary">{t('These details are printed on every invoice made from now on.')}</p>
        <div className="row">
          {FIELDS.map((f) => (
            <TextField
              key={f.key}
              className={`${f.col} mb-3`}
              label={t(f.label)}
              type={f.type}
              required={f.key === 'name'}
              maxLength={f.max}
              // Names and addresses in their own direction (a Latin company name reads from its start in Arabic too).
              dir={f.key === 'email' || f.key === 'tax_id' ? 'ltr' : 'auto'}
              value={form.values[f.key]}
              onChange={(v) => form.setValue(f.key, v)}
              error={form.errors[f.key] ? t(form.errors[f.key]!) : null}
            />
          ))}
        </div>
      </EditFormShell>
    </div>
  );
}
