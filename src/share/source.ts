/**
 * Opening a scenario from what a person (or a host page) hands us — a share link, a whole URL with
 * one, or a preset id — and landing on the link's view once the run is ready.
 */
import { decodeLink, findPreset, type LinkError, type LinkView, looksLikeLink, PRESETS, type Scenario } from '../sim';
import type { createSimStore } from '../store/simStore';
import { shareStore } from './shareState';

type SimStore = ReturnType<typeof createSimStore>;

export type ResolvedSource =
  | { readonly ok: true; readonly scenario: Scenario; readonly view: Partial<LinkView>; readonly migratedFrom?: number }
  | { readonly ok: false; readonly error: LinkError };

/** A share link or a preset id → a scenario and a view, or a typed error. Never throws. */
export function resolveSource(text: string): ResolvedSource {
  const t = text.trim();
  if (looksLikeLink(t)) {
    const d = decodeLink(t);
    if (!d.ok) return d;
    return d.migratedFrom === undefined
      ? { ok: true, scenario: d.scenario, view: d.view }
      : { ok: true, scenario: d.scenario, view: d.view, migratedFrom: d.migratedFrom };
  }
  const preset = findPreset(t);
  if (preset) return { ok: true, scenario: preset.scenario, view: {} };
  const shown = t.length > 40 ? `${t.slice(0, 40)}…` : t;
  return {
    ok: false,
    error: {
      kind: 'invalid',
      message: `"${shown}" is neither an EOS Lab share link (it would contain "#s=") nor the id of a shipped scenario (such as ${PRESETS.slice(
        0,
        3,
      )
        .map((p) => p.id)
        .join(', ')}).`,
    },
  };
}

/**
 * Loads a scenario into the store (clearing a bad-link message) and lands on a view: the step right away, the selection and
 * language once the run is ready (a long run finishes in slices, and load() clears the selection).
 */
export function openScenario(store: SimStore, scenario: unknown, view: Partial<LinkView> = {}): void {
  // whatever was wrong with the last link, the person has moved on
  shareStore.getState().setLinkError(null);
  shareStore.getState().setMigratedFrom(null);
  const s = store.getState();
  if (view.language) s.setLanguage(view.language);
  if (view.skipIdle !== undefined) s.setSkipIdle(view.skipIdle);
  s.load(scenario, view.step === undefined ? {} : { step: view.step });
  const selection = view.selection;
  if (!selection) return;
  if (store.getState().status === 'ready') {
    store.getState().select(selection);
    return;
  }
  const stop = store.subscribe((st) => {
    if (st.status === 'running') return;
    stop();
    if (st.status === 'ready') st.select(selection);
  });
}
