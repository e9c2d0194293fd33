/**
 * The page's words (words.ts) in the store's language.
 */
import { useSim } from '../store/useSim';
import { type Strings, strings } from './words';

export { type Strings, strings } from './words';

/** The page's strings in the store's language. */
export function useStrings(): Strings {
  return strings(useSim((s) => s.language));
}
