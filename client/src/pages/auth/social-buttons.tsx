import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import {
  SOCIAL_ERROR_PARAM,
  SOCIAL_PROVIDERS,
  SOCIAL_PROVIDER_NAMES,
  SOCIAL_REFUSALS,
  SOCIAL_TICKET_PARAM,
  type SocialExchangeStep,
  type TwoFactorChallengeResponse,
  type SocialProvider,
  type SocialRefusal,
  type SocialStartResponse,
} from '@sitewalk/proto';
import { api, fetchCsrfCookie } from '../../lib/api-client';
import { settleLanguageAfterSignIn } from '../../lib/account-language';
import { tk } from '../../lib/i18n-keys';
import { useAuthStore } from '../../stores/auth.store';
import { useSettings } from '../../stores/settings.store';
import { useUiStore } from '../../stores/ui.store';
import { Spinner } from '../../components/spinner';

/** The bootstrap-icons glyph of each service. */
export const SOCIAL_ICONS: Record<SocialProvider, string> = { google: 'bi-google', facebook: 'bi-facebook', twitter: 'bi-twitter-x' };

/** The services the administrator turned on (the anonymous settings say which). */
export function useEnabledSocialProviders(): SocialProvider[] {
  const settings = useSettings();
  return SOCIAL_PROVIDERS.filter((p) => settings[`social_${p}_enable`] === true);
}

/** The sentence of a ?social_error= code, or null for none (an unknown code reads as a failed sign-in). */
export function socialRefusalText(code: string | null): string | null {
  if (!code) return null;
  return code in SOCIAL_REFUSALS ? SOCIAL_REFUSALS[code as SocialRefusal] : SOCIAL_REFUSALS.provider_failed;
}

/**
 * Sends the browser to a service's sign-in page: SiteWalk first keeps the
 * one-time state and PKCE verifier and ties them to this browser (a cookie).
 */
export async function goToSocialSignIn(provider: SocialProvider, intent: 'sign_in' | 'link', remember = false): Promise<void> {
  await fetchCsrfCookie().catch(() => undefined);
  const { url } = await api.post<SocialStartResponse>(
    `/auth/social/${provider}/start`,
    { intent, remember_me: remember, language: useUiStore.getState().language },
    tk('Could not reach the sign-in service. Please try again.'),
    { skipAuthRefresh: intent === 'sign_in' },
  );
  window.location.assign(url);
}

/**
 * The sign-in page's "Continue with Google / Facebook / X" buttons, for the
 * services turned on, and what happens when the service sends the browser
 * back: a one-time ticket is traded for a session, or the refusal is said.
 */
export function SocialButtons({ remember, onTwoFactor }: { remember: boolean; onTwoFactor: (challenge: TwoFactorChallengeResponse, remember: boolean) => void }) {
  const { t } = useTranslation();
  const providers = useEnabledSocialProviders();
  const adoptLogin = useAuthStore((s) => s.adoptLogin);
  const [params, setParams] = useSearchParams();
  const [busy, setBusy] = useState<SocialProvider | 'ticket' | null>(null);
  const [error, setError] = useState<string | null>(() => socialRefusalText(params.get(SOCIAL_ERROR_PARAM)));
  const ticketSeen = useRef(false);

  useEffect(() => {
    const ticket = params.get(SOCIAL_TICKET_PARAM);
    if (!ticket && !params.has(SOCIAL_ERROR_PARAM)) return;
    // The ticket works once: it leaves the address (and the history) at once.
    const next = new URLSearchParams(params);
    next.delete(SOCIAL_TICKET_PARAM);
    next.delete(SOCIAL_ERROR_PARAM);
    setParams(next, { replace: true });
    if (!ticket || ticketSeen.current) return;
    ticketSeen.current = true;
    setBusy('ticket');
    void (async () => {
      try {
        await fetchCsrfCookie().catch(() => undefined);
        const data = await api.post<SocialExchangeStep>('/auth/social/exchange', { ticket }, SOCIAL_REFUSALS.ticket, { skipAuthRefresh: true });
        // A second factor is needed: the code step (or its setup, which the site requires) of the sign-in form comes next.
        if ('two_factor_required' in data) {
          setBusy(null);
          onTwoFactor(data, data.remember_me);
          return;
        }
        settleLanguageAfterSignIn(adoptLogin(data, data.remember_me));
      } catch (err) {
        setError((err as Error).message || SOCIAL_REFUSALS.ticket);
        setBusy(null);
      }
    })();
  }, [params, setParams, adoptLogin, onTwoFactor]);

  const go = async (provider: SocialProvider) => {
    setBusy(provider);
    setError(null);
    try {
      await goToSocialSignIn(provider, 'sign_in', remember);
    } catch (err) {
      setError((err as Error).message);
      setBusy(null);
    }
  };

  if (!providers.length && !error && busy !== 'ticket') return null;
  return (
    <div className="mt-3" data-testid="social-sign-in">
      {error && (
        <div className="alert alert-danger" role="alert">
          {t(error)}
        </div>
      )}
      {busy === 'ticket' && (
        <div className="d-flex align-items-center gap-2 mb-2" aria-live="polite">
          <Spinner size="sm" hideText /> {t('Signing you in…')}
        </div>
      )}
      {providers.length > 0 && (
        <>
          <div className="d-flex align-items-center gap-2 my-2 text-body-secondary small" aria-hidden="true">
            <hr className="flex-grow-1 my-0" />
            {t('or')}
            <hr className="flex-grow-1 my-0" />
          </div>
          <div className="d-grid gap-2">
            {providers.map((p) => (
              <button key={p} type="button" className="btn btn-outline-secondary" onClick={() => void go(p)} disabled={busy !== null}>
                {busy === p ? <Spinner size="sm" hideText /> : <i className={`bi ${SOCIAL_ICONS[p]} me-2`} aria-hidden="true" />}
                {t('Continue with {service}', { service: SOCIAL_PROVIDER_NAMES[p] })}
              </button>
            ))}
          </div>
        </>
      )}
    </div>
  );
}
