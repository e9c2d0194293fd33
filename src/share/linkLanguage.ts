/**
 * A language asked for in an address: `lang=<en|ko>` in the page's `#preset=<id>&lang=…` or its
 * query (`?lang=…`), and in the embed's query. EOS Lab speaks English and Korean; a tag such as
 * `ko-KR` counts as its language. Any other value opens in the language the page would have used
 * anyway, with a note that says so (the value is the reader's to write: it is cut, and shown as text).
 */
import type { Language } from '../store/simStore';

export const LANGUAGE_PARAM = 'lang';

/** What a `lang` parameter asked: a language EOS Lab speaks, or the value as written when it speaks none such. */
export type AskedLanguage = { readonly language: Language } | { readonly unsupported: string };

/** Longest value a note repeats (the rest is cut with an ellipsis). */
const SHOWN_CHARS = 16;

/** A `lang` parameter's value → what it asks; null when none was given (absent or empty). */
export function askedLanguage(value: string | null | undefined): AskedLanguage | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const primary = value.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'en' || primary === 'ko') return { language: primary };
  const shown = [...value.trim()];
  return { unsupported: shown.length > SHOWN_CHARS ? `${shown.slice(0, SHOWN_CHARS).join('')}…` : shown.join('') };
}

/**
 * A fragment's own `lang=` where the page's other fragments have no place for one: `#lang=ko` alone
 * (the default scenario, in that language) and a share link with `&lang=…` written after it
 * (`#s=1.…&lang=ko`: the link, in that language rather than its own), and the gallery's
 * (`#gallery&lang=ko`: the gallery over the default scenario, in that language). The fragment comes back
 * without the parameter, `''` when nothing else was in it; any other fragment comes back as it was,
 * with no language (`#preset=<id>&lang=…` has its own reader, presetFragment.ts).
 */
export function fragmentLanguage(hash: string): { readonly hash: string; readonly lang: AskedLanguage | null } {
  const alone = /^#lang=([^&]*)$/.exec(hash);
  if (alone) return { hash: '', lang: askedLanguage(safeDecode(alone[1] ?? '')) };
  const after = /^(#s=[^&]*|#gallery)&lang=([^&]*)$/.exec(hash);
  if (after) return { hash: after[1] ?? hash, lang: askedLanguage(safeDecode(after[2] ?? '')) };
  return { hash, lang: null };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
