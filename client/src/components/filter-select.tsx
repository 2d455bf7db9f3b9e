export interface FilterOption {
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
  options: readonly FilterOption[];
  /** The first choice, value '', that filters nothing ("All projects"); already translated. */
  anyLabel?: string;
  /** The grid column it takes in the filter row. */
  className: string;
  small?: boolean;
  testId?: string;
}

/** One labelled choice of a list's filter row (projects, snag list): the label above, the select below. */
export function FilterSelect({ id, label, value, onChange, options, anyLabel, className, small, testId }: Props) {
  return (
    <div className={className}>
      <label htmlFor={id} className="form-label small mb-1">
        {label}
      </label>
      <select id={id} className={small ? 'form-select form-select-sm' : 'form-select'} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
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
