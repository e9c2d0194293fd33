/**
 * The narration module (sentences in English and Korean for every kind of step) is loaded after the
 * first paint: the page shows the run at once, and the sentences a moment later.
 */
import { useEffect, useState } from 'react';

type NarrationModule = typeof import('../sim/narration');

let loaded: NarrationModule | null = null;
let loading: Promise<NarrationModule> | null = null;

export function loadNarrator(): Promise<NarrationModule> {
  loading ??= import('../sim/narration').then((m) => {
    loaded = m;
    return m;
  });
  return loading;
}

/** The narration functions, or null until they have loaded. */
export function useNarrator(): NarrationModule | null {
  const [mod, setMod] = useState<NarrationModule | null>(loaded);
  useEffect(() => {
    if (mod) return;
    let live = true;
    void loadNarrator().then((m) => {
      if (live) setMod(m);
    });
    return () => {
      live = false;
    };
  }, [mod]);
  return mod;
}
