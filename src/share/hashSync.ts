/**
 * URL ↔ store in the full app. On load the fragment decides what opens: a share link (`#s=1.…`),
 * the gallery (`#gallery`), or — with no fragment — the default scenario. Afterwards the fragment
 * follows the person's work (scenario edits and forks, step, selection, language) through
 * `history.replaceState`, debounced, so the address bar is always a link to what is on screen and
 * the Back button is not flooded. The embed never calls this: hosts may forbid the history API.
 */
import { DEFAULT_PRESET_ID, findPreset } from '../sim/presets';
import { encodeLink, looksLikeLink, toLinkSelection } from '../sim/scenario/link';
import type { createSimStore, SimState } from '../store/simStore';
import { shareStore } from './shareState';
import { openScenario, resolveSource } from './source';

type SimStore = ReturnType<typeof createSimStore>;

export const GALLERY_FRAGMENT = '#gallery';

/** The share link for what the store shows, or null when nothing runs. */
export function linkOf(state: Pick<SimState, 'scenario' | 'step' | 'selection' | 'language'> & { skipIdle?: boolean }): string | null {
  if (!state.scenario) return null;
  return encodeLink(state.scenario, {
    step: state.step,
    selection: toLinkSelection(state.selection),
    language: state.language,
    skipIdle: state.skipIdle ?? true,
  });
}

/** The full URL of a share link, on this page's address (path and query kept, fragment replaced). */
export function urlOf(link: string, href: string): string {
  const hash = href.indexOf('#');
  return (hash >= 0 ? href.slice(0, hash) : href) + link;
}

export function openDefault(store: SimStore): void {
  const preset = findPreset(DEFAULT_PRESET_ID);
  if (preset) openScenario(store, preset.scenario, { language: store.getState().language });
}

/** Opens what a fragment names. Returns false when it was a link that could not be opened. */
export function openFragment(store: SimStore, hash: string): boolean {
  const share = shareStore.getState();
  if (hash === GALLERY_FRAGMENT) {
    if (!store.getState().scenario) openDefault(store);
    share.setHoldHash(true);
    share.open('gallery');
    return true;
  }
  if (!looksLikeLink(hash)) {
    if (!store.getState().scenario) openDefault(store);
    return true;
  }
  const r = resolveSource(hash);
  if (!r.ok) {
    share.setLinkError(r.error);
    return false;
  }
  openScenario(store, r.scenario, r.view);
  share.setMigratedFrom(r.migratedFrom ?? null);
  return true;
}

export interface HashSyncOptions {
  readonly delayMs?: number;
}

/** Opens the page's fragment, then keeps it in step with the store. Returns a stop function. */
export function startHashSync(store: SimStore, win: Window = window, options: HashSyncOptions = {}): () => void {
  const delay = options.delayMs ?? 250;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let written = win.location.hash;

  const write = () => {
    timer = undefined;
    const share = shareStore.getState();
    if (share.linkError || share.holdHash) return;
    const link = linkOf(store.getState());
    if (!link || link === win.location.hash) return;
    try {
      win.history.replaceState(win.history.state, '', link);
      written = link;
    } catch {
      // some hosts (sandboxed frames, webviews) forbid it: the Share button still works
    }
  };
  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(write, delay);
  };

  openFragment(store, win.location.hash);
  const stopStore = store.subscribe((s, prev) => {
    if (
      s.scenario !== prev.scenario ||
      s.step !== prev.step ||
      s.selection !== prev.selection ||
      s.language !== prev.language ||
      s.skipIdle !== prev.skipIdle
    )
      schedule();
  });
  const stopShare = shareStore.subscribe((s, prev) => {
    if ((prev.linkError && !s.linkError) || (prev.holdHash && !s.holdHash)) schedule();
  });
  // a link pasted into the address bar of an open tab changes only the fragment
  const onHashChange = () => {
    if (win.location.hash === written) return;
    written = win.location.hash;
    shareStore.getState().setHoldHash(false);
    openFragment(store, win.location.hash);
  };
  win.addEventListener('hashchange', onHashChange);
  if (store.getState().scenario) schedule();
  return () => {
    stopStore();
    stopShare();
    win.removeEventListener('hashchange', onHashChange);
    if (timer !== undefined) clearTimeout(timer);
  };
}
