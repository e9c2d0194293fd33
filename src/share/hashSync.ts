/**
 * URL ↔ store in the full app. On load the fragment decides what opens: a share link (`#s=1.…`),
 * the gallery (`#gallery`), a shipped scenario by its id (`#preset=<id>`), or — with no fragment —
 * the default scenario; any other fragment is a link that cannot be opened. Afterwards the fragment
 * follows the person's work, debounced, so the address bar is always a link to what is on screen:
 * opening a scenario or forking the run (a new scenario in the store) pushes a history entry, so
 * Back and Forward move between them; moving through the run (step, selection, language) replaces
 * the current entry, so Back is not flooded. Going Back or Forward opens that entry's link without
 * pushing again. The embed never calls this: hosts may forbid the history API.
 */
import { DEFAULT_PRESET_ID, encodeLink, findPreset, toLinkSelection } from '../sim';
import type { createSimStore, SimState } from '../store/simStore';
import { askedLanguage, fragmentLanguage, LANGUAGE_PARAM } from './linkLanguage';
import { parsePresetFragment, resolvePresetFragment } from './presetFragment';
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

/**
 * Opens what a fragment names. Returns false when it was a link that could not be opened.
 * `elsewhere`: fragment prefixes another view of the page opens over the default scenario.
 */
export function openFragment(store: SimStore, address: string, elsewhere: readonly string[] = []): boolean {
  const share = shareStore.getState();
  // `#lang=ko` alone, or after a share link (`#s=1.…&lang=ko`): the rest of the fragment opens in that
  // language (linkLanguage.ts); one EOS Lab does not speak is said, as `#preset=…&lang=fr` is
  const { hash, lang } = fragmentLanguage(address);
  const language = lang && 'language' in lang ? lang.language : undefined;
  const sayUnsupported = () => {
    if (lang && 'unsupported' in lang) share.setLanguageNotSupported(lang.unsupported);
  };
  if (hash === GALLERY_FRAGMENT) {
    // `#gallery&lang=ko`: the gallery (and the default scenario under it) in that language
    if (language) store.getState().setLanguage(language);
    if (!store.getState().scenario) openDefault(store);
    sayUnsupported();
    share.setHoldHash(true);
    share.open('gallery');
    return true;
  }
  // a shipped scenario by its id (`#preset=<id>[&step=<n>]`, presetFragment.ts)
  const named = parsePresetFragment(hash);
  if (named) {
    const r = resolvePresetFragment(named);
    if (!r.ok) {
      share.setLinkError(r.error);
      return false;
    }
    const language = named.lang && 'language' in named.lang ? named.lang.language : undefined;
    openScenario(store, r.scenario, { ...(named.step === null ? {} : { step: named.step }), ...(language ? { language } : {}) });
    // a step that is no step of a run (`-3`, `2.5`) opened clamped: said, as a step past the end is
    if (named.badStep !== undefined) share.setStepNotAStep({ asked: named.badStep, opened: named.step ?? 0 });
    // a language EOS Lab does not speak (`lang=fr`): said, in the language the page opened in
    if (named.lang && 'unsupported' in named.lang) share.setLanguageNotSupported(named.lang.unsupported);
    share.setLinkedSearch(null);
    return true;
  }
  if (hash === '' || hash === '#' || elsewhere.some((prefix) => hash.startsWith(prefix))) {
    if (language) store.getState().setLanguage(language);
    if (!store.getState().scenario) openDefault(store);
    sayUnsupported();
    return true;
  }
  // anything else is a link that cannot be opened, said as such (resolveSource: "neither a share
  // link nor a shipped scenario's id"), the address left as it is — never another scenario in silence
  const r = resolveSource(hash);
  if (!r.ok) {
    // why it cannot be opened, in the language the link asked for
    if (language) store.getState().setLanguage(language);
    share.setLinkError(r.error);
    return false;
  }
  openScenario(store, r.scenario, language ? { ...r.view, language } : r.view);
  sayUnsupported();
  share.setMigratedFrom(r.migratedFrom ?? null);
  // a Break it search's link opens the panel as it was, with what the search answered
  share.setLinkedSearch(r.view.search ? { scenario: r.scenario, search: r.view.search } : null);
  return true;
}

export interface HashSyncOptions {
  readonly delayMs?: number;
  /** Fragment prefixes another view opens over the default scenario (a dump link, an A/B link). */
  readonly opensElsewhere?: readonly string[];
}

