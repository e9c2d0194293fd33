/**
 * The note Break it writes on each fault of a counterexample it opens (search/report.ts,
 * counterexampleScenario: "<fault> — Break it (1/2): <property> breaks at the <layer> layer of
 * <subject>"; links made before 2026-12 wrote "… layer (<subject>)"), read back and said in Korean.
 * Null when the text is not such a note (or was clipped).
 */
import { LAYER_NAMES } from '../checks/verdictText';
import { describeProperty, PROPERTY_IDS, type Property } from '../search/property';

const NOTE = /^(.+) — Break it(?: \((\d+)\/(\d+)\))?: (.+) breaks at the (\w+) layer(?: of (.+)| \((.+)\))?$/;

const AT = '\u0000at\u0000';
const MS = 987654321;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each property's English description as a pattern, its `at` and `stallMs` as named groups. */
const PROPERTY_PATTERNS = PROPERTY_IDS.flatMap((id) =>
  [true, false].map((withAt) => {
    const text = describeProperty({ id, ...(withAt ? { at: AT } : {}), stallMs: MS });
    return {
      id,
      pattern: new RegExp(`^${escapeRegExp(text).replace(escapeRegExp(AT), '(?<at>.+?)').replace(String(MS), '(?<ms>\\d+)')}$`),
    };
  }),
);

/** describeProperty's English read back into the property it describes; null when it is none. */
export function parseProperty(text: string): Property | null {
  for (const { id, pattern } of PROPERTY_PATTERNS) {
    const g = text.match(pattern)?.groups;
    if (!g && !pattern.test(text)) continue;
    const property: Property = {
      id,
      ...(g?.at !== undefined ? { at: g.at } : {}),
      ...(g?.ms !== undefined ? { stallMs: Number(g.ms) } : {}),
    };
    // only a faithful reading counts: describing it again gives the same words
    if (describeProperty(property) === text) return property;
  }
  return null;
}

/** A Break it note in Korean, its fault said by `faultKo`; null when `note` is not one. */
export function breakItNoteKo(note: string, faultKo: (what: string) => string | null): string | null {
  const m = note.match(NOTE);
  if (!m) return null;
  const [, what, i, n, propertyText, layer, subjectOf, subjectInParentheses] = m as unknown as (string | undefined)[];
  const subject = subjectOf ?? subjectInParentheses;
  const fault = faultKo(what as string);
  const property = parseProperty(propertyText as string);
  const layerKo = LAYER_NAMES[layer as keyof typeof LAYER_NAMES]?.[1];
  if (fault === null || property === null || layerKo === undefined) return null;
  // the panel's Korean name (src/ui/search/strings.ts), as the page around the note calls it
  // no parentheses at its end (the note goes into narration's own): "orders의 … 계층에서 깨짐"
  return `${fault} — 깨뜨려 보기${i ? ` (${i}/${n})` : ''}: ${describeProperty(property, 'ko')} — ${subject ? `${subject}의 ` : ''}${layerKo} 계층에서 깨짐`;
}
