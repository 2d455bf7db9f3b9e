import { Dropdown } from 'react-bootstrap';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../../stores/auth.store';
import { useSettings } from '../../stores/settings.store';
import { useUiStore } from '../../stores/ui.store';
import { LANGUAGES, type LanguageCode } from '@sitewalk/proto';
import { useStartTour } from '../../tour/use-tour';
import { UserAvatar } from '../user-avatar';
import { MENU_INSIDE_SCREEN } from '../../lib/menu-popper';

/**
 * SPEC §2 user menu: My Profile, Edit Profile, Help (new tab), Logout. Under
 * 768 px it also holds the top bar's secondary controls (language, tour, dark
 * mode), which leave the top bar there so it fits a phone.
 */
export function UserMenu() {
  const { t } = useTranslation();
  const user = useAuthStore((s) => s.user);
  const signedIn = useAuthStore((s) => s.status === 'authenticated');
  const settings = useSettings();
  const openLogout = useUiStore((s) => s.setLogoutModalOpen);
  const language = useUiStore((s) => s.language);
  const setLanguage = useUiStore((s) => s.setLanguage);
  const dark = useUiStore((s) => s.darkMode);
  const setDark = useUiStore((s) => s.setDarkMode);
  const tourActive = useUiStore((s) => s.tourActive);
  const startTour = useStartTour();
  const phoneOnly = 'd-md-none';
  const secondary = settings.languages_enabled || settings.enable_wizard || settings.dark_mode;
  return (
    <Dropdown align="end">
      <Dropdown.Toggle variant="link" className="sw-topbar-btn d-flex align-items-center gap-2 text-decoration-none" data-testid="user-menu-toggle">
        {/* Named by its content, so the name holds the user name that is seen. */}
        <span className="visually-hidden">{t('User menu')} </span>
        <span className="d-none d-md-inline text-body small">{user?.username}</span>
        <UserAvatar user={user} size={32} />
      </Dropdown.Toggle>
      <Dropdown.Menu popperConfig={MENU_INSIDE_SCREEN} className="shadow">
        <Dropdown.Item as={Link} to="/profile">
          <i className="bi bi-person me-2" aria-hidden="true" />
          {t('My Profile')}
        </Dropdown.Item>
        <Dropdown.Item as={Link} to="/editprofile">
          <i className="bi bi-pencil-square me-2" aria-hidden="true" />
          {t('Edit Profile')}
        </Dropdown.Item>
        {settings.help_url && (
          <Dropdown.Item href={settings.help_url} target="_blank" rel="noopener noreferrer">
            <i className="bi bi-question-circle me-2" aria-hidden="true" />
            {t('Help')}
          </Dropdown.Item>
        )}
        {secondary && <Dropdown.Divider className={phoneOnly} />}
        {settings.languages_enabled && (
          <>
            <Dropdown.Header className={phoneOnly}>
              <i className="bi bi-translate me-2" aria-hidden="true" />
              {t('Language')}
            </Dropdown.Header>
            {LANGUAGES.map((l) => (
              <Dropdown.Item
                key={l.code}
                as="button"
                className={`${phoneOnly} ps-4`}
                lang={l.code}
                dir={l.direction}
                active={l.code === language}
                aria-current={l.code === language ? 'true' : undefined}
                onClick={() => void setLanguage(l.code as LanguageCode, { saveOnServer: signedIn })}
              >
                {l.name}
              </Dropdown.Item>
            ))}
          </>
        )}
        {settings.enable_wizard && (
          <Dropdown.Item as="button" className={phoneOnly} disabled={tourActive} onClick={() => void startTour()}>
            <i className="bi bi-signpost-split me-2" aria-hidden="true" />
            {t('Start the tour')}
          </Dropdown.Item>
        )}
        {settings.dark_mode && (
          <Dropdown.Item as="button" className={phoneOnly} aria-pressed={dark} onClick={() => setDark(!dark)}>
            <i className={`bi ${dark ? 'bi-sun' : 'bi-moon-stars'} me-2`} aria-hidden="true" />
            {t('Dark mode')}
          </Dropdown.Item>
        )}
        <Dropdown.Divider />
        <Dropdown.Item as="button" onClick={() => openLogout(true)}>
          <i className="bi bi-box-arrow-right me-2" aria-hidden="true" />
          {t('Logout')}
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}
