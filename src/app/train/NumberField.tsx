// A labelled number input with one line of help: keeps the typed text while it is not yet a number,
// commits every parseable value, and shows the validator's problem inline.
import { useId, useState } from 'react';

interface Props {
  label: string;
  help: string;
  value: number;
  onCommit(v: number): void;
  /** The validator's message for this field ('' or undefined when fine). */
  problem?: string;
  testId: string;
  step?: number | 'any';
  min?: number;
  max?: number;
  /** Marked as applying live to a running run. */
  live?: boolean;
  disabled?: boolean;
}

export function NumberField({
  label,
  help,
  value,
  onCommit,
  problem,
  testId,
  step = 'any',
  min,
  max,
  live,
  disabled,
}: Props) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? String(value);
  const parsed = text.trim() === '' ? NaN : Number(text);
  const message = !Number.isFinite(parsed) ? 'not a number' : (problem ?? '');
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {live && (
          <span className="live-tag" title="changes apply to a running run from its next step">
            live
          </span>
        )}
      </label>
      <input
        id={id}
        data-testid={testId}
        type="number"
        inputMode="decimal"
        step={step}
        min={min}
        max={max}
        value={text}
        disabled={disabled}
        aria-invalid={message ? true : undefined}
        aria-describedby={`${id}-help`}
        onChange={(e) => {
          setDraft(e.target.value);
          const v = Number(e.target.value);
          if (e.target.value.trim() !== '' && Number.isFinite(v) && v !== value) onCommit(v);
        }}
        onBlur={() => setDraft(null)}
      />
      <p id={`${id}-help`} className={message ? 'field-help error' : 'field-help'}>
        {message || help}
      </p>
    </div>
  );
}
