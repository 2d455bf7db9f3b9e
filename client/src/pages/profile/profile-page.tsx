import { Fragment, useEffect } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MESSAGES, PROFILE_FIELDS, effectiveRole, type UserStats } from '@sitewalk/proto';
import { useProfileStore } from '../../stores/profile.store';
import { useAuthStore } from '../../stores/auth.store';
import { useSettings } from '../../stores/settings.store';
import { UserAvatar } from '../../components/user-avatar';
import { Spinner } from '../../components/spinner';
import { PROFILE_FIELD_LABELS, visibleProfileFields } from '../../lib/profile-field-labels';
import { formatDateTime, formatNumber } from '../../lib/format';
import { tk } from '../../lib/i18n-keys';
import { PlanMembersCard } from './plan-members';
import { PlanInvitations } from './plan-invitations';
import { SessionsCard } from './sessions-card';
import { TwoFactorSection } from './two-factor-section';
import { LinkedAccountsSection } from './linked-accounts-section';
import { ApiKeysSection } from './api-keys-section';
import { DesignCloudCard } from '../design-cloud/design-cloud-card';

const STATS: { key: keyof UserStats; label: string }[] = [
  { key: 'projects', label: tk('Projects') },
  { key: 'visits', label: tk('Visits') },
  { key: 'sheets', label: tk('Sheets') },
  { key: 'open_snags', label: tk('Open snags') },
];

const ROLE_LABELS: Record<string, string> = { super_admin: tk('Administrator'), guest: tk('Guest'), editor: tk('Editor'), viewer: tk('Viewer') };

/** /profile: the user, avatar and cover, plan and stats. */
export default function ProfilePage() {
  const { t, i18n } = useTranslation();
  const authUser = useAuthStore((s) => s.user);
  const data = useProfileStore((s) => s.data);
  const status = useProfileStore((s) => s.status);
  const load = useProfileStore((s) => s.load);
  const settings = useSettings();

  useEffect(() => {
    void load();
  }, [load]);

  if (!data && status === 'error') {
    return (
      <div className="alert alert-danger" role="alert">
        {t(MESSAGES.errorLoadingUser)}
      </div>
    );
  }
  if (!data) return <Spinner size="lg" />;
  const user = data.user ?? authUser;
  const fullName = [user.first_name, user.last_name].filter((s) => s?.trim()).join(' ');
  const fields = visibleProfileFields(PROFILE_FIELDS, settings).filter((f) => f !== 'first_name' && f !== 'last_name');

  return (
    <div className="sw-profile">
      <div className="card border-0 shadow-sm overflow-hidden mb-4">
        <div className="sw-cover" style={user.cover_image ? { backgroundImage: `url("${user.cover_image}")` } : undefined} role="img" aria-label={t('Cover image')} />
        <div className="card-body d-flex flex-wrap align-items-end gap-3 sw-profile-head">
          <div className="sw-profile-avatar">
            <UserAvatar user={user} size={96} />
          </div>
          <div className="flex-grow-1">
            <h2 className="h4 mb-1">{fullName || user.username}</h2>
            <div className="text-body-secondary">
              @{user.username} · {t(ROLE_LABELS[effectiveRole(user)] ?? effectiveRole(user))}
            </div>
          </div>
          <Link to="/editprofile" className="btn btn-primary">
            <i className="bi bi-pencil-square me-2" aria-hidden="true" />
            {t('Edit Profile')}
          </Link>
        </div>
      </div>
      <div className="row g-4">
        <div className="col-lg-7">
          <section className="card border-0 shadow-sm h-100" aria-labelledby="profile-details-heading">
            <div className="card-header bg-transparent">
              <h3 id="profile-details-heading" className="h6 mb-0">
                {t('Details')}
              </h3>
            </div>
            <dl className="card-body row mb-0">
              <dt className="col-sm-4">{t('E-mail')}</dt>
              <dd className="col-sm-8">{user.email}</dd>
              {fields.map((f) => (
                <Fragment key={f}>
                  <dt className="col-sm-4">{t(PROFILE_FIELD_LABELS[f])}</dt>
                  <dd className="col-sm-8">{user[f] || <span className="text-body-tertiary">—</span>}</dd>
                </Fragment>
              ))}
              <dt className="col-sm-4">{t('Member since')}</dt>
              <dd className="col-sm-8">{formatDateTime(user.created_at, i18n.language)}</dd>
            </dl>
          </section>
        </div>
        <div className="col-lg-5 d-flex flex-column gap-4">
          <section className="card border-0 shadow-sm" aria-labelledby="profile-plan-heading">
            <div className="card-header bg-transparent">
              <h3 id="profile-plan-heading" className="h6 mb-0">
                {t('Plan')}
              </h3>
            </div>
            <div className="card-body">
              <PlanInvitations onJoined={() => load({ force: true })} />
              <PlanMembersCard info={data.plan_info} slot={data.plan_slot} members={data.plan_members} me={{ id: user.id, super_admin: !!user.super_admin }} onChanged={() => load({ force: true })} />
            </div>
          </section>
          <DesignCloudCard />
          <SessionsCard />
          <TwoFactorSection />
          <LinkedAccountsSection />
          <ApiKeysSection />
          <section className="card border-0 shadow-sm" aria-labelledby="profile-stats-heading">
            <div className="card-header bg-transparent">
              <h3 id="profile-stats-heading" className="h6 mb-0">
                {t('Activity')}
              </h3>
            </div>
            <div className="card-body row text-center g-2">
              {STATS.map((s) => (
                <div key={s.key} className="col-6">
                  <div className="h4 mb-0">{formatNumber(data.user_stats?.[s.key] ?? 0, i18n.language)}</div>
                  <div className="small text-body-secondary">{t(s.label)}</div>
                </div>
              ))}
            </div>
          </section>
        </div>
      </div>
    </div>
  );
}
