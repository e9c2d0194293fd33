/**
 * The note for an address whose `lang` names a language EOS Lab does not speak (linkLanguage.ts),
 * in the language the page or the embed opened in. It stands beside any other note of a link and is
 * dismissed on its own; the page's header and the embed both show it.
 */
import type { Language } from '../store/simStore';
import { shareStore, useShare } from './shareState';
import { shareText } from './strings';

export function LanguageNotSupportedNote({ language }: { readonly language: Language }) {
  const asked = useShare((s) => s.languageNotSupported);
  const error = useShare((s) => s.linkError !== null);
  if (asked === null || error) return null;
  const t = shareText(language);
  return (
    <output className="eos-link-note" data-testid="language-not-supported">
      {t.languageNotSupported(asked)}{' '}
      <button type="button" className="eos-link-button" onClick={() => shareStore.getState().setLanguageNotSupported(null)}>
        {t.dismiss}
      </button>
    </output>
  );
}
