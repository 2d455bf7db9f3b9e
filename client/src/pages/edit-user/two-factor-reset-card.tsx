import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { User } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { useConfirmedAction } from '../../components/edit-form/use-confirmed-action';
import { userDisplayName } from './user-form';
import { twoFactorKey, useTwoFactorQuery } from '../../components/two-factor/use-two-factor-query';

/**
 * A super admin resets another user's second factor (lost phone and
 * recovery codes): after a confirmation, the person sets a new second
 * factor up at the next sign-in (the site requires it). Shown only while it is on.
 */
export function TwoFactorResetCard({ user }: { user: User }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // A status that cannot be read hides the card, as when it is off.
  const status = useTwoFactorQuery(user.id).data ?? null;
  const load = () => queryClient.invalidateQueries({ queryKey: twoFactorKey(user.id) });

  const reset = useConfirmedAction(
    async () => {
      await api.delete(`/users/${user.id}/two-factor`, tk('Could not reset the two-factor sign-in.'));
      formToast('success', t('Two-factor sign-in of {name} is reset.', { name: userDisplayName(user) }));
      await load();
    },
    () => ({
      title: t('Reset two-factor sign-in?'),
      body: t('{name} will set up a new authenticator app at their next sign-in, or sign in with the password alone when the site does not require two-step verification.', { name: userDisplayName(user) }),
      confirmLabel: t('Reset'),
    }),
  );

  if (!status?.enabled) return null;
  return (
    <section className="card border-0 shadow-sm" aria-labelledby="two-factor-reset-heading" data-testid="two-factor-reset-card">
      <div className="card-header bg-transparent">
        <h2 id="two-factor-reset-heading" className="h6 mb-0">
          {t('Two-factor sign-in')}
        </h2>
      </div>
      <div className="card-body">
        <p className="text-body-secondary small">{t('{name} signs in with a code from an authenticator app. If they lost their phone and their recovery codes, reset it: at their next sign-in they set up a new one, or sign in with the password alone when the site does not require it.', { name: userDisplayName(user) })}</p>
        <button type="button" className="btn btn-outline-danger" onClick={() => reset.ask(true)} disabled={reset.busy}>
          {t('Reset two-factor sign-in')}
        </button>
      </div>
      {reset.dialog}
    </section>
  );
}
