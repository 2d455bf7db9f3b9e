import { useState } from 'react';
import { ProgressBar } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { MESSAGES, POI_FILE, type Poi, type PoiUpdateRequest } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { TextField } from '../../components/text-field';
import { TextAreaField } from '../../components/edit-form/fields';
import { FileButton } from '../../components/file-button';

const FILE_MAX_MB = Math.round(POI_FILE.maxBytes / (1024 * 1024));

interface Props {
  roomId: number;
  /** The point being edited; null for a new one at `position`. */
  poi: Poi | null;
  /** Where a new point goes, or where an edited one moves to. */
  position: { yaw: number; pitch: number } | null;
  onSaved(poi: Poi): void;
  onCancel(): void;
}

/** Title, text, link and an image or PDF of a point of interest. */
export function PoiForm({ roomId, poi, position, onSaved, onCancel }: Props) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(poi?.title ?? '');
  const [text, setText] = useState(poi?.text ?? '');
  const [link, setLink] = useState(poi?.link ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ title?: string | null; link?: string | null; file?: string | null }>({});
  const [busy, setBusy] = useState(false);
  const [percent, setPercent] = useState<number | null>(null);

  const submit = async () => {
    const found = {
      title: title.trim() ? null : tk('Title is required'),
      link: link.trim() === '' || /^https?:\/\/\S+$/i.test(link.trim()) ? null : tk('The link must start with http:// or https://.'),
    };
    setErrors((e) => ({ ...e, ...found }));
    if (found.title || found.link || errors.file) return;
    if (!poi && !position) return;
    setBusy(true);
    try {
      let saved: Poi;
      if (poi) {
        const changes: PoiUpdateRequest = {};
        if (title.trim() !== poi.title) changes.title = title.trim();
        if (text.trim() !== poi.text) changes.text = text.trim();
        if (link.trim() !== poi.link) changes.link = link.trim();
        if (position) Object.assign(changes, position);
        saved = Object.keys(changes).length ? await api.put<Poi>(`/pois/${poi.id}`, changes, tk('Failed to save the point of interest.')) : poi;
      } else {
        saved = await api.post<Poi>('/pois', { id_room: roomId, title: title.trim(), text: text.trim(), link: link.trim(), ...position! }, tk('Failed to save the point of interest.'));
      }
      if (file) {
        const form = new FormData();
        form.append('file', file);
        setPercent(0);
        saved = await api.upload<Poi>(`/pois/${saved.id}/file`, form, MESSAGES.uploadFileFailed, { onProgress: setPercent });
      }
      showToast('success', t('Point of interest saved.'));
      onSaved(saved);
    } catch (err) {
      showToast('error', t((err as Error).message));
    } finally {
      setBusy(false);
      setPercent(null);
    }
  };

  const chooseFile = (f: File) => {
    const okType = (POI_FILE.types as readonly string[]).includes(f.type) || /\.(jpe?g|png|webp|pdf)$/i.test(f.name);
    if (!okType) return setErrors((e) => ({ ...e, file: tk('Choose an image (JPEG, PNG, WebP) or a PDF.') }));
    if (f.size > POI_FILE.maxBytes) return setErrors((e) => ({ ...e, file: t('The file is larger than {mb} MB.', { mb: FILE_MAX_MB }) }));
    setErrors((e) => ({ ...e, file: null }));
    setFile(f);
  };

  return (
    <form
      className="card border-primary"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
      aria-label={poi ? t('Edit point of interest') : t('New point of interest')}
      data-testid="poi-form"
    >
      <div className="card-body">
        <h3 className="h6">{poi ? t('Edit point of interest') : t('New point of interest')}</h3>
        <TextField
          label={t('Title')}
          required
          maxLength={200}
          autoFocus
          value={title}
          onChange={(v) => {
            setTitle(v);
            setErrors((e) => ({ ...e, title: null }));
          }}
          error={errors.title ? t(errors.title) : null}
        />
        <TextAreaField label={t('Text')} rows={3} maxLength={10000} value={text} onChange={setText} />
        <TextField
          label={t('Link')}
          type="url"
          placeholder="https://"
          maxLength={2000}
          value={link}
          onChange={(v) => {
            setLink(v);
            setErrors((e) => ({ ...e, link: null }));
          }}
          error={errors.link ? t(errors.link) : null}
        />
        <div className="mb-3">
          <div className="d-flex flex-wrap align-items-center gap-2">
            <FileButton className="btn btn-outline-secondary btn-sm" accept="image/jpeg,image/png,image/webp,application/pdf" inputLabel={t('Image or document')} onFile={chooseFile}>
              <i className="bi bi-paperclip me-1" aria-hidden="true" />
              {poi?.file || file ? t('Replace the file') : t('Attach an image or PDF')}
            </FileButton>
            <span className="small text-truncate">{file?.name ?? poi?.file?.name ?? ''}</span>
          </div>
          {errors.file && <div className="invalid-feedback d-block">{t(errors.file)}</div>}
          {percent !== null && <ProgressBar className="mt-2" now={percent} label={`${percent}%`} aria-label={t('Uploading {name}', { name: file?.name ?? '' })} animated />}
        </div>
        <div className="d-flex gap-2">
          <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
            {busy && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
            {t('Save')}
          </button>
          <button type="button" className="btn btn-outline-secondary btn-sm" onClick={onCancel} disabled={busy}>
            {t('Cancel')}
          </button>
        </div>
        {poi && position && <p className="form-text mb-0 mt-2">{t('It moves to the place you clicked.')}</p>}
      </div>
    </form>
  );
}
