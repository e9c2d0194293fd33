/** A whole number of milliseconds, typed in a labelled field. */
import { useId } from 'react';

export interface MsInputProps {
  readonly label: string;
  readonly value: number;
  readonly onChange: (ms: number) => void;
  readonly unit: string;
  readonly disabled?: boolean;
}

export function MsInput({ label, value, onChange, unit, disabled }: MsInputProps) {
  const id = useId();
  return (
    <span className="ms-input">
      <label htmlFor={id}>{label}</label>{' '}
      <input
        id={id}
        type="number"
        min={1}
        max={86400000}
        step={1}
        disabled={disabled}
        value={Number.isFinite(value) ? value : ''}
        onChange={(e) => onChange(e.currentTarget.valueAsNumber)}
      />{' '}
      {unit}
    </span>
  );
}