/** Opens the page's fragment, then keeps it in step with the store. Returns a stop function. */
export function startHashSync(store: SimStore, win: Window = window, options: HashSyncOptions = {}): () => void {
  const delay = options.delayMs ?? 250;
  // the query's language (`?lang=ko`), where the fragment says none: a share link's own language, or a
  // `#preset=…&lang=…`, wins; one EOS Lab does not speak is said once the fragment has opened (below)
  const queryLanguage = askedLanguage(new URLSearchParams(win.location.search ?? '').get(LANGUAGE_PARAM));
  if (queryLanguage && 'language' in queryLanguage) store.getState().setLanguage(queryLanguage.language);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let written = win.location.hash;
  // a history entry of ours (or the gallery's) is current, so a newly opened scenario gets its own
  let entryExists = fragmentLanguage(win.location.hash).hash === GALLERY_FRAGMENT;
  // the next scenario to land came from Back/Forward, a pasted link or the page's own fragment: it
  // replaces the current entry, never pushes
  let navigated = true;
  let pushNext = false;

  // the fragment when the pending write was scheduled: if it has changed by the time the write is
  // due, the person navigated (a pasted link, Back) and the browser's `hashchange` for it may not
  // have fired yet — writing now would put the old run's link over theirs, and that navigation
  // would be lost. The write is dropped; the navigation's own landing schedules the next one.
  let hashWhenScheduled = written;

  const write = () => {
    timer = undefined;
    if (win.location.hash !== hashWhenScheduled) return;
    const share = shareStore.getState();
    if (share.linkError || share.holdHash) return;
    const link = linkOf(store.getState());
    if (!link || link === win.location.hash) return;
    try {
      if (pushNext) win.history.pushState(null, '', link);
      else win.history.replaceState(win.history.state, '', link);
      written = link;
      entryExists = true;
      pushNext = false;
    } catch {
      // some hosts (sandboxed frames, webviews) forbid it: the Share button still works
    }
  };
  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    // a later change while one is pending keeps the first one's fragment: a navigation in between
    // still counts
    else hashWhenScheduled = win.location.hash;
    timer = setTimeout(write, delay);
  };

  const stopStore = store.subscribe((s, prev) => {
    // a scenario opened or forked by the person is a new entry; one opened by navigation is not
    if (s.scenario !== prev.scenario && s.scenario) {
      if (!navigated && entryExists) pushNext = true;
      navigated = false;
    }
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
    if ((prev.linkError && !s.linkError) || (prev.holdHash && !s.holdHash)) {
      // whoever held the address bar (the compare view) wrote it: it is handed back as it is now
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      schedule();
    }
  });
  // Back, Forward, or a link pasted into the address bar of an open tab: only the fragment changes
  const onHashChange = () => {
    const hash = win.location.hash;
    // an entry a view opens (a comparison's `#ab=…`, a dump's `#dump=…`): that view holds the address
    const viewEntry = (options.opensElsewhere ?? []).some((prefix) => hash.startsWith(prefix));
    // nothing to do when the entry is the link last written and the store still shows it; but a view
    // that held the address (a comparison opening its scenario A) may have moved the store since. A
    // view's entry handled already is this navigation's second event (popstate, then hashchange)
    if (hash === written && (viewEntry || linkOf(store.getState()) === written)) return;
    written = hash;
    // this navigation is handled here: a write pending from before it may go ahead once it lands
    hashWhenScheduled = written;
    // released for the run's own entries only: releasing it on a view's entry, after the view had
    // taken it, let the run's link replace the comparison's address 250 ms after Forward
    if (!viewEntry) shareStore.getState().setHoldHash(false);
    pushNext = false;
    // the gallery opens over the scenario on screen: nothing new lands
    if (fragmentLanguage(hash).hash === GALLERY_FRAGMENT) entryExists = true;
    else navigated = true;
    openFragment(store, hash, options.opensElsewhere);
  };
  win.addEventListener('hashchange', onHashChange);
  win.addEventListener('popstate', onHashChange);
  // after subscribing, so the scenario the fragment opens is known to come from navigation
  openFragment(store, win.location.hash, options.opensElsewhere);
  if (queryLanguage && 'unsupported' in queryLanguage) shareStore.getState().setLanguageNotSupported(queryLanguage.unsupported);
  if (store.getState().scenario) schedule();
  return () => {
    stopStore();
    stopShare();
    win.removeEventListener('hashchange', onHashChange);
    win.removeEventListener('popstate', onHashChange);
    if (timer !== undefined) clearTimeout(timer);
  };
}
