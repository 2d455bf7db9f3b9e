import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AccountSession } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';
import { useSessionsQuery } from './use-profile-queries';

type Pending = { kind: 'one'; session: AccountSession } | { kind: 'others' } | null;

/**
 * The profile's "Signed-in devices" card: every session of the account
 * (device, address, last use, this one marked), signing one out or all the
 * others, each after a confirmation.
 */
export function SessionsCard() {
  const { t, i18n } = useTranslation();
  const query = useSessionsQuery();
  const sessions = query.data ?? null;
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<Pending>(null);

  const confirm = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      if (pending.kind === 'one') {
        await api.delete(`/sessions/${pending.session.id}`, tk('Could not sign that device out.'));
        showToast('success', t('Signed out on that device.'));
      } else {
        await api.post('/sessions/revoke-others', {}, tk('Could not sign the other devices out.'));
        showToast('success', t('Signed out everywhere else.'));
      }
      setPending(null);
      await query.refetch();
    } catch (err) {
      showToast('error', (err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const others = (sessions ?? []).filter((s) => !s.current);
  return (
    <section className="card border-0 shadow-sm" aria-labelledby="profile-sessions-heading" data-testid="sessions-card">
      <div className="card-header bg-transparent d-flex flex-wrap align-items-center gap-2">
        <h3 id="profile-sessions-heading" className="h6 mb-0 me-auto">
          {t('Signed-in devices')}
        </h3>
        {others.length > 0 && (
          <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => setPending({ kind: 'others' })} disabled={busy}>
            {t('Sign out everywhere else')}
          </button>
        )}
      </div>
      <div className="card-body">
        {sessions === null ? (
          <div className="spinner-border spinner-border-sm" role="status" aria-label={t('Loading')} />
        ) : (
          <ul className="list-group list-group-flush" data-testid="sessions">
            {sessions.map((s) => (
              <li key={s.id} className="list-group-item px-0 d-flex flex-wrap align-items-center gap-2">
                <div className="me-auto text-break">
                  <div>
                    {s.device}
                    {s.current && <span className="badge text-bg-success ms-2">{t('This device')}</span>}
                  </div>
                  <div className="small text-body-secondary">
                    {s.ip ? <span dir="ltr">{s.ip}</span> : t('Unknown address')} · {t('Last used {when}', { when: formatDateTime(s.last_used_at, i18n.language) })}
                  </div>
                </div>
                {!s.current && (
                  <button type="button" className="btn btn-sm btn-outline-secondary" onClick={() => setPending({ kind: 'one', session: s })} disabled={busy} aria-label={t('Sign out on {device}', { device: s.device })}>
                    {t('Sign out')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {sessions !== null && others.length === 0 && <p className="small text-body-secondary mt-2 mb-0">{t('You are signed in on this device only.')}</p>}
      </div>
      <ConfirmDialog
        show={pending !== null}
        title={pending?.kind === 'others' ? t('Sign out everywhere else') : t('Sign out on that device')}
        body={pending?.kind === 'others' ? t('Sign out on every other device? They will need the password to come back.') : t('Sign out on {device}?', { device: pending?.kind === 'one' ? pending.session.device : '' })}
        confirmLabel={t('Sign out')}
        busy={busy}
        onCancel={() => setPending(null)}
        onConfirm={() => void confirm()}
      />
    </section>
  );
}
