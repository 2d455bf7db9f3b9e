import { useEffect, useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formMessages, type VisitDetail, type VisitUpdateRequest, visitUpdateSchema } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { viewerPath } from '../../lib/share-links';
import { useGuardedEntity } from '../../routes/entity-guard';
import { TextField } from '../../components/text-field';
import { SelectField, TextAreaField } from '../../components/edit-form/fields';
import { EditFormShell } from '../../components/edit-form/edit-form-shell';
import { useEditForm } from '../../components/edit-form/use-edit-form';
import { requestRules } from '../../components/edit-form/edit-form-model';
import NotFoundPage from '../not-found/not-found-page';
import { RoomManager } from './room-manager';
import { VisitVideoCard } from '../visit-video/visit-video-card';
import { useProjectQuery } from '../../components/use-project-query';
import '../projects/projects.css';
import '../visits/visits.css';

const M = formMessages('Visit');

interface VisitFormValues {
  name: string;
  date: string;
  id_map: string;
  description: string;
}

const today = () => new Date().toISOString().slice(0, 10);

const visitValues = (v: VisitDetail | null): VisitFormValues => ({
  name: v?.name ?? '',
  date: v?.date ?? today(),
  id_map: v?.id_map ? String(v.id_map) : '',
  description: v?.description ?? '',
});

function visitRequest(v: Partial<VisitFormValues>): VisitUpdateRequest {
  const out: VisitUpdateRequest = {};
  if (v.name !== undefined) out.name = v.name.trim();
  if (v.date !== undefined) out.date = v.date;
  if (v.id_map !== undefined) out.id_map = v.id_map ? Number(v.id_map) : null;
  if (v.description !== undefined) out.description = v.description.trim();
  return out;
}

/** The rules: proto's visitUpdateSchema on every field (creating adds only the project's id). */
const visitFormRules = requestRules<VisitFormValues>(visitRequest, visitUpdateSchema);

/**
 * /editvisit/{id}: a visit's name, date, sheet and description through the
 * generic edit form (/editvisit/new?project={id} creates one), then its
 * rooms: upload 360 photos, watch them being tiled, order, rename, delete.
 */
export default function EditVisitPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const visit = useGuardedEntity<VisitDetail>();
  const [params] = useSearchParams();
  const projectParam = params.get('project');
  const projectId = visit?.id_project ?? (projectParam && /^[1-9]\d{0,9}$/.test(projectParam) ? Number(projectParam) : null);
  const initial = useMemo(() => visitValues(visit), [visit]);
  const project = useProjectQuery(projectId);
  // Without the project (a failed read) the sheet choice is empty; the form still works.
  useEffect(() => void (project.error && console.warn(project.error)), [project.error]);
  const sheets = useMemo(() => (project.data?.maps ?? []).filter((m) => m.status === 'ready'), [project.data]);
  const projectName = project.data?.name ?? visit?.project_name ?? '';

  const form = useEditForm<VisitFormValues, VisitDetail>({
    entity: 'Visit',
    id: visit?.id ?? null,
    initial,
    rules: visitFormRules,
    endpoints: {
      create: (v) => api.post<VisitDetail>('/visits', { id_project: projectId, ...visitRequest(v) }, M.createFailed),
      update: (id, changes) => api.put<VisitDetail>(`/visits/${id}`, visitRequest(changes), M.updateFailed),
      remove: (id) => api.delete(`/visits/${id}`, M.deleteFailed),
      idOf: (v) => v.id,
      valuesOf: visitValues,
    },
    onCreated: (v) => navigate(`/editvisit/${v.id}`, { replace: true }),
  });

  if (form.id === null && projectId === null) return <NotFoundPage />;

  return (
    <div className="d-flex flex-column gap-3" data-testid="edit-visit-page">
      <EditFormShell
        entity="Visit"
        heading={form.id === null ? t('New visit') : t('Edit visit')}
        id={form.id}
        hasChanges={form.hasChanges}
        busy={form.busy}
        onSave={form.save}
        onDelete={form.remove}
        recordName={form.values.name || visit?.name || ''}
        actions={
          <>
            {form.id !== null && visit && (
              <a href={viewerPath(visit.code)} target="_blank" rel="noopener" className="btn btn-outline-secondary">
                <i className="bi bi-play-circle me-1" aria-hidden="true" />
                {t('Open in the viewer')}
              </a>
            )}
            {projectId !== null && (
              <Link to={`/visits/${projectId}`} className="btn btn-outline-secondary">
                <i className="bi bi-badge-vr me-1" aria-hidden="true" />
                {t('Back to the visits')}
              </Link>
            )}
          </>
        }
      >
        {projectName && (
          <p className="small text-body-secondary">
            {t('Project')}: <span className="fw-semibold">{projectName}</span>
          </p>
        )}
        <div className="row">
          <TextField
            className="col-md-8 mb-3"
            label={t('Visit name')}
            required
            maxLength={200}
            autoFocus={form.id === null}
            value={form.values.name}
            onChange={(v) => form.setValue('name', v)}
            error={form.errors.name ? t(form.errors.name) : null}
          />
          <TextField
            className="col-md-4 mb-3"
            type="date"
            label={t('Date of the visit')}
            required
            value={form.values.date}
            onChange={(v) => form.setValue('date', v)}
            error={form.errors.date ? t(form.errors.date) : null}
          />
        </div>
        <SelectField
          label={t('Sheet walked')}
          hint={t('The floor sheet the rooms of this visit are placed on.')}
          value={form.values.id_map}
          onChange={(v) => form.setValue('id_map', v)}
          error={form.errors.id_map ? t(form.errors.id_map) : null}
        >
          <option value="">{t('No sheet')}</option>
          {sheets.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
          {visit?.id_map && !sheets.some((s) => s.id === visit.id_map) && <option value={visit.id_map}>{visit.map_name ?? `#${visit.id_map}`}</option>}
        </SelectField>
        <TextAreaField
          label={t('Description')}
          rows={3}
          maxLength={5000}
          value={form.values.description}
          onChange={(v) => form.setValue('description', v)}
          error={form.errors.description ? t(form.errors.description) : null}
        />
      </EditFormShell>
      {form.id !== null && visit && <VisitVideoCard visit={visit} />}
      {form.id !== null && visit && <RoomManager visit={visit} />}
    </div>
  );
}
