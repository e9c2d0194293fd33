/**
 * A panel over the page on the native modal <dialog> (the browser keeps focus inside, Escape closes,
 * focus goes back to the opener): a drawer on the right on wide screens, a bottom sheet on phones.
 */
import type { ReactNode } from 'react';
import { useModalDialog } from '../useModalDialog';

export interface SheetProps {
  readonly title: string;
  readonly closeLabel: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly testId?: string;
}

export function Sheet({ title, closeLabel, onClose, children, testId }: SheetProps) {
  const { ref, titleId, close } = useModalDialog(onClose);
  return (
    <dialog ref={ref} className="sheet" aria-labelledby={titleId} data-testid={testId}>
      <div className="sheet-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="sheet-close" onClick={close} aria-label={closeLabel}>
          ×
        </button>
      </div>
      <div className="sheet-body">{children}</div>
    </dialog>
  );
}
