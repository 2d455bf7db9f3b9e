import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { SOCIAL_ERROR_PARAM, SOCIAL_LINKED_PARAM, SOCIAL_PROVIDERS, SOCIAL_PROVIDER_NAMES, type SocialProvider } from '@sitewalk/proto';
import { api } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { tk } from '../../lib/i18n-keys';
import { useConfirmedAction } from '../../components/edit-form/use-confirmed-action';
import { SOCIAL_ICONS, goToSocialSignIn, socialRefusalText } from '../auth/social-buttons';
import { useFailureToast } from '../../lib/use-failure-toast';
import { LINKED_ACCOUNTS, useLinkedAccountsQuery } from './use-account-queries';

/**
 * The profile's "Linked accounts" card: the sign-in services turned on, each
 * linked (with its address and date; Unlink after a confirmation) or not
 * (Link, through the service's own sign-in page). Shown only when at least
 * one service is on or linked. Says how a link that just came back went.
 */
export function LinkedAccountsSection() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const query = useLinkedAccountsQuery();
  const data = query.data ?? null;
  useFailureToast(query.error);
  const [busy, setBusy] = useState<SocialProvider | null>(null);
  const [params, setParams] = useSearchParams();

  const load = () => queryClient.invalidateQueries({ queryKey: LINKED_ACCOUNTS });

  // Back from the service: say how it went, once, and clean the address.
  useEffect(() => {
    const linked = params.get(SOCIAL_LINKED_PARAM);
    const refused = socialRefusalText(params.get(SOCIAL_ERROR_PARAM));
    if (!linked && !refused) return;
    if (linked && (SOCIAL_PROVIDERS as readonly string[]).includes(linked)) {
      showToast('success', t('{service} is linked to your account.', { service: SOCIAL_PROVIDER_NAMES[linked as SocialProvider] }));
    }
    if (refused) showToast('error', t(refused));
    const next = new URLSearchParams(params);
    next.delete(SOCIAL_LINKED_PARAM);
    next.delete(SOCIAL_ERROR_PARAM);
    setParams(next, { replace: true });
  }, [params, setParams, t]);

  const link = async (provider: SocialProvider) => {
    setBusy(provider);
    try {
      await goToSocialSignIn(provider, 'link');
    } catch (err) {
      showToast('error', (err as Error).message);
      setBusy(null);
    }
  };

  const unlink = useConfirmedAction<SocialProvider>(
    async (provider) => {
      await api.delete(`/account/social/${provider}`, tk('Could not unlink the account.'));
      showToast('success', t('{service} is unlinked from your account.', { service: SOCIAL_PROVIDER_NAMES[provider] }));
      await load();
    },
    (provider) => ({
      title: t('Unlink {service}', { service: SOCIAL_PROVIDER_NAMES[provider] }),
      body: t('You will no longer be able to sign in with {service}. You can link it again later.', { service: SOCIAL_PROVIDER_NAMES[provider] }),
      confirmLabel: t('Unlink'),
    }),
  );
  const working = busy !== null || unlink.busy;

  if (!data) return null;
  const shown = SOCIAL_PROVIDERS.filter((p) => data.enabled.includes(p) || data.accounts.some((a) => a.provider === p));
  if (!shown.length) return null;
  // The server refuses it too; said here in the reader's language without a round trip.
  const lastWayIn = !data.password_set && data.accounts.length === 1;
  return (
    <section className="card border-0 shadow-sm" aria-labelledby="profile-linked-heading" data-testid="linked-accounts">
      <div className="card-header bg-transparent">
        <h3 id="profile-linked-heading" className="h6 mb-0">
          {t('Linked accounts')}
        </h3>
      </div>
      <div className="card-body">
        <p className="small text-body-secondary">{t('Sign in with these services instead of your password.')}</p>
        <ul className="list-group list-group-flush">
          {shown.map((p) => {
            const account = data.accounts.find((a) => a.provider === p);
            const name = SOCIAL_PROVIDER_NAMES[p];
            return (
              <li key={p} className="list-group-item px-0 d-flex flex-wrap align-items-center gap-2" data-provider={p}>
                <i className={`bi ${SOCIAL_ICONS[p]} fs-5`} aria-hidden="true" />
                <div className="me-auto text-break">
                  <div>{name}</div>
                  <div className="small text-body-secondary">
                    {account ? (
                      <>
                        {account.email && <span dir="ltr">{account.email} · </span>}
                        {t('Linked {when}', { when: formatDateTime(account.linked_at, i18n.language) })}
                      </>
                    ) : (
                      t('Not linked')
                    )}
                  </div>
                </div>
                {account ? (
                  <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => (lastWayIn ? showToast('error', t('{service} is the only way into your account. Set a password first (with "Forgot your password?" on the sign-in page), then unlink {service}.', { service: name })) : unlink.ask(p))} disabled={working} aria-label={t('Unlink {service}', { service: name })}>
                    {t('Unlink')}
                  </button>
                ) : (
                  data.enabled.includes(p) && (
                    <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => void link(p)} disabled={working} aria-label={t('Link {service}', { service: name })}>
                      {t('Link')}
                    </button>
                  )
                )}
              </li>
            );
          })}
        </ul>
        {!data.password_set && <p className="small text-body-secondary mt-2 mb-0">{t('Your account has no password: keep at least one service linked, or set a password with "Forgot your password?" on the sign-in page.')}</p>}
      </div>
      {unlink.dialog}
    </section>
  );
}
