/**
 * Opening a scenario from what a person (or a host page) hands us — a share link, a whole URL with
 * one, or a preset id — and landing on the link's view once the run is ready.
 */
import type { LinkView } from '../sim';
import type { ResolvedLink } from '../store/engine/protocol';
import { resolveLink } from '../store/engine/resolveLink';
import type { createSimStore } from '../store/simStore';
import { shareStore } from './shareState';

type SimStore = ReturnType<typeof createSimStore>;

export type ResolvedSource = ResolvedLink;

/** A share link or a preset id → a scenario and a view, or a typed error. Never throws. */
export const resolveSource: (text: string) => ResolvedSource = resolveLink;

/**
 * Loads a scenario into the store (clearing a bad-link message) and lands on a view: the step right away, the selection and
 * language once the run is ready (a long run finishes in slices, and load() clears the selection).
 */
export function openScenario(store: SimStore, scenario: unknown, view: Partial<LinkView> = {}): void {
  // whatever was wrong with the last link, the person has moved on
  shareStore.getState().setLinkError(null);
  shareStore.getState().setMigratedFrom(null);
  shareStore.getState().setStepPastEnd(null);
  shareStore.getState().setStepNotAStep(null);
  shareStore.getState().setLanguageNotSupported(null);
  const s = store.getState();
  if (view.language) s.setLanguage(view.language);
  if (view.skipIdle !== undefined) s.setSkipIdle(view.skipIdle);
  s.load(scenario, view.step === undefined ? {} : { step: view.step });
  const selection = view.selection;
  const asked = view.step;
  if (!selection && asked === undefined) return;
  // once the run has landed: the selection, and a step past its end said as such (it opens at the last)
  const landed = (st: ReturnType<SimStore['getState']>) => {
    if (st.status !== 'ready') return;
    if (selection) st.select(selection);
    const steps = st.trace?.steps.length;
    if (asked !== undefined && steps !== undefined && asked > steps) shareStore.getState().setStepPastEnd({ asked, steps });
  };
  if (store.getState().status !== 'running') {
    landed(store.getState());
    return;
  }
  const stop = store.subscribe((st) => {
    if (st.status === 'running') return;
    stop();
    landed(st);
  });
}
