import { useState } from 'react';
import { Button, Modal } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { CONSTANTS } from '@sitewalk/proto';
import { useAuthStore } from '../../stores/auth.store';
import { useUiStore } from '../../stores/ui.store';

/**
 * SPEC §2 logout modal: 'Ready to Leave?', the exact text, a Logout button;
 * it closes 300 ms after the logout (it lives outside the layout, so it stays
 * while the screen behind it changes to the sign-in page).
 */
export default function LogoutModal() {
  const { t } = useTranslation();
  const open = useUiStore((s) => s.logoutModalOpen);
  const setOpen = useUiStore((s) => s.setLogoutModalOpen);
  const logout = useAuthStore((s) => s.logout);
  const [busy, setBusy] = useState(false);

  const onLogout = async () => {
    setBusy(true);
    try {
      await logout();
    } finally {
      setTimeout(() => {
        setOpen(false);
        setBusy(false);
      }, CONSTANTS.logoutModalCloseDelayMs);
    }
  };

  return (
    <Modal show={open} onHide={() => !busy && setOpen(false)} centered aria-labelledby="sw-logout-title">
      <Modal.Header closeButton closeLabel={t('Close')}>
        <Modal.Title id="sw-logout-title">{t('Ready to Leave?')}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{t('Select "Logout" below if you are ready to end your current session.')}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={() => setOpen(false)} disabled={busy}>
          {t('Cancel')}
        </Button>
        <Button variant="primary" onClick={() => void onLogout()} disabled={busy}>
          {t('Logout')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
