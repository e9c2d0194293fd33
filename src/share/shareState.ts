/**
 * UI state of sharing, kept apart from the simulation store: the error of a link that could not be
 * opened, which share/embed/export/gallery panel is open, and whether the URL is held (while the
 * gallery opened from `#gallery` is on screen, the address keeps saying `#gallery`), and a Break it
 * search a link carried, until the Break it panel (src/ui/search) takes it.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { LinkError, LinkSearch, Scenario } from '../sim';

export type SharePanel = 'share' | 'embed' | 'export' | 'gallery' | null;

export interface ShareState {
  readonly linkError: LinkError | null;
  readonly panel: SharePanel;
  readonly holdHash: boolean;
  /** Shown once after opening a link from an older EOS Lab. */
  readonly migratedFrom: number | null;
  /** Shown once after opening a link whose step is past the end of its run (it opened at the last). */
  readonly stepPastEnd: { readonly asked: number; readonly steps: number } | null;
  /** Shown once after opening a link whose step is no step of a run (`-3`, `2.5`, `abc`): what it asked, as written, and the step it opened. */
  readonly stepNotAStep: { readonly asked: string; readonly opened: number } | null;
  /** Shown once after opening an address whose `lang` names a language EOS Lab does not speak: the value as written. */
  readonly languageNotSupported: string | null;
  /** The search a link carried (`view.search`), with the scenario it searched: the Break it panel opens it. */
  readonly linkedSearch: { readonly scenario: Scenario; readonly search: LinkSearch } | null;
  setLinkError(error: LinkError | null): void;
  open(panel: SharePanel): void;
  setHoldHash(hold: boolean): void;
  setMigratedFrom(version: number | null): void;
  setStepPastEnd(note: ShareState['stepPastEnd']): void;
  setStepNotAStep(note: ShareState['stepNotAStep']): void;
  setLanguageNotSupported(asked: string | null): void;
  setLinkedSearch(linked: ShareState['linkedSearch']): void;
}

export const shareStore = createStore<ShareState>()((set) => ({
  linkError: null,
  panel: null,
  holdHash: false,
  migratedFrom: null,
  stepPastEnd: null,
  stepNotAStep: null,
  languageNotSupported: null,
  linkedSearch: null,
  setLinkError: (linkError) => set({ linkError }),
  // closing the gallery (or opening anything else) lets the address follow the scenario again
  open: (panel) => set((s) => ({ panel, holdHash: panel === 'gallery' ? s.holdHash : false })),
  setHoldHash: (holdHash) => set({ holdHash }),
  setMigratedFrom: (migratedFrom) => set({ migratedFrom }),
  setStepPastEnd: (stepPastEnd) => set({ stepPastEnd }),
  setStepNotAStep: (stepNotAStep) => set({ stepNotAStep }),
  setLanguageNotSupported: (languageNotSupported) => set({ languageNotSupported }),
  setLinkedSearch: (linkedSearch) => set({ linkedSearch }),
}));

export function useShare<T>(selector: (s: ShareState) => T): T {
  return useStore(shareStore, selector);
}
