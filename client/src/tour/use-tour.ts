import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useUiStore } from '../stores/ui.store';
import { local } from '../lib/browser-storage';
import { ONBOARDING_KEY } from '../lib/user-cache';

export const onboardingCompleted = () => local.getItem(ONBOARDING_KEY) === 'true';

/** Starts the onboarding tour; its code loads on first use. */
export function useStartTour(): () => Promise<void> {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return useCallback(async () => {
    const ui = useUiStore.getState();
    if (ui.tourActive) return;
    ui.setTourActive(true);
    try {
      const { runOnboardingTour } = await import('./onboarding-tour');
      runOnboardingTour({
        t: (k) => t(k),
        pathname: () => window.location.pathname,
        navigate: (to) => navigate(to),
        onEnd: () => {
          local.setItem(ONBOARDING_KEY, 'true');
          useUiStore.getState().setTourActive(false);
        },
      });
    } catch (err) {
      console.error(err);
      useUiStore.getState().setTourActive(false);
    }
  }, [navigate, t]);
}
