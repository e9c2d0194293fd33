/**
 * The narration module (sentences in English and Korean for every kind of step) is loaded after the
 * first paint: the page shows the run at once, and the sentences a moment later.
 */
import { useEffect, useState } from 'react';

type NarrationModule = typeof import('../sim/narration');

let loaded: NarrationModule | null = null;
let loading: Promise<NarrationModule> | null = null;
/** Components waiting for the module without asking for it (useNarrator(false)). */
const waiting = new Set<(m: NarrationModule) => void>();

export function loadNarrator(): Promise<NarrationModule> {
  loading ??= import('../sim/narration').then((m) => {
    loaded = m;
    for (const w of waiting) w(m);
    waiting.clear();
    return m;
  });
  return loading;
}

/**
 * The narration functions, or null until they have loaded. With `load` false the component does not
 * start loading them (the workspace's first stage, whose timeline only translates fault labels with
 * them): it takes them when a later panel has loaded them.
 */
export function useNarrator(load = true): NarrationModule | null {
  const [mod, setMod] = useState<NarrationModule | null>(loaded);
  useEffect(() => {
    if (mod) return;
    let live = true;
    const take = (m: NarrationModule) => {
      if (live) setMod(m);
    };
    if (load || loading) void loadNarrator().then(take);
    else waiting.add(take);
    return () => {
      live = false;
      waiting.delete(take);
    };
  }, [mod, load]);
  return mod;
}
