/**
 * The keyboard shortcuts, in a modal <dialog>: showModal() makes the rest of the page inert (focus
 * stays inside), Esc closes it, and focus returns to where it was.
 */
import { useEffect, useId, useRef } from 'react';
import { useStrings } from '../i18n';
import { useSim } from '../useSim';
import { SHORTCUTS } from './shortcuts';

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
    <dialog ref={ref} className="help-dialog" aria-labelledby={titleId} onClose={onClose} data-testid="help-dialog">
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
