/**
 * Which of the page's panels that open over the run is open: the configuration editor (on a section,
 * e.g. "client:orders-service") and, at phone width, failure injection as a bottom sheet. The panels
 * themselves load on first use.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export interface PanelState {
  /** The config editor: closed (false), or open on a section id (null: the first). */
  readonly config: string | null | false;
  /** Failure injection as a sheet (phones; wider screens show it in the side column). */
  readonly injectSheet: boolean;
  openConfig(section?: string | null): void;
  closeConfig(): void;
  setInjectSheet(open: boolean): void;
}

export const panelStore = createStore<PanelState>()((set) => ({
  config: false,
  injectSheet: false,
  openConfig: (section = null) => set({ config: section }),
  closeConfig: () => set({ config: false }),
  setInjectSheet: (injectSheet) => set({ injectSheet }),
}));

export function usePanels<T>(selector: (s: PanelState) => T): T {
  return useStore(panelStore, selector);
}
