import { useTranslation } from 'react-i18next';
import { TextField } from '../text-field';

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** Already translated. */
  error?: string | null;
  /** What it takes: the app's 6 digits, those or a recovery code (turning off), or a recovery code. */
  kind?: 'app' | 'app-or-recovery' | 'recovery';
  autoFocus?: boolean;
}

/**
 * The one field every two-factor form asks its code in (sign-in, setup,
 * turning off): left to right in Arabic too, a number pad and one-time-code
 * autofill for the app's code, plain text for a recovery code.
 */
export function TwoFactorCodeField({ value, onChange, error, kind = 'app', autoFocus }: Props) {
  const { t } = useTranslation();
  return (
    <TextField
      label={kind === 'recovery' ? t('Recovery code') : t('Authentication code')}
      value={value}
      onChange={onChange}
      error={error}
      inputMode={kind === 'app' ? 'numeric' : 'text'}
      autoComplete={kind === 'recovery' ? 'off' : 'one-time-code'}
      maxLength={kind === 'app' ? 7 : 20}
      dir="ltr"
      autoFocus={autoFocus}
      required
    />
  );
}
