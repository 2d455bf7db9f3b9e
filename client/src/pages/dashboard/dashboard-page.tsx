import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES, type UserStats } from '@sitewalk/proto';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useAuthStore } from '../../stores/auth.store';
import { useProfileStore } from '../../stores/profile.store';
import { useSettings } from '../../stores/settings.store';
import { useStartTour, onboardingCompleted } from '../../tour/use-tour';
import { Spinner } from '../../components/spinner';
import { ProjectsWidgets } from './projects-widgets';
import { ProjectRow } from './project-row';
import { useRecentProjectsQuery } from './use-dashboard-queries';
import { tk } from '../../lib/i18n-keys';
import { joinIsolated } from '../../lib/bidi';

const STAT_CARDS: { key: keyof UserStats; label: string; icon: string }[] = [
  { key: 'projects', label: tk('Projects'), icon: 'bi-building' },
  { key: 'visits', label: tk('Visits'), icon: 'bi-camera' },
  { key: 'sheets', label: tk('Sheets'), icon: 'bi-map' },
  { key: 'open_snags', label: tk('Open snags'), icon: 'bi-exclamation-diamond' },
];

/** The dashboard: the user's counts and recent items. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const user = useAuthStore((s) => s.user);
  const profile = useProfileStore((s) => s.data);
  const profileStatus = useProfileStore((s) => s.status);
  const profileError = useProfileStore((s) => s.error);
  const load = useProfileStore((s) => s.load);
  const settings = useSettings();
  const startTour = useStartTour();
  const recent = useRecentProjectsQuery();

  useEffect(() => {
    void load();
  }, [load]);

  // New users get the onboarding tour once (SPEC §1, §4).
  useEffect(() => {
    if (!settings.enable_wizard || onboardingCompleted()) return;
    const timer = setTimeout(() => void startTour(), 600);
    return () => clearTimeout(timer);
  }, [settings.enable_wizard, startTour]);

  const stats = profile?.user_stats;
  const name = user?.first_name?.trim() || user?.username || '';

  return (
    <div className="sw-dashboard">
      <div className="d-flex flex-wrap align-items-center mb-4 gap-2">
        <h2 className="h4 mb-0">{t('Welcome, {name}', { name })}</h2>
      </div>
      {profileStatus === 'error' && (
        <div className="alert alert-warning" role="alert">
          {t(profileError ?? MESSAGES.errorLoadingUser)}
        </div>
      )}
      <section aria-label={t('Your activity')} data-tour="dashboard-overview" className="row g-3 mb-4">
        {STAT_CARDS.map((c) => (
          <div key={c.key} className="col-6 col-lg-3">
            <div className="card sw-stat-card h-100 border-0 shadow-sm">
              <div className="card-body d-flex align-items-center gap-3">
                <span className="sw-stat-icon" aria-hidden="true">
                  <i className={`bi ${c.icon}`} />
                </span>
                <div>
                  <div className="text-uppercase small fw-semibold text-body-secondary" id={`stat-${c.key}`}>
                    {t(c.label)}
                  </div>
                  <div className="h3 mb-0" aria-labelledby={`stat-${c.key}`} data-testid={`stat-${c.key}`}>
                    {stats ? formatNumber(stats[c.key] ?? 0, i18n.language) : <Spinner size="sm" hideText />}
                  </div>
                </div>
              </div>
            </div>
          </div>
        ))}
      </section>
      <section aria-labelledby="recent-projects-heading" className="card border-0 shadow-sm">
        <div className="card-header bg-transparent">
          <h2 id="recent-projects-heading" className="h6 mb-0">
            {t('Recent projects')}
          </h2>
        </div>
        <div className="card-body">
          {recent.isPending ? (
            <Spinner />
          ) : !recent.data?.length ? (
            <div className="text-center text-body-secondary py-4" data-testid="recent-empty">
              <i className="bi bi-inbox fs-1 d-block mb-2" aria-hidden="true" />
              {t('No recent projects yet. Projects you create or open appear here.')}
            </div>
          ) : (
            <ul className="list-group list-group-flush">
              {recent.data.map((p) => (
                <ProjectRow key={p.id} project={p} detail={joinIsolated([[p.city, p.country].filter(Boolean).join(', '), p.updated_at && formatDateTime(p.updated_at, i18n.language)])}>
                  {p.starred && <i className="bi bi-star-fill text-warning" aria-label={t('Starred')} />}
                </ProjectRow>
              ))}
            </ul>
          )}
        </div>
      </section>
      <ProjectsWidgets />
    </div>
  );
}
