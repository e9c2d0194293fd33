/**
 * The language to open in when the link does not say: the first of the browser's languages
 * (navigator.languages, in the reader's order of preference) that EOS Lab speaks, else English.
 */
import type { Language } from '../store/simStore';

export function preferredLanguage(languages: readonly string[] | undefined): Language {
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
