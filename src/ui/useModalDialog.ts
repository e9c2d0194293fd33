/**
 * The behaviour every panel over the page shares, on the native modal <dialog>: it opens modal when
 * mounted (the browser keeps focus inside), Escape calls `onClose` (the owner unmounts it), and on
 * unmount it closes and gives focus back to the element that had it before.
 */
import { useEffect, useId, useRef } from 'react';

export function useModalDialog(onClose: () => void) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const latest = useRef(onClose);
  latest.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    const onCancel = (e: Event) => {
      e.preventDefault();
      latest.current();
    };
    dialog.addEventListener('cancel', onCancel);
    return () => {
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      opener?.focus();
    };
  }, []);
  /** Closes through the owner's onClose (the × button). */
  const close = () => latest.current();
  return { ref, titleId, close };
}
