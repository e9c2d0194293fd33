/** One action: a button with a short explanation tied to it for screen readers. */
import { type ReactNode, useId } from 'react';

export interface ActionRowProps {
  readonly label: string;
  readonly hint: string;
  readonly onClick: () => void;
  readonly disabled?: boolean;
  /** Extra fields before the button (a duration, a checkbox). */
  readonly children?: ReactNode;
}

export function ActionRow({ label, hint, onClick, disabled, children }: ActionRowProps) {
  const id = useId();
  return (
    <div className="action-row">
      {children}
      <button type="button" onClick={onClick} disabled={disabled} aria-describedby={id}>
        {label}
      </button>
      <p id={id} className="hint">
        {hint}
      </p>
    </div>
  );
}
