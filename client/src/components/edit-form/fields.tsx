import { useId, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

/**
 * Form controls of the edit forms that the shared TextField does not cover,
 * wired the same way: a visible label, the error under the control and
 * linked to it for screen readers.
 */

function describedBy(id: string, error?: string | null, hint?: string) {
  return [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ') || undefined;
}

function Feedback({ id, error, hint }: { id: string; error?: string | null; hint?: string }) {
  return (
    <>
      {hint && (
        <div id={`${id}-hint`} className="form-text">
          {hint}
        </div>
      )}
      {error && (
        <div id={`${id}-error`} className="invalid-feedback d-block">
          {error}
        </div>
      )}
    </>
  );
}

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange' | 'value'> & {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
  hint?: string;
};

export function TextAreaField({ label, value, onChange, error, hint, className, rows = 4, ...rest }: TextAreaProps) {
  const id = useId();
  return (
    <div className={className ?? 'mb-3'}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <textarea
        id={id}
        rows={rows}
        className={`form-control${error ? ' is-invalid' : ''}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...rest}
      />
      <Feedback id={id} error={error} hint={hint} />
    </div>
  );
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> & {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string | null;
  hint?: string;
  children: ReactNode;
};

export function SelectField({ label, value, onChange, error, hint, className, children, ...rest }: SelectProps) {
  const id = useId();
  return (
    <div className={className ?? 'mb-3'}>
      <label htmlFor={id} className="form-label">
        {label}
      </label>
      <select
        id={id}
        className={`form-select${error ? ' is-invalid' : ''}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        {...rest}
      >
        {children}
      </select>
      <Feedback id={id} error={error} hint={hint} />
    </div>
  );
}

interface CheckboxGroupProps {
  legend: string;
  options: { value: number; label: string }[];
  value: number[];
  onChange(value: number[]): void;
  error?: string | null;
  /** Shown when there are no options (e.g. a link to create some). */
  empty?: ReactNode;
  className?: string;
}

/** A set of ids picked with checkboxes (the order of picking does not matter). */
export function CheckboxGroupField({ legend, options, value, onChange, error, empty, className }: CheckboxGroupProps) {
  const id = useId();
  const picked = new Set(value);
  const toggle = (v: number, on: boolean) => onChange(on ? [...value, v] : value.filter((x) => x !== v));
  return (
    <fieldset className={className ?? 'mb-3'} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="form-label fs-6 mb-2">{legend}</legend>
      {options.length === 0 ? (
        <div className="form-text">{empty}</div>
      ) : (
        <div className="d-flex flex-wrap gap-3">
          {options.map((o) => (
            <div key={o.value} className="form-check">
              <input
                id={`${id}-${o.value}`}
                type="checkbox"
                className="form-check-input"
                checked={picked.has(o.value)}
                onChange={(e) => toggle(o.value, e.target.checked)}
              />
              <label htmlFor={`${id}-${o.value}`} className="form-check-label">
                {o.label}
              </label>
            </div>
          ))}
        </div>
      )}
      <Feedback id={id} error={error} />
    </fieldset>
  );
}
