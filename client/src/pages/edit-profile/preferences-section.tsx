import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type NotificationGlobalSettings, type NotificationPreference, type NotificationPreferences } from '@sitewalk/proto';
import { useProfileStore } from '../../stores/profile.store';
import { formToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';

/** What each kind of notification is about (translation keys). */
const KIND_LABELS: Record<string, string> = {
  account: tk('Account'),
  project_created: tk('New projects'),
  sheets_ready: tk('Sheets ready'),
  visit_created: tk('New visits'),
  video_processed: tk('Video processed'),
  plan: tk('Subscription plan'),
  team: tk('Team'),
  registration: tk('New registrations'),
  system: tk('System messages'),
  snag_assigned: tk('Snags assigned to me'),
  snag_updated: tk('Changes to my snags'),
  snag_overdue: tk('Overdue snag reminders'),
};

const GLOBAL_LABELS: Record<keyof NotificationGlobalSettings, string> = {
  in_app: tk('In the app'),
  email: tk('By e-mail'),
  browser: tk('Browser notifications'),
};

function Switch({ id, label, checked, disabled, onChange, hideLabel }: { id: string; label: string; checked: boolean; disabled?: boolean; onChange: (v: boolean) => void; hideLabel?: boolean }) {
  return (
    <div className="form-check form-switch mb-0">
      <input id={id} className="form-check-input" type="checkbox" role="switch" checked={checked} disabled={disabled} onChange={(e) => onChange(e.target.checked)} aria-label={hideLabel ? label : undefined} />
      {!hideLabel && (
        <label className="form-check-label" htmlFor={id}>
          {label}
        </label>
      )}
    </div>
  );
}

/** Notification preferences: global switches and one row per kind; each change is saved at once. */
export function PreferencesSection({ prefs }: { prefs: NotificationPreferences }) {
  const { t } = useTranslation();
  const save = useProfileStore((s) => s.savePreference);
  const [busy, setBusy] = useState(false);

  const run = async (body: Parameters<typeof save>[0]) => {
    setBusy(true);
    try {
      await save(body);
      formToast('success', t(MESSAGES.preferencesUpdated));
    } catch (err) {
      console.error(err);
      formToast('error', t(MESSAGES.preferencesUpdateFailed));
    } finally {
      setBusy(false);
    }
  };

  const setPref = (p: NotificationPreference, field: 'in_app' | 'email', value: boolean) => void run({ ...p, [field]: value });
  const g = prefs.global_settings;

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="prefs-heading">
      <div className="card-header bg-transparent">
        <h2 id="prefs-heading" className="h6 mb-0">
          {t('Notification preferences')}
        </h2>
      </div>
      <div className="card-body">
        <fieldset className="mb-3">
          <legend className="fs-6 fw-semibold">{t('Notify me')}</legend>
          {(Object.keys(GLOBAL_LABELS) as (keyof NotificationGlobalSettings)[]).map((k) => (
            <Switch key={k} id={`pref-global-${k}`} label={t(GLOBAL_LABELS[k])} checked={!!g[k]} disabled={busy} onChange={(v) => void run({ global_settings: { [k]: v } })} />
          ))}
        </fieldset>
        <table className="table table-sm align-middle mb-0">
          <thead>
            <tr>
              <th scope="col">{t('About')}</th>
              <th scope="col" className="text-center">
                {t('In the app')}
              </th>
              <th scope="col" className="text-center">
                {t('By e-mail')}
              </th>
            </tr>
          </thead>
          <tbody>
            {prefs.preferences.map((p) => {
              const label = t(KIND_LABELS[p.kind] ?? p.kind);
              return (
                <tr key={p.id}>
                  <th scope="row" className="fw-normal">
                    {label}
                  </th>
                  <td className="text-center">
                    <div className="d-inline-block">
                      <Switch id={`pref-${p.id}-in-app`} label={`${label}: ${t('In the app')}`} hideLabel checked={p.in_app} disabled={busy || !g.in_app} onChange={(v) => setPref(p, 'in_app', v)} />
                    </div>
                  </td>
                  <td className="text-center">
                    <div className="d-inline-block">
                      <Switch id={`pref-${p.id}-email`} label={`${label}: ${t('By e-mail')}`} hideLabel checked={p.email} disabled={busy || !g.email} onChange={(v) => setPref(p, 'email', v)} />
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
