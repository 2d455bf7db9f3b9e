import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGES } from '@sitewalk/proto';
import { useProfileStore } from '../../stores/profile.store';
import { useAuthStore } from '../../stores/auth.store';
import { useSettings } from '../../stores/settings.store';
import { missingProfileFields } from '../../lib/profile-completeness';
import { PROFILE_FIELD_LABELS } from '../../lib/profile-field-labels';
import { Spinner } from '../../components/spinner';
import { DetailsForm } from './details-form';
import { PicturesSection } from './pictures-section';
import { PasswordSection } from './password-section';
import { PreferencesSection } from './preferences-section';

/** /editprofile: details, pictures, password and notification preferences. */
export default function EditProfilePage() {
  const { t } = useTranslation();
  const data = useProfileStore((s) => s.data);
  const status = useProfileStore((s) => s.status);
  const load = useProfileStore((s) => s.load);
  const authUser = useAuthStore((s) => s.user);
  const settings = useSettings();

  useEffect(() => {
    void load();
  }, [load]);

  // SPEC §5: the fields the guard found missing, listed for the user.
  const missing = missingProfileFields(authUser, settings);

  if (!data && status === 'error') {
    return (
      <div className="alert alert-danger" role="alert">
        {t(MESSAGES.errorLoadingUser)}
      </div>
    );
  }
  if (!data) return <Spinner size="lg" />;

  return (
    <div className="sw-edit-profile">
      {missing.length > 0 && (
        <div className="alert alert-warning" role="alert" data-testid="profile-incomplete">
          <strong>{t('Please complete your profile to continue.')}</strong> {t('Missing fields:')}{' '}
          {missing.map((f) => t(PROFILE_FIELD_LABELS[f])).join(', ')}
        </div>
      )}
      <div className="row g-4">
        <div className="col-xl-7 d-flex flex-column gap-4">
          <DetailsForm key={data.user.id} user={data.user} />
          <PasswordSection />
        </div>
        <div className="col-xl-5 d-flex flex-column gap-4">
          <PicturesSection user={data.user} />
          <PreferencesSection prefs={data.notification_preferences} />
        </div>
      </div>
    </div>
  );
}
