import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formMessages, type ProjectCreateRequest, type ProjectDetail } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { useAuthStore } from '../../stores/auth.store';
import { useCategoriesQuery, useProjectTypesQuery } from '../../components/use-project-lookups';
import { useGuardedEntity } from '../../routes/entity-guard';
import { TextField } from '../../components/text-field';
import { CheckboxGroupField, SelectField, TextAreaField } from '../../components/edit-form/fields';
import { EditFormShell } from '../../components/edit-form/edit-form-shell';
import { useEditForm } from '../../components/edit-form/use-edit-form';
import { TierUpgradeWarning } from './tier-upgrade-warning';
import { projectFormRules, projectFormValues, projectRequest, type ProjectFormValues } from './project-form';

const M = formMessages('Project');

/** /editproject/{id} ('new' creates one): the project through the generic edit form. */
export default function EditProjectPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const project = useGuardedEntity<ProjectDetail>();
  const userId = useAuthStore((s) => s.user?.id);
  const categories = useCategoriesQuery().data ?? null;
  const types = useProjectTypesQuery().data ?? null;
  const initial = useMemo(() => projectFormValues(project), [project]);

  const form = useEditForm<ProjectFormValues, ProjectDetail>({
    entity: 'Project',
    id: project?.id ?? null,
    initial,
    rules: projectFormRules,
    endpoints: {
      create: (v) => api.post<ProjectDetail>('/projects', projectRequest(v) as ProjectCreateRequest, M.createFailed),
      update: (id, changes) => api.put<ProjectDetail>(`/projects/${id}`, projectRequest(changes), M.updateFailed),
      // SPEC §7: the delete carries the acting user's id.
      remove: (id) => api.delete(`/projects/${id}`, M.deleteFailed, { params: userId ? { id_user: userId } : undefined }),
      idOf: (p) => p.id,
      valuesOf: projectFormValues,
    },
    // The address follows the remembered id, so a reload edits the created project.
    onCreated: (p) => navigate(`/editproject/${p.id}`, { replace: true }),
  });
  const { values, errors, setValue } = form;
  const text = (field: keyof ProjectFormValues & string) => ({
    value: values[field] as string,
    onChange: (v: string) => setValue(field, v),
    error: errors[field] ? t(errors[field] as string) : null,
  });

  return (
    <EditFormShell
      entity="Project"
      heading={form.id === null ? t('New project') : t('Edit project')}
      id={form.id}
      hasChanges={form.hasChanges}
      busy={form.busy}
      onSave={form.save}
      onDelete={form.remove}
      recordName={values.name || project?.name || ''}
      actions={
        form.id !== null ? (
          <Link to={`/project/${form.id}`} className="btn btn-outline-secondary">
            {/* It opens in this tab, so no new-tab icon. */}
            <i className="bi bi-building me-1" aria-hidden="true" />
            {t('View project')}
          </Link>
        ) : (
          <Link to="/projects" className="btn btn-outline-secondary">
            {t('Cancel')}
          </Link>
        )
      }
    >
      <TextField label={t('Project name')} required maxLength={200} autoFocus={form.id === null} {...text('name')} />
      <TextAreaField label={t('Description')} maxLength={5000} {...text('description')} />
      <div className="row">
        <TextField className="col-md-6 mb-3" label={t('Client')} maxLength={200} {...text('client_name')} />
        <SelectField
          className="col-md-6 mb-3"
          label={t('Project type')}
          value={values.id_project_type}
          onChange={(v) => setValue('id_project_type', v)}
          error={errors.id_project_type ? t(errors.id_project_type) : null}
        >
          <option value="">{t('No type')}</option>
          {(types ?? []).map((pt) => (
            <option key={pt.id} value={String(pt.id)}>
              {pt.name}
            </option>
          ))}
        </SelectField>
      </div>
      <CheckboxGroupField
        legend={t('Categories')}
        options={(categories ?? []).map((c) => ({ value: c.id, label: c.name }))}
        value={values.categories}
        onChange={(v) => setValue('categories', v)}
        error={errors.categories ? t(errors.categories) : null}
        empty={
          <>
            {t('You have no categories yet.')} <Link to="/categories">{t('Manage categories')}</Link>
          </>
        }
      />
      <fieldset className="mb-2">
        <legend className="fs-6 fw-semibold">{t('Address')}</legend>
        <div className="row">
          <TextField className="col-md-6 mb-3" label={t('Street')} autoComplete="street-address" {...text('street')} />
          <TextField className="col-md-6 mb-3" label={t('City')} autoComplete="address-level2" {...text('city')} />
          <TextField className="col-md-4 mb-3" label={t('Postal code')} autoComplete="postal-code" {...text('postal_code')} />
          <TextField className="col-md-4 mb-3" label={t('Province')} autoComplete="address-level1" {...text('province')} />
          <TextField className="col-md-4 mb-3" label={t('Country')} autoComplete="country-name" {...text('country')} />
          <TextField className="col-md-6 mb-3" label={t('Latitude')} inputMode="decimal" {...text('latitude')} />
          <TextField className="col-md-6 mb-3" label={t('Longitude')} inputMode="decimal" {...text('longitude')} />
        </div>
      </fieldset>
      <fieldset className="mb-2">
        <legend className="fs-6 fw-semibold">{t('Schedule and size')}</legend>
        <div className="row">
          <TextField className="col-md-6 mb-3" type="date" label={t('Start date')} {...text('start_date')} />
          <TextField className="col-md-6 mb-3" type="date" label={t('End date')} {...text('end_date')} />
          <TextField className="col-md-4 mb-3" label={t('Area (m²)')} inputMode="decimal" {...text('area')} />
          <TextField className="col-md-4 mb-3" label={t('Buildings')} inputMode="numeric" {...text('num_buildings')} />
          <TextField className="col-md-4 mb-3" label={t('Floors')} inputMode="numeric" {...text('num_floors')} />
        </div>
        {form.id !== null && (
          <TierUpgradeWarning
            projectId={form.id}
            area={values.area}
            buildings={values.num_buildings}
            floors={values.num_floors}
            changed={form.changed.has('area') || form.changed.has('num_buildings') || form.changed.has('num_floors')}
          />
        )}
      </fieldset>
    </EditFormShell>
  );
}
