/**
 * The keyboard shortcuts, in a modal <dialog>: showModal() makes the rest of the page inert, Tab
 * and Shift+Tab cycle inside it (rather than escaping to the browser), Esc closes it, and focus
 * returns to where it was.
 */
import { type KeyboardEvent, useEffect, useId, useRef } from 'react';
import { useSim } from '../../store/useSim';
import { useStrings } from '../i18n';
import { SHORTCUTS } from './shortcuts';

/** Keeps Tab inside the dialog: from the last focusable element back to the first, and the reverse. */
function trapTab(e: KeyboardEvent<HTMLDialogElement>): void {
  if (e.key !== 'Tab') return;
  const focusable = [
    ...e.currentTarget.querySelectorAll<HTMLElement>('button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])'),
  ];
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (e.shiftKey && (active === first || active === e.currentTarget)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && active === last) {
    e.preventDefault();
    first.focus();
  }
}

export function HelpDialog({ open, onClose }: { readonly open: boolean; readonly onClose: () => void }) {
  const titleId = useId();
  const t = useStrings();
  const language = useSim((s) => s.language);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      const previous = document.activeElement as HTMLElement | null;
      d.showModal();
      return () => previous?.focus();
    }
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="help-dialog" aria-labelledby={titleId} onClose={onClose} onKeyDown={trapTab} data-testid="help-dialog">
      <h2 id={titleId}>{t.helpTitle}</h2>
      <table>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.keys.join('+')}>
              <th scope="row">
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' + '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </th>
              <td>{s.describe(t, language)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit" className="primary">
          {t.close}
        </button>
      </form>
    </dialog>
  );
}
