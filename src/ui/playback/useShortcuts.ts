import { useEffect } from 'react';
import type { JumpTargets } from './jumps';
import { SHORTCUTS } from './shortcuts';

/** Elements that own their keys: typing in them, or pressing Space on a button, is not a shortcut. */
function ownsKeys(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (
    (key === ' ' || key === 'Enter') &&
    (tag === 'BUTTON' || tag === 'A' || tag === 'SUMMARY' || target.getAttribute('role') === 'button')
  )
    return true;
  return target.closest('dialog[open]') !== null && key !== 'Escape';
}

/** Runs the page's keyboard shortcuts (listed in the help dialog). */
export function useShortcuts(targets: JumpTargets | null, openHelp: () => void, enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || ownsKeys(e.target, e.key)) return;
      // a modal panel (help, share, gallery …) owns the keyboard while it is open
      if (document.querySelector('dialog[open]')) return;
      const s = SHORTCUTS.find((x) => x.matches(e));
      if (!s || !targets) return;
      e.preventDefault();
      s.run(targets, openHelp);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [targets, openHelp, enabled]);
}
