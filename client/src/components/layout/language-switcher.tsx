import { Dropdown } from 'react-bootstrap';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type LanguageCode } from '@sitewalk/proto';
import { useUiStore } from '../../stores/ui.store';
import { useAuthStore } from '../../stores/auth.store';
import { MENU_INSIDE_SCREEN } from '../../lib/menu-popper';

/** Language switcher (shown when `languages_enabled`); the choice is stored locally and for the signed-in user. */
export function LanguageSwitcher({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const language = useUiStore((s) => s.language);
  const setLanguage = useUiStore((s) => s.setLanguage);
  const signedIn = useAuthStore((s) => s.status === 'authenticated');
  const current = LANGUAGES.find((l) => l.code === language) ?? LANGUAGES[0];
  return (
    <Dropdown className={className} align="end">
      <Dropdown.Toggle variant="link" className="sw-topbar-btn text-decoration-none" aria-label={`${t('Language')} ${current.code}`} data-testid="language-switcher">
        <i className="bi bi-translate" aria-hidden="true" /> <span className="small text-uppercase">{current.code}</span>
      </Dropdown.Toggle>
      <Dropdown.Menu popperConfig={MENU_INSIDE_SCREEN}>
        {LANGUAGES.map((l) => (
          <Dropdown.Item
            key={l.code}
            as="button"
            lang={l.code}
            dir={l.direction}
            active={l.code === language}
            aria-current={l.code === language ? 'true' : undefined}
            data-testid={`language-${l.code}`}
            onClick={() => void setLanguage(l.code as LanguageCode, { saveOnServer: signedIn })}
          >
            {l.name}
          </Dropdown.Item>
        ))}
      </Dropdown.Menu>
    </Dropdown>
  );
}
