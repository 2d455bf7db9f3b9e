import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../stores/settings.store';
import { useDesignCloudStore } from '../../stores/design-cloud.store';
import { linkBusy } from '../../lib/design-cloud-link';
import { ConfirmDialog } from '../../components/edit-form/confirm-dialog';

/** Connect / Disconnect of the design-cloud link, with its state. */
export function DesignCloudConnect() {
  const { t } = useTranslation();
  const link = useDesignCloudStore((s) => s.link);
  const connect = useDesignCloudStore((s) => s.connect);
  const disconnect = useDesignCloudStore((s) => s.disconnect);
  const [confirming, setConfirming] = useState(false);
  const busy = linkBusy(link);
  const connected = link === 'connected';

  return (
    <div className="d-flex flex-wrap gap-2 align-items-center" data-testid="adsk-link" data-state={link}>
      <span className="flex-grow-1">
        <i className={`bi ${connected ? 'bi-check-circle-fill text-success' : 'bi-cloud-slash text-body-secondary'} me-2`} aria-hidden="true" />
        {link === 'checking' || link === 'refreshing' || link === 'unknown'
          ? t('Checking the Autodesk link…')
          : connected
            ? t('Your account is connected to Autodesk.')
            : t('Your account is not connected to Autodesk.')}
      </span>
      {connected ? (
        <>
          <Link to="/design-cloud" className="btn btn-sm btn-outline-primary">
            {t('Browse Autodesk files')}
          </Link>
          <button type="button" className="btn btn-sm btn-outline-danger" disabled={busy} onClick={() => setConfirming(true)}>
            {t('Disconnect')}
          </button>
        </>
      ) : (
        <button type="button" className="btn btn-sm btn-primary" disabled={busy} onClick={connect}>
          {(link === 'redirecting' || link === 'checking') && <span className="spinner-border spinner-border-sm me-1" aria-hidden="true" />}
          {t('Connect')}
        </button>
      )}
      <ConfirmDialog
        show={confirming}
        title={t('Disconnect from Autodesk?')}
        body={t('{site} will forget your Autodesk sign-in. Projects and sheets already brought in stay.')}
        confirmLabel={t('Disconnect')}
        busy={link === 'disconnecting'}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          disconnect();
        }}
      />
    </div>
  );
}

/**
 * The profile's design-cloud card (shown when adsk_enable is on). It also
 * takes the return from Autodesk: the ?adsk_callback toast, a re-check and a
 * profile reload, then the query leaves the address.
 */
export function DesignCloudCard() {
  const { t } = useTranslation();
  const settings = useSettings();
  const recheck = useDesignCloudStore((s) => s.recheck);
  const takeCallback = useDesignCloudStore((s) => s.takeCallback);
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const rest = takeCallback(location.search);
    if (rest !== null) navigate({ pathname: location.pathname, search: rest }, { replace: true });
    else recheck();
    // Once per arrival on the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!settings.adsk_enable) return null;
  return (
    <section className="card border-0 shadow-sm" aria-labelledby="profile-adsk-heading">
      <div className="card-header bg-transparent">
        <h3 id="profile-adsk-heading" className="h6 mb-0">
          {t('Autodesk')}
        </h3>
      </div>
      <div className="card-body">
        <DesignCloudConnect />
      </div>
    </section>
  );
}
