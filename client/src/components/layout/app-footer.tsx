import { useState } from 'react';
import { Modal, Button } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../../stores/settings.store';
import { footerLinks, isExternalLink } from '../../lib/footer-links';

/** SPEC §2 footer: product name, year and version; legal links; Cookie Preferences if enabled. */
export function AppFooter() {
  const { t } = useTranslation();
  const s = useSettings();
  const [cookiesOpen, setCookiesOpen] = useState(false);
  const year = new Date().getFullYear();
  return (
    <footer className="sw-footer border-top py-3 px-3 small text-body-secondary">
      <div className="d-flex flex-wrap align-items-center gap-3">
        <span>
          © {year} <bdi>{s.name}</bdi> · {t('Version')} <bdi>{s.version}</bdi>
        </span>
        <ul className="list-inline mb-0 ms-auto d-flex flex-wrap gap-3">
          {footerLinks(s).map((l) => (
            <li key={l.label} className="list-inline-item m-0">
              {l.href ? (
                <a href={l.href} target="_blank" rel="noopener noreferrer">
                  {t(l.label)}
                </a>
              ) : (
                <button type="button" className="btn btn-link btn-sm p-0 align-baseline">
                  {t(l.label)}
                </button>
              )}
            </li>
          ))}
          {s.cookie_consent && (
            <li className="list-inline-item m-0">
              <button type="button" className="btn btn-link btn-sm p-0 align-baseline" onClick={() => setCookiesOpen(true)}>
                {t('Cookie Preferences')}
              </button>
            </li>
          )}
        </ul>
      </div>
      <Modal show={cookiesOpen} onHide={() => setCookiesOpen(false)} centered>
        <Modal.Header closeButton closeLabel={t('Close')}>
          <Modal.Title>{t('Cookie Preferences')}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>{t('{site} uses only the cookies it needs to work: one that protects your forms against forgery, and one for the design-cloud link when you connect it. There are no tracking cookies.')}</p>
          {isExternalLink(s.cookie_policy) && (
            <a href={s.cookie_policy} target="_blank" rel="noopener noreferrer">
              {t('Read the cookie policy')}
            </a>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="primary" onClick={() => setCookiesOpen(false)}>
            {t('OK')}
          </Button>
        </Modal.Footer>
      </Modal>
    </footer>
  );
}
