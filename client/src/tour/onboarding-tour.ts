import Shepherd from 'shepherd.js';
import 'shepherd.js/dist/css/shepherd.css';
import { CONSTANTS } from '@sitewalk/proto';
import { TOUR_STEPS } from '../lib/tour-steps';
import { sleep } from '../lib/retry-policy';
import { askToStopTour } from './ask-stop-tour';

/**
 * The onboarding tour with Shepherd (loaded only when a tour starts). Either
 * end, complete or cancel, marks onboarding done and closes the overlay.
 */
export function runOnboardingTour(opts: {
  t: (key: string) => string;
  pathname: () => string;
  navigate: (to: string) => void;
  onEnd: () => void;
}): () => void {
  const { t } = opts;
  const tour = new Shepherd.Tour({
    useModalOverlay: true,
    exitOnEsc: true,
    keyboardNavigation: true,
    // The app's own dialog, not the browser's confirm().
    confirmCancel: () => askToStopTour({ title: t('Stop the tour?'), body: t('Are you sure you want to stop the tour?'), confirm: t('Stop the tour'), cancel: t('Continue the tour') }),
    defaultStepOptions: {
      classes: 'sw-tour-step',
      scrollTo: { behavior: 'smooth', block: 'center' },
      cancelIcon: { enabled: true, label: t('Close the tour') },
      modalOverlayOpeningPadding: CONSTANTS.tourOverlayPadding,
      modalOverlayOpeningRadius: CONSTANTS.tourOverlayRadius,
    },
  });

  TOUR_STEPS.forEach((step, index) => {
    const last = index === TOUR_STEPS.length - 1;
    tour.addStep({
      id: step.id,
      title: t(step.title),
      text: t(step.text),
      attachTo: step.target ? { element: step.target, on: 'bottom' } : undefined,
      // A step whose target is missing is skipped (SPEC §4).
      showOn: step.target ? () => !!document.querySelector(step.target as string) || !!step.route : undefined,
      beforeShowPromise: async () => {
        if (step.route && opts.pathname() !== step.route) {
          opts.navigate(step.route);
          // SPEC §9: navigation between steps waits 500 ms for the screen to settle.
          await sleep(CONSTANTS.tourStepDelayMs);
        }
      },
      buttons: [
        ...(index > 0 ? [{ text: t('Back'), secondary: true, action: () => tour.back() }] : []),
        { text: last ? t('Done') : t('Next'), action: () => (last ? tour.complete() : tour.next()) },
      ],
    });
  });

  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    opts.onEnd();
  };
  tour.on('complete', end);
  tour.on('cancel', end);
  void tour.start();
  return () => {
    if (tour.isActive()) void tour.cancel();
  };
}
