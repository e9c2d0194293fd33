/**
 * A fragment changed after the embed loaded: a host page that sets `iframe.src = 'embed.html#preset=…'`
 * (or a share link's `#s=1.…`) navigates only the fragment, so the page does not reload — the embed
 * opens what the new fragment names, in its language (`#preset=…&lang=ko`), and a fragment it cannot
 * open shows its error as text, as at load. No fragment left: what the query named (its preset and
 * step), else the default scenario. The latest change wins: one still resolving when another comes
 * does not open over it. It reads the address only, and never writes history.
 */

import { parseEmbedOptions } from '../share/embedOptions';
import { shareStore } from '../share/shareState';
import { DEFAULT_PRESET_ID } from '../sim';
import { embedStore } from './embedStore';
import { openScenario } from './open';

/** Starts following the frame's fragment. Returns a stop function. */
export function followFragment(win: Window = window, store = embedStore): () => void {
  let latest = 0;
  const onChange = async () => {
    const ask = ++latest;
    const { search, hash } = win.location;
    const options = parseEmbedOptions(search, hash);
    const empty = hash === '' || hash === '#';
    const text = empty ? (options.preset ?? DEFAULT_PRESET_ID) : hash;
    const r = await store.getState().resolve(text);
    if (ask !== latest) return;
    const share = shareStore.getState();
    if (!r.ok) {
      share.setLinkError(r.error);
      return;
    }
    const asked = options.language;
    share.setLanguageNotSupported(asked && 'unsupported' in asked ? asked.unsupported : null);
    if (asked && 'language' in asked) store.getState().setLanguage(asked.language);
    const step = empty ? (options.step ?? undefined) : undefined;
    await openScenario(store, r.scenario, step === undefined ? r.view : { ...r.view, step });
  };
  const listener = () => void onChange();
  win.addEventListener('hashchange', listener);
  return () => win.removeEventListener('hashchange', listener);
}
