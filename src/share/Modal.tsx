/**
 * A modal panel on the native <dialog>: the browser traps focus, Escape closes it, and focus
 * returns to the button that opened it.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface ModalProps {
  readonly title: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly closeLabel: string;
  readonly testId?: string;
  readonly wide?: boolean;
}

export function Modal({ title, onClose, children, closeLabel, testId, wide }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const onCancel = (e: Event) => {
      e.preventDefault();
      closeRef.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog ref={ref} className={wide ? 'eos-modal wide' : 'eos-modal'} aria-labelledby={titleId} data-testid={testId}>
      <div className="eos-modal-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="eos-modal-close" onClick={() => closeRef.current()} aria-label={closeLabel}>
          ×
        </button>
      </div>
      <div className="eos-modal-body">{children}</div>
    </dialog>
  );
}
