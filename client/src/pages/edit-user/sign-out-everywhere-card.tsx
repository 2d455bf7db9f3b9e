import { useTranslation } from 'react-i18next';
import type { User } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { useAuthStore } from '../../stores/auth.store';
import { useConfirmedAction } from '../../components/edit-form/use-confirmed-action';
import { userDisplayName } from './user-form';

/**
 * A super admin signs a person out on every device at once — a lost laptop,
 * someone who left, or right after the site started to require two-step
 * verification (sessions open before that run until they end otherwise).
 * After a confirmation; the person's open pages go to the sign-in at once.
 */
export function SignOutEverywhereCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const self = useAuthStore((s) => s.user?.id === user.id);
  const name = userDisplayName(user);

  const signOut = useConfirmedAction(
    async () => {
      const { revoked } = await api.post<{ revoked: number }>(`/users/${user.id}/sessions/revoke`, {}, tk('Could not sign this account out.'));
      formToast('success', revoked ? t('{name} is signed out on every device.', { name }) : t('{name} was signed in nowhere.', { name }));
    },
    () => ({
      title: t('Sign {name} out everywhere?', { name }),
      body: self
        ? t('Every other browser and app where you are signed in is signed out at once. This one stays signed in.')
        : t('Every browser and app where {name} is signed in is signed out at once. They sign in again with their password.', { name }),
      confirmLabel: t('Sign out everywhere'),
    }),
  );

  return (
    <section className="card border-0 shadow-sm" aria-labelledby="sign-out-everywhere-heading" data-testid="sign-out-everywhere-card">
      <div className="card-header bg-transparent">
        <h2 id="sign-out-everywhere-heading" className="h6 mb-0">
          {t('Signed-in devices')}
        </h2>
      </div>
      <div className="card-body">
        <p className="text-body-secondary small">{t('{name} stays signed in on each device until they sign out or the session ends. Sign them out everywhere at once when a device is lost, when they leave, or after you require two-step verification.', { name })}</p>
        <button type="button" className="btn btn-outline-danger" onClick={() => signOut.ask(true)} disabled={signOut.busy}>
          {t('Sign out everywhere')}
        </button>
      </div>
      {signOut.dialog}
    </section>
  );
}
