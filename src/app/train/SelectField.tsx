// One labelled choice of the Train view's settings: a select, and under it its help or, in red, why the choice
// cannot run.
interface Props<T extends string> {
  id: string;
  label: string;
  value: T;
  options: readonly { v: T; label: string }[];
  onChange: (v: T) => void;
  help: string;
  problem?: string;
}

export function SelectField<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
  help,
  problem,
}: Props<T>) {
  return (
    <div className="field">
      <label htmlFor={`hp-${id}`}>{label}</label>
      <select
        id={`hp-${id}`}
        data-testid={`hp-${id}`}
        value={value}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {options.map((o) => (
          <option key={o.v} value={o.v}>
            {o.label}
          </option>
        ))}
      </select>
      <p className={problem ? 'field-help error' : 'field-help'} data-testid={`hp-${id}-help`}>
        {problem ?? help}
      </p>
    </div>
  );
}
