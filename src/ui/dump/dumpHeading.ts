/**
 * What the page header names while a dump is shown instead of a run: the dump, by its files' names
 * (or that one is being imported) — never the scenario the dump replaced on screen. Its own small
 * words table, so the header does not load the dump view's (dumpStrings.ts, loaded with the view).
 */
import type { Language } from '../../store/simStore';
import type { DumpInput } from './dumpInput';

/** Names listed in the heading before "+ n more". */
const SHOWN_NAMES = 3;

const WORDS = {
  en: {
    importing: 'Importing a partition dump',
    dump: (names: string) => `Imported dump: ${names}`,
    more: (n: number) => `+ ${n} more`,
    pasted: 'pasted',
  },
  ko: {
    importing: '파티션 덤프 가져오는 중',
    dump: (names: string) => `가져온 덤프: ${names}`,
    more: (n: number) => `외 ${n}개`,
    pasted: '붙여 넣은 텍스트',
  },
} as const;

/** The header's title while a dump is being imported (`importing`) or is open (its `sources`). */
export function dumpHeading(language: Language, importing: boolean, sources: readonly Pick<DumpInput, 'name'>[]): string {
  const w = WORDS[language];
  if (importing || sources.length === 0) return w.importing;
  // the text pasted into the form is the source named "pasted" (DumpImport.tsx)
  const names = sources.slice(0, SHOWN_NAMES).map((s) => (s.name === 'pasted' ? w.pasted : s.name));
  if (sources.length > SHOWN_NAMES) names.push(w.more(sources.length - SHOWN_NAMES));
  return w.dump(names.join(', '));
}
