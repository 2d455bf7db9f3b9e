import { useCallback, useEffect, useRef, useState } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import 'altcha/external';
import 'altcha/altcha.css';
import 'altcha/i18n/ar';
import 'altcha/i18n/en';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import { useUiStore } from '../stores/ui.store';

// The widget's proof of work runs in a worker served from this site (the CSP allows no blob: workers).
globalThis.$altcha?.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());

/** The Bootstrap theme's colours, so the widget reads well in light and dark mode (WCAG AA like the rest of the form). */
const THEME_STYLE = {
  '--altcha-color-base': 'var(--bs-body-bg)',
  '--altcha-color-text': 'var(--bs-body-color)',
  '--altcha-color-border': 'var(--bs-border-color)',
  '--altcha-color-border-focus': 'var(--bs-primary)',
  '--altcha-color-error-text': 'var(--bs-danger-text-emphasis)',
  '--altcha-color-footer-bg': 'var(--bs-tertiary-bg)',
  '--altcha-max-width': '100%',
} as Record<string, string>;

/**
 * The self-hosted captcha (ALTCHA, issue 24): a checkbox "I'm not a robot"
 * that works out a proof of work from /api/captcha/challenge in the browser,
 * in the interface's language (Arabic strings included). `onChange` gets the
 * solved answer to send as the form's `altcha` field, or null while there is
 * none. Change `resetKey` for a fresh captcha (an answer works once).
 */
export function CaptchaWidget({ onChange, resetKey, error }: { onChange: (payload: string | null) => void; resetKey: number; error?: string | null }) {
  const { t } = useTranslation();
  const language = useUiStore((s) => s.language);
  const ref = useRef<HTMLElement>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const listen = (e: Event) => {
      const { state, payload } = (e as CustomEvent<{ state: string; payload?: string }>).detail;
      changed.current(state === 'verified' && payload ? payload : null);
    };
    el.addEventListener('statechange', listen);
    return () => el.removeEventListener('statechange', listen);
  }, [resetKey, language]);

  return (
    <div className="mb-3" role="group" aria-label={t('Captcha')}>
      {/* A new key gives a new widget, so a new challenge (the element keeps its state otherwise). */}
      <div key={`${resetKey}-${language}`}>
        <altcha-widget ref={ref} challenge="/api/captcha/challenge" name="altcha" language={language} workers={2} style={THEME_STYLE} />
      </div>
      {error && (
        <div className="text-danger small mt-1" role="alert">
          {t(error)}
        </div>
      )}
    </div>
  );
}

/**
 * The captcha of a form on react-hook-form whose `captcha` value is the
 * solution (account-rules captchaRules): the widget's `resetKey` and
 * `onChange` (a solved captcha clears its message, one that expires only
 * empties the value), and `renew()` for a fresh one after a refused attempt,
 * since an answer works once.
 */
export function useFormCaptcha<V extends FieldValues & { captcha: string }>(form: UseFormReturn<V>) {
  const [resetKey, setResetKey] = useState(0);
  const field = 'captcha' as Path<V>;
  const { setValue, clearErrors, getValues } = form;
  const onChange = useCallback(
    (payload: string | null) => {
      setValue(field, (payload ?? '') as PathValue<V, Path<V>>);
      if (payload) clearErrors(field);
    },
    [setValue, clearErrors, field],
  );
  const renew = useCallback(() => {
    if (!getValues(field)) return;
    setValue(field, '' as PathValue<V, Path<V>>);
    setResetKey((k) => k + 1);
  }, [getValues, setValue, field]);
  return { resetKey, onChange, renew };
}
