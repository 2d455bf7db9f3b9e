import { useTranslation } from 'react-i18next';
import { TextField } from './text-field';

export type NewPasswordField = 'password' | 'confirm';

interface Props {
  password: string;
  confirm: string;
  /** A field changed: the caller stores the value and drops that field's error. */
  onChange: (field: NewPasswordField, value: string) => void;
  /** Untranslated messages from the form rules, per field. */
  errors: Partial<Record<NewPasswordField, string | null>>;
  /** Already translated labels: "Password" for a first one, "New password" when it replaces one. */
  label: string;
  confirmLabel: string;
  autoFocus?: boolean;
  /** Class of each field's wrapper, e.g. 'col-md-6 mb-3' to set them side by side in a row. */
  fieldClassName?: string;
}

/** A password being chosen and its confirmation, both required, with the length hint. */
export function NewPasswordFields({ password, confirm, onChange, errors, label, confirmLabel, autoFocus, fieldClassName }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <TextField className={fieldClassName} label={label} type="password" value={password} onChange={(v) => onChange('password', v)} error={errors.password && t(errors.password)} autoComplete="new-password" required autoFocus={autoFocus} hint={t('At least 8 characters.')} />
      <TextField className={fieldClassName} label={confirmLabel} type="password" value={confirm} onChange={(v) => onChange('confirm', v)} error={errors.confirm && t(errors.confirm)} autoComplete="new-password" required />
    </>
  );
}
