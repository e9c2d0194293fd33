/**
 * Choosing a language on the page. Apart from preferredLanguage.ts because it drives the store: the
 * page's first stage (src/shell/) reads the preference before the store and its engine are loaded.
 */
import { type Language, simStore } from '../store/simStore';
import { CHOSEN_LANGUAGE_KEY } from './preferredLanguage';

/**
 * The person chose a language: the page speaks it now, and a later load whose link names no
 * language (`#preset=<id>`, the bare address) opens in it; a link's own language still wins.
 */
export function chooseLanguage(language: Language): void {
  simStore.getState().setLanguage(language);
  try {
    globalThis.localStorage?.setItem(CHOSEN_LANGUAGE_KEY, language);
  } catch {
    // not kept: the page still switches
  }
}
