/**
 * A preset's words name its records as the page shows them. A record cell on the timeline, the
 * verdict and the narration name a record by its event_id header (else its key: cellLabel), so a
 * question that asks about "b" while the lanes show e2 sends the reader looking for a record that is
 * not there. Every shipped text — title, question, expected outcome, the notes of faults and script
 * steps, in English and in Korean — must not call a record by a short value that is not its name
 * (a, b, c …), and every event id it names must be one the scenario's records carry.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS, type Preset } from '../../src/sim/presets';
import { PRESET_TEXT_KO } from '../../src/sim/presets/ko';
import { NOTES_KO } from '../../src/sim/presets/koNotes';
import { cellLabel } from '../../src/ui/timeline/cellLabels';

interface Sent {
  readonly key: string | null;
  readonly value: string | null;
  readonly headers: Readonly<Record<string, string>>;
}

/** The records a preset's producers send, `count` sends expanded ({i} → 0, 1, 2 …). */
function sentRecords(p: Preset): Sent[] {
  const out: Sent[] = [];
  for (const c of p.scenario.clients) {
    if (c.type !== 'producer') continue;
    for (const op of c.script) {
      if (op.op !== 'send') continue;
      const n = op.count ?? 1;
      for (let i = 0; i < n; i++) {
        const at = (s: string | null | undefined) => (s === null || s === undefined ? null : s.replaceAll('{i}', String(i)));
        const headers = Object.fromEntries(Object.entries(op.headers ?? {}).map(([k, v]) => [k, at(v) as string]));
        out.push({ key: at(op.key), value: at(op.value), headers });
      }
    }
  }
  return out;
}

function texts(p: Preset): { en: string[]; ko: string[] } {
  const notes = [
    ...(p.scenario.faults ?? []).map((f) => f.note),
    ...p.scenario.clients.flatMap((c) => (c.type === 'producer' ? c.script.map((op) => op.note) : [])),
  ].filter((n): n is string => typeof n === 'string' && n.length > 0);
  const ko = PRESET_TEXT_KO[p.id];
  return {
    en: [p.title, p.question, p.expected, ...notes],
    ko: [ko?.title ?? '', ko?.question ?? '', ko?.expected ?? '', ...notes.map((n) => NOTES_KO[n] ?? '')],
  };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `word` standing alone: not inside a longer name (orders-0, e2, acks=all …). */
const alone = (word: string) => new RegExp(`(?<![\\w.=-])${escapeRegExp(word)}(?![\\w=-])`);

describe("the presets' words name records as the timeline does", () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))('%s', (_id, p) => {
    const records = sentRecords(p);
    const { en, ko } = texts(p);
    // a short value of letters (a, b, c …) that is not the record's name on the timeline is not a name to use;
    // English "a" is the article, so only the Korean texts can tell it
    const shortValues = new Set(
      records
        .filter((r) => r.value !== null && /^[a-z]{1,2}$/i.test(r.value) && r.value !== cellLabel({ ...r, control: null }))
        .map((r) => r.value as string),
    );
    for (const v of shortValues) {
      for (const t of en) if (v !== 'a') expect(t, `"${v}" in: ${t}`).not.toMatch(alone(v));
      for (const t of ko) expect(t, `"${v}" in: ${t}`).not.toMatch(alone(v));
    }
    // every event id a text names (e1, evt-789 …) is one of the scenario's records
    const carried = new Set(records.flatMap((r) => Object.values(r.headers)));
    const named = [...en, ...ko].flatMap((t) => t.match(/(?<![\w-])(?:e\d+|evt-[\w-]*\w)(?![\w-])/g) ?? []);
    expect(
      [...new Set(named)].filter((id) => !carried.has(id)),
      p.id,
    ).toEqual([]);
  });
});
