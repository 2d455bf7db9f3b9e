import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSettings } from '../stores/settings.store';
import { LanguageButtons } from './language-buttons';

/** The frame of the public screens: brand, language switcher, one card. */
export function AuthCard({ title, children, background }: { title: string; children: ReactNode; background?: string }) {
  const { t } = useTranslation();
  const s = useSettings();
  const bg = background?.trim();
  return (
    <div className="sw-auth" style={bg ? { backgroundImage: `url("${bg.replace(/"/g, '%22')}")` } : undefined}>
      <main className="sw-auth-card card shadow-lg border-0">
        <div className="card-body p-4 p-md-5">
          <div className="d-flex align-items-center mb-4">
            {s.logo ? (
              <img src={s.logo} alt={s.name} className="sw-auth-logo" />
            ) : (
              <span className="sw-auth-brand">
                <i className="bi bi-buildings me-2" aria-hidden="true" />
                {s.name}
              </span>
            )}
            {s.languages_enabled && <LanguageButtons className="ms-auto" />}
          </div>
          <h1 className="h4 mb-4">{t(title)}</h1>
          {children}
        </div>
      </main>
    </div>
  );
}
