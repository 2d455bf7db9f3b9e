import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formMessages, type MapSummary, type ProjectDetail, type VisitDetail, type VisitUpdateRequest } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { viewerPath } from '../../lib/share-links';
import { useGuardedEntity } from '../../routes/entity-guard';
import { TextField } from '../../components/text-field';
import { SelectField, TextAreaField } from '../../components/edit-form/fields';
import { EditFormShell } from '../../components/edit-form/edit-form-shell';
import { useEditForm } from '../../components/edit-form/use-edit-form';
import NotFoundPage from '../not-found/not-found-page';
import { tk } from '../../lib/i18n-keys';
import { RoomManager } from './room-manager';
import { VisitVideoCard } from '../visit-video/visit-video-card';
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
  const [sheets, setSheets] = useState<MapSummary[]>([]);
  const [projectName, setProjectName] = useState(visit?.project_name ?? '');

  useEffect(() => {
    if (projectId === null) return;
    let live = true;
    api.get<ProjectDetail>(`/projects/${projectId}`, formMessages('Project').loadFailed).then(
      (p) => {
        if (!live) return;
        setSheets(p.maps.filter((m) => m.status === 'ready'));
        setProjectName(p.name);
      },
      (err: unknown) => console.warn(err),
    );
    return () => {
      live = false;
    };
  }, [projectId]);

  const form = useEditForm<VisitFormValues, VisitDetail>({
    entity: 'Visit',
    id: visit?.id ?? null,
    initial,
    validate: (v) => ({
      name: v.name.trim().length > 200 ? tk('Visit name must be at most 200 characters.') : null,
      date: /^\d{4}-\d{2}-\d{2}$/.test(v.date) ? null : tk('Use a date like 2026-03-31.'),
    }),
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
