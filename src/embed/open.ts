/**
 * Opening what the embed is handed — a share link, a preset id or a scenario document — in its
 * engine's worker, which decodes, validates and runs it. A link that cannot be opened says why as
 * text (the share state's linkError, shown by EmbedApp); a host's `load` gets the sentence back.
 */
import { shareStore } from '../share/shareState';
import type { LinkView } from '../sim';
import type { EmbedStore, LoadResult } from './embedStore';

/** Runs a scenario and lands on the view: the step at once, the selection once the run is on screen. */
export async function openScenario(store: EmbedStore, scenario: unknown, view: Partial<LinkView> = {}): Promise<LoadResult> {
  shareStore.getState().setLinkError(null);
  shareStore.getState().setMigratedFrom(null);
  const s = store.getState();
  if (view.language) s.setLanguage(view.language);
  if (view.skipIdle !== undefined) s.setSkipIdle(view.skipIdle);
  const r = await s.load(scenario, view.step === undefined ? {} : { step: view.step });
  if (r.kind === 'done' && view.selection) store.getState().select(view.selection);
  return r;
}

/**
 * Opens a share link or a preset id (`step` overrides the link's). Resolves with an error sentence
 * when it cannot be opened (shown as the embed's link error when `showError`), or null.
 */
export async function openSource(store: EmbedStore, text: string, step?: number, showError = true): Promise<string | null> {
  const r = await store.getState().resolve(text);
  if (!r.ok) {
    if (showError) shareStore.getState().setLinkError(r.error);
    return r.error.message;
  }
  await openScenario(store, r.scenario, step === undefined ? r.view : { ...r.view, step });
  return null;
}

/** A scenario that is not valid, in one sentence (what a host's `load` gets back). */
export function invalidSentence(result: LoadResult): string | null {
  if (result.kind === 'invalid')
    return `the scenario is not valid: ${result.errors
      .slice(0, 5)
      .map((e) => `${e.path}: ${e.message}`)
      .join('; ')}`;
  return result.kind === 'error' ? result.message : null;
}
