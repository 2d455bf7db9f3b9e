import { tk } from './i18n-keys';

/**
 * The onboarding tour (SPEC §1, §4): a welcome step, then a dashboard
 * overview step. A step with a target that is not on the page is skipped.
 */
export interface TourStep {
  id: string;
  /** Translation keys. */
  title: string;
  text: string;
  /** CSS selector of the element the step points at; none centres the step. */
  target?: string;
  /** The screen the step belongs to; the tour goes there first. */
  route?: string;
}

export const TOUR_STEPS: TourStep[] = [
  {
    id: 'welcome',
    title: tk('Welcome to {site}'),
    text: tk('Supervise your construction sites remotely: projects, floor sheets, 360° visits and a snag list, all in one place. This short tour shows you around.'),
  },
  {
    id: 'dashboard',
    title: tk('Your dashboard'),
    text: tk('Here you see your projects, visits, sheets and open snags at a glance, and what you worked on recently.'),
    target: '[data-tour="dashboard-overview"]',
    route: '/dashboard',
  },
];
