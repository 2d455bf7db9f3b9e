import { useRef, useState } from 'react';
import { ProgressBar } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { MESSAGES, USER_IMAGE_MIMES, type User, type UserImageKind } from '@sitewalk/proto';
import { useProfileStore } from '../../stores/profile.store';
import { formToast } from '../../lib/toast';
import { UserAvatar } from '../../components/user-avatar';
import { tk } from '../../lib/i18n-keys';

const LABELS: Record<UserImageKind, { title: string; upload: string; remove: string; updated: string; removed: string; failed: string }> = {
  avatar: {
    title: tk('Avatar'),
    upload: tk('Upload avatar'),
    remove: tk('Delete avatar'),
    updated: tk('Avatar updated.'),
    removed: tk('Avatar removed.'),
    failed: MESSAGES.uploadAvatarFailed,
  },
  cover_image: {
    title: tk('Cover image'),
    upload: tk('Upload cover image'),
    remove: tk('Delete cover image'),
    updated: tk('Cover image updated.'),
    removed: tk('Cover image removed.'),
    failed: MESSAGES.uploadCoverFailed,
  },
};

function PictureControl({ kind, user }: { kind: UserImageKind; user: User }) {
  const { t } = useTranslation();
  const upload = useProfileStore((s) => s.uploadImage);
  const remove = useProfileStore((s) => s.deleteImage);
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const l = LABELS[kind];
  const current = kind === 'avatar' ? user.avatar : user.cover_image;

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setProgress(0);
    try {
      await upload(kind, file, setProgress);
      formToast('success', t(l.updated));
    } catch (err) {
      formToast('error', t((err as Error).message || l.failed));
    } finally {
      setBusy(false);
      setProgress(null);
      if (input.current) input.current.value = '';
    }
  };

  const onDelete = async () => {
    setBusy(true);
    try {
      await remove(kind);
      formToast('success', t(l.removed));
    } catch (err) {
      formToast('error', t((err as Error).message || MESSAGES.updateFailed));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mb-4">
      <h3 className="h6">{t(l.title)}</h3>
      <div className="d-flex align-items-center gap-3 mb-2">
        {kind === 'avatar' ? (
          <UserAvatar user={user} size={64} />
        ) : (
          <div className="sw-cover sw-cover-small rounded" style={current ? { backgroundImage: `url("${current}")` } : undefined} aria-hidden="true" />
        )}
        <div className="d-flex flex-wrap gap-2">
          <label className={`btn btn-outline-primary btn-sm mb-0${busy ? ' disabled' : ''}`}>
            <i className="bi bi-upload me-1" aria-hidden="true" />
            {t(l.upload)}
            <input
              ref={input}
              type="file"
              className="visually-hidden"
              accept={USER_IMAGE_MIMES.join(',')}
              disabled={busy}
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
          </label>
          {current && (
            <button type="button" className="btn btn-outline-danger btn-sm" onClick={() => void onDelete()} disabled={busy}>
              <i className="bi bi-trash me-1" aria-hidden="true" />
              {t(l.remove)}
            </button>
          )}
        </div>
      </div>
      {progress !== null && <ProgressBar now={progress} label={`${progress}%`} aria-label={t(l.upload)} animated />}
    </div>
  );
}

/** Avatar and cover upload (with a progress bar) and delete. */
export function PicturesSection({ user }: { user: User }) {
  const { t } = useTranslation();
  return (
    <section className="card border-0 shadow-sm" aria-labelledby="pictures-heading">
      <div className="card-header bg-transparent">
        <h2 id="pictures-heading" className="h6 mb-0">
          {t('Pictures')}
        </h2>
      </div>
      <div className="card-body pb-0">
        <PictureControl kind="avatar" user={user} />
        <PictureControl kind="cover_image" user={user} />
        <p className="small text-body-secondary">{t('JPEG, PNG or WebP, up to 15 MB.')}</p>
      </div>
    </section>
  );
}
