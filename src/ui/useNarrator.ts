/**
 * The narration module (sentences in English and Korean for every kind of step) is loaded after the
 * first paint: the page shows the run at once, and the sentences a moment later.
 */
import { useEffect, useMemo, useState } from 'react';
import type { Language, Trace } from '../sim/views';

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

/** An envelope fault's label as the kernel recorded it (English). */
export const asRecorded = (label: string) => label;

/**
 * What the message diagram writes for an envelope's fault (its `fault`: a fault's label, or why the
 * network lost it) in the reader's language: narration's envelopeFaultText. The page's timeline and
 * the exported figure take their words from this one function, so a figure says what the page showed
 * ("버려짐: 확인 응답이 돌아오는 길에 사라집니다", not the kernel's English). English needs nothing loaded;
 * Korean is null until the narration module has loaded — started here when `load` is true (the
 * Export dialog), else waited for (the timeline: the narration panel loads it).
 */
export function useFaultText(trace: Trace | null, language: Language, load: boolean): ((label: string) => string) | null {
  const narrator = useNarrator(load && language !== 'en');
  return useMemo(() => {
    if (language === 'en') return asRecorded;
    if (!narrator || !trace) return null;
    return (label: string) => narrator.envelopeFaultText(trace, label, language);
  }, [narrator, trace, language]);
}
