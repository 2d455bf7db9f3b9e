import { useTranslation } from 'react-i18next';
import { LANGUAGES, type LanguageCode } from '@sitewalk/proto';
import { useUiStore } from '../stores/ui.store';

/** The language choice of the public screens: plain buttons, no dropdown code to load. */
export function LanguageButtons({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  const language = useUiStore((s) => s.language);
  const setLanguage = useUiStore((s) => s.setLanguage);
  return (
    <div className={`btn-group btn-group-sm ${className}`} role="group" aria-label={t('Language')} data-testid="language-switcher">
      {LANGUAGES.map((l) => (
        <button
          key={l.code}
          type="button"
          lang={l.code}
          className={`btn ${l.code === language ? 'btn-primary' : 'btn-outline-primary'}`}
          aria-pressed={l.code === language}
          data-testid={`language-${l.code}`}
          onClick={() => void setLanguage(l.code as LanguageCode, { pickedSignedOut: true })}
        >
          {l.name}
        </button>
      ))}
    </div>
  );
}
