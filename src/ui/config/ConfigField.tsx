/**
 * The field for one config key, by its type: a checkbox (boolean), a select (enum), or a text field
 * (numbers and strings — typed freely, so the validator, not the browser, says what is wrong).
 * Text is committed on Enter or when the field loses focus.
 */
import { type KeyboardEvent, useState } from 'react';
import type { ConfigKey, ConfigValue } from '../../sim';
import { formatValue, parseConfigInput } from './configModel';

export interface ConfigFieldProps {
  readonly id: string;
  readonly spec: ConfigKey;
  readonly value: ConfigValue | undefined;
  readonly invalid: boolean;
  readonly describedBy: string;
  readonly onCommit: (value: ConfigValue | undefined) => void;
}

export function ConfigField({ id, spec, value, invalid, describedBy, onCommit }: ConfigFieldProps) {
  const common = { id, 'aria-invalid': invalid, 'aria-describedby': describedBy } as const;
  if (spec.type === 'boolean')
    return <input type="checkbox" {...common} checked={value === true} onChange={(e) => onCommit(e.currentTarget.checked)} />;
  if (spec.type === 'enum') {
    const shown = value === null || value === undefined ? '' : String(value);
    const listed = (spec.choices ?? spec.values ?? []).map(String);
    return (
      <select {...common} value={shown} onChange={(e) => onCommit(parseConfigInput(spec, e.currentTarget.value))}>
        {!listed.includes(shown) && <option value={shown}>{shown}</option>}
        {listed.map((v) => (
          <option key={v} value={v}>
            {v === '-1' ? '-1 (all)' : v}
          </option>
        ))}
      </select>
    );
  }
  return (
    <TextField
      common={common}
      spec={spec}
      initial={value === null || value === undefined ? '' : formatValue('', value)}
      onCommit={onCommit}
    />
  );
}

function TextField({
  common,
  spec,
  initial,
  onCommit,
}: {
  common: { id: string; 'aria-invalid': boolean; 'aria-describedby': string };
  spec: ConfigKey;
  initial: string;
  onCommit: (value: ConfigValue | undefined) => void;
}) {
  const [text, setText] = useState(initial);
  const commit = () => {
    if (text !== initial) onCommit(parseConfigInput(spec, text));
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') commit();
  };
  const numeric = spec.type === 'int' || spec.type === 'long';
  return (
    <input
      type="text"
      {...common}
      inputMode={numeric ? 'numeric' : 'text'}
      placeholder={spec.default === null ? 'null' : undefined}
      value={text}
      maxLength={200}
      size={numeric ? 12 : 20}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={onKey}
    />
  );
}
