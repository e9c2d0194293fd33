/**
 * The language to open in when the link does not say: the one the person chose on this site before
 * (chooseLanguage, kept in localStorage), else the first of the browser's languages
 * (navigator.languages, in the reader's order of preference) that EOS Lab speaks, else English.
 */
import type { Language } from '../store/simStore';

export function preferredLanguage(languages: readonly string[] | undefined, chosen: Language | null = chosenLanguage()): Language {
  if (chosen) return chosen;
  for (const tag of languages ?? []) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (primary === 'ko') return 'ko';
    if (primary === 'en') return 'en';
  }
  return 'en';
}

/** The browser's languages, or none where there is no navigator (tests in Node). */
export function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/** Where the language a person chose on the page (the English / 한국어 buttons, the L key) is kept. */
export const CHOSEN_LANGUAGE_KEY = 'eos-lab.language';

/** The language the person last chose on this site, or null (none chosen, or no storage). */
export function chosenLanguage(): Language | null {
  try {
    const v = globalThis.localStorage?.getItem(CHOSEN_LANGUAGE_KEY);
    return v === 'en' || v === 'ko' ? v : null;
  } catch {
    return null; // storage forbidden (a sandboxed frame, privacy settings)
  }
}
