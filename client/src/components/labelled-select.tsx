export interface SelectOption {
  value: string | number;
  /** Already translated. */
  label: string;
}

interface Props {
  id: string;
  /** Already translated. */
  label: string;
  value: string | number;
  onChange: (value: string) => void;
  options: readonly SelectOption[];
  /** The first choice, value '', that filters nothing ("All projects"); already translated. */
  anyLabel?: string;
  /** The wrapper's classes, e.g. the grid column it takes in a filter row. */
  className?: string;
  small?: boolean;
  testId?: string;
}

/** A labelled choice: the label above, the select below (filter rows of the lists, the sheet pickers). */
export function LabelledSelect({ id, label, value, onChange, options, anyLabel, className, small, testId }: Props) {
  return (
    <div className={className}>
      <label htmlFor={id} className="form-label small mb-1">
        {label}
      </label>
      <select id={id} className={`form-select mw-100${small ? ' form-select-sm' : ''}`} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        {anyLabel !== undefined && <option value="">{anyLabel}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
