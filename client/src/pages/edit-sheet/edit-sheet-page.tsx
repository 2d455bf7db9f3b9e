import { useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formMessages, sheetUpdateSchema, type SheetDetail } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { useGuardedEntity } from '../../routes/entity-guard';
import { TextField } from '../../components/text-field';
import { EditFormShell } from '../../components/edit-form/edit-form-shell';
import { useEditForm } from '../../components/edit-form/use-edit-form';
import { requestRules } from '../../components/edit-form/edit-form-model';
import NotFoundPage from '../not-found/not-found-page';
import { SheetPlanUpload } from '../../components/sheet-plan-upload';

const M = formMessages('Sheet');

interface SheetFormValues {
  name: string;
  page_label: string;
}

const sheetValues = (m: SheetDetail | null): SheetFormValues => ({ name: m?.name ?? '', page_label: m?.page_label ?? '' });

const trimmed = (v: Partial<SheetFormValues>) =>
  Object.fromEntries(Object.entries(v).map(([k, s]) => [k, (s as string).trim()])) as Partial<SheetFormValues>;

/** The rules: proto's sheetUpdateSchema on every field (creating adds only the project's id). */
const sheetFormRules = requestRules<SheetFormValues>(trimmed, sheetUpdateSchema);

/**
 * /editsheet/{id}: a sheet's name and page label through the generic edit
 * form; /editsheet/new?project={id} adds an empty sheet to a project.
 */
export default function EditSheetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sheet = useGuardedEntity<SheetDetail>();
  const [params] = useSearchParams();
  const projectParam = params.get('project');
  const projectId = sheet?.id_project ?? (projectParam && /^[1-9]\d{0,9}$/.test(projectParam) ? Number(projectParam) : null);
  const initial = useMemo(() => sheetValues(sheet), [sheet]);

  const form = useEditForm<SheetFormValues, SheetDetail>({
    entity: 'Sheet',
    id: sheet?.id ?? null,
    initial,
    rules: sheetFormRules,
    endpoints: {
      create: (v) => api.post<SheetDetail>('/maps', { id_project: projectId, ...trimmed(v) }, M.createFailed),
      update: (id, changes) => api.put<SheetDetail>(`/maps/${id}`, trimmed(changes), M.updateFailed),
      remove: (id) => api.delete(`/maps/${id}`, M.deleteFailed),
      idOf: (m) => m.id,
      valuesOf: sheetValues,
    },
    onCreated: (m) => navigate(`/editsheet/${m.id}`, { replace: true }),
  });

  // A new sheet belongs to a project: without one there is nothing to create.
  if (form.id === null && projectId === null) return <NotFoundPage />;

  return (
    <EditFormShell
      entity="Sheet"
      heading={form.id === null ? t('New sheet') : t('Edit sheet')}
      id={form.id}
      hasChanges={form.hasChanges}
      busy={form.busy}
      onSave={form.save}
      onDelete={form.remove}
      recordName={form.values.name || sheet?.name || ''}
      parents={projectId !== null ? [{ label: sheet?.project_name ?? t('Project'), to: `/project/${projectId}`, raw: !!sheet?.project_name }] : []}
      actions={
        <>
          {form.id !== null && (
            <Link to={`/sheet/${form.id}`} className="btn btn-outline-secondary">
              <i className="bi bi-map me-1" aria-hidden="true" />
              {t('Open sheet')}
            </Link>
          )}
          {projectId !== null && (
            <Link to={`/project/${projectId}`} className="btn btn-outline-secondary">
              <i className="bi bi-building me-1" aria-hidden="true" />
              {t('Back to the project')}
            </Link>
          )}
        </>
      }
    >
      <TextField
        label={t('Sheet name')}
        required
        maxLength={200}
        autoFocus={form.id === null}
        value={form.values.name}
        onChange={(v) => form.setValue('name', v)}
        error={form.errors.name ? t(form.errors.name) : null}
      />
      <TextField
        label={t('Page label')}
        hint={t('The drawing number printed on the plan, such as A-101.')}
        maxLength={100}
        value={form.values.page_label}
        onChange={(v) => form.setValue('page_label', v)}
        error={form.errors.page_label ? t(form.errors.page_label) : null}
      />
      {sheet && (
        <fieldset className="border rounded p-3 mb-3">
          <legend className="float-none w-auto px-2 fs-6 mb-0">{t('Plan')}</legend>
          <SheetPlanUpload sheet={sheet} onDone={() => navigate(`/sheet/${sheet.id}`)} />
        </fieldset>
      )}
    </EditFormShell>
  );
}
