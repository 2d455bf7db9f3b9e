import { Dropdown } from 'react-bootstrap';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAuthStore } from '../../stores/auth.store';
import { useSettings } from '../../stores/settings.store';
import { useUiStore } from '../../stores/ui.store';
import { UserAvatar } from '../user-avatar';

/** SPEC §2 user menu: My Profile, Edit Profile, Help (new tab), Logout. */
export function UserMenu() {
  const { t } = useTranslation();
  const user = useAuthStore((s) => s.user);
  const settings = useSettings();
  const openLogout = useUiStore((s) => s.setLogoutModalOpen);
  return (
    <Dropdown align="end">
      <Dropdown.Toggle variant="link" className="sw-topbar-btn d-flex align-items-center gap-2 text-decoration-none" aria-label={t('User menu')} data-testid="user-menu-toggle">
        <span className="d-none d-md-inline text-body small">{user?.username}</span>
        <UserAvatar user={user} size={32} />
      </Dropdown.Toggle>
      <Dropdown.Menu className="shadow">
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
        <Dropdown.Divider />
        <Dropdown.Item as="button" onClick={() => openLogout(true)}>
          <i className="bi bi-box-arrow-right me-2" aria-hidden="true" />
          {t('Logout')}
        </Dropdown.Item>
      </Dropdown.Menu>
    </Dropdown>
  );
}
