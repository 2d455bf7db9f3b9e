import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { SECRET_PLACEHOLDER } from '@sitewalk/proto';
import { HEX_COLOUR, timezoneChoices, type SettingField, type SettingValue } from '../../lib/settings-form';

interface Props {
  field: SettingField;
  value: SettingValue;
  onChange(value: SettingValue): void;
  /** Already translated. */
  error?: string | null;
  /** Marks a value that differs from the saved one. */
  changed: boolean;
}

const WIDTH_CLASS: Record<NonNullable<SettingField['width']>, string> = { full: 'col-12', half: 'col-md-6', third: 'col-md-4' };

/** One setting with the control that fits its value, a visible label, its hint and its error. */
export function SettingControl({ field, value, onChange, error, changed }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const changedId = `${id}-changed`;
  // "Changed" is told as a description, so the control's name stays its label.
  const describedBy = [field.hint ? hintId : null, error ? errorId : null, changed ? changedId : null].filter(Boolean).join(' ') || undefined;
  const label = t(field.label);
  const c = field.control;
  const invalid = error ? ' is-invalid' : '';
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'data-setting': field.key,
  } as const;
  const zones = useMemo(() => (c.type === 'timezone' ? timezoneChoices(String(value)) : []), [c.type, value]);

  const feedback = (
    <>
      {changed && (
        <span id={changedId} className="visually-hidden">
          {t('Changed, not saved yet')}
        </span>
      )}
      {field.hint && (
        <div id={hintId} className="form-text">
          {t(field.hint)}
        </div>
      )}
      {error && (
        <div id={errorId} className="invalid-feedback d-block">
          {error}
        </div>
      )}
    </>
  );
  const changedMark = changed ? (
    <span className="sw-setting-changed ms-2" title={t('Changed, not saved yet')} aria-hidden="true">
      <i className="bi bi-circle-fill" />
    </span>
  ) : null;

  if (c.type === 'switch') {
    return (
      <div className="col-12 mb-3">
        <div className="form-check form-switch">
          <input {...common} type="checkbox" role="switch" className={`form-check-input${invalid}`} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          <label htmlFor={id} className="form-check-label">
            {label}
            {changedMark}
          </label>
        </div>
        {feedback}
      </div>
    );
  }

  if (c.type === 'multi') {
    const picked = new Set(Array.isArray(value) ? value : []);
    const toggle = (v: string, on: boolean) => {
      const current = Array.isArray(value) ? value : [];
      onChange(on ? [...current, v] : current.filter((x) => x !== v));
    };
    return (
      <fieldset className="col-12 mb-3" aria-describedby={describedBy}>
        <legend className="form-label fs-6 mb-2">
          {label}
          {changedMark}
        </legend>
        <div className="d-flex flex-wrap gap-3">
          {c.options.map((o) => (
            <div key={o.value} className="form-check">
              <input id={`${id}-${o.value}`} type="checkbox" className="form-check-input" checked={picked.has(o.value)} onChange={(e) => toggle(o.value, e.target.checked)} />
              <label htmlFor={`${id}-${o.value}`} className="form-check-label">
                {t(o.label)}
              </label>
            </div>
          ))}
        </div>
        {feedback}
      </fieldset>
    );
  }

  const text = String(value);
  let control;
  switch (c.type) {
    case 'textarea':
      control = <textarea {...common} className={`form-control${invalid}`} rows={c.rows ?? 4} value={text} maxLength={20_000} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'number':
      control = (
        <input {...common} type="number" inputMode={c.step ? 'decimal' : 'numeric'} className={`form-control${invalid}`} min={c.min} max={c.max} step={c.step ?? 1} value={text} onChange={(e) => onChange(e.target.value)} />
      );
      break;
    case 'color':
      control = (
        <div className="input-group">
          <input
            type="color"
            className="form-control form-control-color sw-colour-swatch"
            data-testid="theme-colour-swatch"
            value={HEX_COLOUR.test(text.trim()) ? text.trim().toLowerCase() : '#000000'}
            onChange={(e) => onChange(e.target.value)}
            aria-label={t('Pick the theme colour')}
          />
          <input {...common} type="text" className={`form-control font-monospace${invalid}`} value={text} maxLength={7} spellCheck={false} dir="ltr" onChange={(e) => onChange(e.target.value)} />
        </div>
      );
      break;
    case 'secret':
      control = (
        <input
          {...common}
          type="password"
          className={`form-control${invalid}`}
          value={text}
          autoComplete="new-password"
          dir="ltr"
          onFocus={(e) => {
            // The placeholder is not the secret: select it so typing replaces it.
            if (e.target.value === SECRET_PLACEHOLDER) e.target.select();
          }}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'select':
      control = (
        <select {...common} className={`form-select${invalid}`} value={text} onChange={(e) => onChange(e.target.value)}>
          {!c.options.some((o) => o.value === text) && <option value={text}>{text}</option>}
          {c.options.map((o) => (
            <option key={o.value} value={o.value}>
              {t(o.label)}
            </option>
          ))}
        </select>
      );
      break;
    case 'timezone':
      control = (
        <select {...common} className={`form-select${invalid}`} value={text} onChange={(e) => onChange(e.target.value)}>
          {zones.map((z) => (
            <option key={z} value={z}>
              {z.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
      );
      break;
    default: {
      const input = c.input ?? 'text';
      control = (
        <input
          {...common}
          type={input}
          className={`form-control${invalid}`}
          value={text}
          placeholder={c.placeholder}
          maxLength={20_000}
          dir={input === 'text' ? undefined : 'ltr'}
          autoComplete="off"
          onChange={(e) => onChange(e.target.value)}
        />
      );
    }
  }

  return (
    <div className={`${WIDTH_CLASS[field.width ?? 'full']} mb-3`}>
      <label htmlFor={id} className="form-label">
        {label}
        {changedMark}
      </label>
      {control}
      {feedback}
    </div>
  );
}
