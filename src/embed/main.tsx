/**
 * The embed page (embed.html): one run with minimal chrome, options from its URL (options.ts),
 * commands from the host page over postMessage (bridge.ts). It never touches history or storage, so
 * it runs in `sandbox="allow-scripts"` frames and restrictive webviews alike.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { parseEmbedOptions } from '../share/embedOptions';
import { shareStore } from '../share/shareState';
import { openScenario, resolveSource } from '../share/source';
import { DEFAULT_PRESET_ID, scenarioTexts, validateScenario } from '../sim';
import { runTiming, simStore } from '../store/simStore';
import { browserLanguages, preferredLanguage } from '../ui/preferredLanguage';
import { loadPresetTextsKo, presetTextsKoIfLoaded } from '../ui/usePresetTexts';
import { startBridge } from './bridge';
import { EmbedApp } from './EmbedApp';
import { startPlayer } from './player';
import '../ui/styles.css';
import './embed.css';

const options = parseEmbedOptions(window.location.search, window.location.hash);
const root = document.documentElement;
if (options.theme !== 'system') {
  root.dataset.theme = options.theme;
  root.style.colorScheme = options.theme;
}
if (options.height) root.style.setProperty('--embed-height', `${options.height}px`);
root.classList.toggle('eos-fixed-height', options.height !== null);

// every run yields to the page from its first step: no run makes a long task
runTiming.syncSteps = 0;
simStore.getState().setSpeed(options.speed);
// a preset id opens in the reader's language; a share link's own language wins
simStore.getState().setLanguage(preferredLanguage(browserLanguages()));

/** Loads a source; returns an error sentence or null. */
function load(source: { scenario: unknown } | { link: string }, step: number | undefined): string | null {
  if ('scenario' in source) {
    const v = validateScenario(source.scenario);
    if (!v.ok)
      return `the scenario is not valid: ${v.errors
        .slice(0, 5)
        .map((e) => `${e.path}: ${e.message}`)
        .join('; ')}`;
    openScenario(simStore, v.resolved.scenario, step === undefined ? {} : { step });
    return null;
  }
  const r = resolveSource(source.link);
  if (!r.ok) return r.error.message;
  openScenario(simStore, r.scenario, step === undefined ? r.view : { ...r.view, step });
  return null;
}

const initial = resolveSource(options.link ?? options.preset ?? DEFAULT_PRESET_ID);
if (initial.ok) openScenario(simStore, initial.scenario, options.step === null ? initial.view : { ...initial.view, step: options.step });
else shareStore.getState().setLinkError(initial.error);

startPlayer(simStore);
/** The title the embed shows, so the host page can label the frame with the same words. */
function shownTitle(): string {
  const { scenario, language } = simStore.getState();
  return scenario ? (scenarioTexts(scenario, language, presetTextsKoIfLoaded()).title ?? scenario.id ?? '') : '';
}

// a Korean embed announces its Korean title in `ready`: load those words first (a local chunk)
if (simStore.getState().language === 'ko') void loadPresetTextsKo().finally(() => startBridge(simStore, { load, title: shownTitle }));
else startBridge(simStore, { load, title: shownTitle });

const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
if (options.autoplay && !reducedMotion) {
  const begin = () => simStore.getState().setPlaying(true);
  if (simStore.getState().status === 'ready') begin();
  else {
    const stop = simStore.subscribe((s) => {
      if (s.status !== 'ready') return;
      stop();
      begin();
    });
  }
}

const mount = document.getElementById('root');
if (mount)
  createRoot(mount).render(
    <StrictMode>
      <EmbedApp />
    </StrictMode>,
  );
