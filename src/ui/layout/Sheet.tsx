/**
 * A panel over the page on the native modal <dialog> (the browser keeps focus inside, Escape closes,
 * focus goes back to the opener): a drawer on the right on wide screens, a bottom sheet on phones.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface SheetProps {
  readonly title: string;
  readonly closeLabel: string;
  readonly onClose: () => void;
  readonly children: ReactNode;
  readonly testId?: string;
}

export function Sheet({ title, closeLabel, onClose, children, testId }: SheetProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const onCancel = (e: Event) => {
      e.preventDefault();
      close.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog ref={ref} className="sheet" aria-labelledby={titleId} data-testid={testId}>
      <div className="sheet-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="sheet-close" onClick={() => close.current()} aria-label={closeLabel}>
          ×
        </button>
      </div>
      <div className="sheet-body">{children}</div>
    </dialog>
  );
}
