import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ANNOTATION_FILE, type AnnotationFile } from '@sitewalk/proto';
import { api, errorMessage } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { ConfirmDialog } from '../edit-form/confirm-dialog';

const UPLOAD_FAILED = tk('The file could not be uploaded.');
const DELETE_FAILED = tk('The file could not be deleted.');
const ACCEPT = ANNOTATION_FILE.types.join(',');

interface Props {
  files: AnnotationFile[];
  onFiles(update: (files: AnnotationFile[]) => AnnotationFile[]): void;
  /** The visit files are uploaded to; the snag they are attached to at once (none yet for a new snag). */
  visitId: number | null;
  snagId: number | null;
  canEdit: boolean;
}

/**
 * A snag's photos and PDFs: shown (pictures as thumbnails), uploaded with a
 * progress bar (the size limit checked before sending), and deleted after a
 * confirmation.
 */
export function SnagFiles({ files, onFiles, visitId, snagId, canEdit }: Props) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState<AnnotationFile | null>(null);

  const upload = async (file: File) => {
    if (visitId === null) return;
    if (file.size > ANNOTATION_FILE.maxBytes) {
      showToast('error', t('The file is too large. The limit is {mb} MB.', { mb: Math.round(ANNOTATION_FILE.maxBytes / 1024 / 1024) }));
      return;
    }
    const data = new FormData();
    data.append('id_visit', String(visitId));
    if (snagId !== null) data.append('id_annotation', String(snagId));
    data.append('file', file);
    setProgress(0);
    try {
      const f = await api.upload<AnnotationFile>('/annotations/file', data, UPLOAD_FAILED, { onProgress: setProgress });
      onFiles((list) => [...list, f]);
      showToast('success', t('File uploaded.'));
    } catch (err) {
      showToast('error', t(errorMessage(err, UPLOAD_FAILED)));
    } finally {
      setProgress(null);
    }
  };

  const remove = async (f: AnnotationFile) => {
    setBusy(true);
    try {
      await api.delete(`/annotations/file/delete`, DELETE_FAILED, { params: { filename: f.filename, id_visit: f.id_visit } });
      onFiles((list) => list.filter((x) => x.filename !== f.filename));
      showToast('success', t('File deleted.'));
    } catch (err) {
      showToast('error', t(errorMessage(err, DELETE_FAILED)));
    } finally {
      setBusy(false);
      setConfirm(null);
    }
  };

  return (
    <div className="mb-2">
      <div className="small fw-semibold mb-1">{t('Files')}</div>
      {files.length === 0 && <div className="small text-body-secondary">{t('No files yet.')}</div>}
      <ul className="list-unstyled mb-1 sw-snag-files">
        {files.map((f) => (
          <li key={f.filename} className="d-flex align-items-center gap-2 mb-1" data-testid="snag-file">
            {f.kind === 'image' ? <img src={f.url} alt="" className="sw-snag-thumb rounded" /> : <i className="bi bi-file-earmark-pdf fs-5" aria-hidden="true" />}
            <a href={f.url} target="_blank" rel="noopener noreferrer" className="text-truncate me-auto small">
              {f.name}
            </a>
            {canEdit && (
              <button type="button" className="btn btn-sm btn-link text-danger p-0" onClick={() => setConfirm(f)} disabled={busy} aria-label={t('Delete {name}', { name: f.name })}>
                <i className="bi bi-trash" aria-hidden="true" />
              </button>
            )}
          </li>
        ))}
      </ul>
      {canEdit && (
        <label className="btn btn-sm btn-outline-secondary mb-0">
          <i className="bi bi-paperclip me-1" aria-hidden="true" />
          {t('Add a photo or PDF')}
          <input
            type="file"
            accept={ACCEPT}
            className="visually-hidden"
            data-testid="snag-file-input"
            disabled={progress !== null}
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f) void upload(f);
            }}
          />
        </label>
      )}
      {progress !== null && (
        <div className="progress mt-1" role="progressbar" aria-label={t('Uploading')} aria-valuenow={progress} aria-valuemin={0} aria-valuemax={100}>
          <div className="progress-bar" style={{ width: `${progress}%` }}>
            {progress}%
          </div>
        </div>
      )}
      <ConfirmDialog
        show={confirm !== null}
        title={t('Delete the file')}
        body={t('Delete {name}? This cannot be undone.', { name: confirm?.name ?? '' })}
        confirmLabel={t('Delete')}
        busy={busy}
        onCancel={() => setConfirm(null)}
        onConfirm={() => confirm && void remove(confirm)}
      />
    </div>
  );
}
