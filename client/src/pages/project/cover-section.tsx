import { useState } from 'react';
import { ProgressBar } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { MESSAGES, UPLOAD_LIMITS, USER_IMAGE_MIMES, type ProjectDetail } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { FileButton } from '../../components/file-button';

const MAX_MB = Math.round(UPLOAD_LIMITS.imageBytes / (1024 * 1024));

/** The project's cover: shown large, uploaded with a progress bar, deleted after a confirmation. */
export function CoverSection({ project, onChange }: { project: ProjectDetail; onChange(p: ProjectDetail): void }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const upload = async (file: File) => {
    if (file.size > UPLOAD_LIMITS.imageBytes) {
      formToast('error', t('The picture is larger than {mb} MB.', { mb: MAX_MB }));
      return;
    }
    const form = new FormData();
    form.append('file', file);
    setBusy(true);
    setProgress(0);
    try {
      onChange(await api.upload<ProjectDetail>(`/projects/${project.id}/cover`, form, MESSAGES.uploadCoverFailed, { onProgress: setProgress }));
      formToast('success', t('Cover uploaded.'));
    } catch (err) {
      formToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  const remove = async () => {
    setBusy(true);
    try {
      onChange(await api.delete<ProjectDetail>(`/projects/${project.id}/cover/delete`, tk('Failed to delete the cover.')));
      formToast('success', t('Cover removed.'));
    } catch (err) {
      formToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <div className="mb-3">
      <div className="sw-project-hero shadow-sm">
        {project.cover_url && <img src={project.cover_url} alt={t('Cover of {name}', { name: project.name })} />}
        {project.can_manage && (
          <div className="sw-project-hero-actions">
            <FileButton
              className="btn btn-light btn-sm shadow-sm"
              accept={USER_IMAGE_MIMES.join(',')}
              disabled={busy}
              inputLabel={t('Cover picture file')}
              onFile={(f) => void upload(f)}
            >
              <i className="bi bi-image me-1" aria-hidden="true" />
              {project.cover_url ? t('Change cover') : t('Upload cover')}
            </FileButton>
            {project.cover_url && (
              <button type="button" className="btn btn-light btn-sm shadow-sm text-danger" onClick={() => setConfirming(true)} disabled={busy}>
                <i className="bi bi-trash me-1" aria-hidden="true" />
                {t('Delete cover')}
              </button>
            )}
          </div>
        )}
      </div>
      {progress !== null && <ProgressBar className="mt-2" now={progress} label={`${progress}%`} aria-label={t('Uploading the cover')} animated />}
      {project.can_manage && <div className="form-text">{t('JPEG, PNG or WebP, up to {mb} MB.', { mb: MAX_MB })}</div>}
      <ConfirmDialog
        show={confirming}
        title={t('Delete cover')}
        body={t('Remove the cover picture of this project?')}
        confirmLabel={t('Delete')}
        busy={busy}
        onCancel={() => setConfirming(false)}
        onConfirm={() => void remove()}
      />
    </div>
  );
}
