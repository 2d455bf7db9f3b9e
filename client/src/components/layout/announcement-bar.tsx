import { useTranslation } from 'react-i18next';
import { useSettings } from '../../stores/settings.store';
import { useUiStore } from '../../stores/ui.store';

/** SPEC §2: a dismissible announcement with translated text (setting `announcement`). */
export function AnnouncementBar() {
  const { t } = useTranslation();
  const text = (useSettings() as { announcement?: string }).announcement?.trim() ?? '';
  const dismissed = useUiStore((s) => s.dismissedAnnouncement);
  const dismiss = useUiStore((s) => s.dismissAnnouncement);
  if (!text || dismissed === text) return null;
  return (
    <div className="alert alert-info alert-dismissible rounded-0 mb-0 py-2 sw-announcement" role="region" aria-label={t('Announcement')}>
      <i className="bi bi-megaphone me-2" aria-hidden="true" />
      {t(text)}
      <button type="button" className="btn-close py-2" aria-label={t('Dismiss announcement')} onClick={() => dismiss(text)} />
    </div>
  );
}
