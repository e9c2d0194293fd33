/**
 * The A/B view's heading names the two runs in the words the person chose: the settings B changes,
 * each with A's value and B's ("A: enable.idempotence=true · B: enable.idempotence=false"), or — for
 * two scenarios of their own (a gallery pair) — their titles. It named them by internal id
 * ("A/B: lost-ack-idempotent vs lost-ack-idempotent + 1 change").
 */
import type { Setting, SettingChange } from '../../sim';
import type { CompareStrings } from './compareStrings';

/** How many changed settings the heading spells out before "and N more". */
const SHOWN = 3;

export type HeadingInput =
  /** B is A with `changes` applied; `settings` are A's (settingsOf), `title` A's title in the page's language. */
  | { readonly kind: 'changes'; readonly title: string; readonly settings: readonly Setting[]; readonly changes: readonly SettingChange[] }
  /** B is a scenario of its own: both titles in the page's language. */
  | { readonly kind: 'pair'; readonly a: string; readonly b: string };

export function compareHeading(input: HeadingInput, t: CompareStrings): string {
  if (input.kind === 'pair') return t.sides(input.a, input.b);
  const { settings, changes } = input;
  // in the table's order; a setting A has for several clients is named with its client
  const ordered = settings.flatMap((s) => {
    const c = changes.find((x) => x.target === s.target && x.setting === s.setting);
    return c && c.value !== s.current ? [{ s, value: c.value }] : [];
  });
  if (ordered.length === 0) return t.unchanged(input.title);
  const shared = (name: string) => settings.filter((s) => s.setting === name).length > 1;
  const name = (s: Setting) => (shared(s.setting) ? `${s.target} ${s.setting}` : s.setting);
  const side = (pick: (x: (typeof ordered)[number]) => string) => {
    const shown = ordered.slice(0, SHOWN).map(pick).join(', ');
    return ordered.length > SHOWN ? `${shown}${t.moreChanges(ordered.length - SHOWN)}` : shown;
  };
  return t.sides(
    side((x) => `${name(x.s)}=${String(x.s.current)}`),
    side((x) => `${name(x.s)}=${String(x.value)}`),
  );
}
