/**
 * A modal panel on the native <dialog>: the browser traps focus, Escape closes it, and focus
 * returns to the button that opened it.
 */
import type { ReactNode } from 'react';
import { useModalDialog } from './useModalDialog';

export interface ModalProps {
  readonly title: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly closeLabel: string;
  readonly testId?: string;
  readonly wide?: boolean;
}

export function Modal({ title, onClose, children, closeLabel, testId, wide }: ModalProps) {
  const { ref, titleId, close } = useModalDialog(onClose);
  return (
    <dialog ref={ref} className={wide ? 'eos-modal wide' : 'eos-modal'} aria-labelledby={titleId} data-testid={testId}>
      <div className="eos-modal-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="eos-modal-close" onClick={close} aria-label={closeLabel}>
          ×
        </button>
      </div>
      <div className="eos-modal-body">{children}</div>
    </dialog>
  );
}
