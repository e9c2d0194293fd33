/**
 * The embed page (embed.html): one run with minimal chrome, options from its URL (options.ts),
 * commands from the host page over postMessage (bridge.ts). It never touches history or storage, so
 * it runs in `sandbox="allow-scripts"` frames and restrictive webviews alike.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { parseEmbedOptions } from '../share/embedOptions';
import { shareStore } from '../share/shareState';
import { DEFAULT_PRESET_ID } from '../sim';
import { workspaceStaging } from '../ui/layout/stages';
import { browserLanguages, preferredLanguage } from '../ui/preferredLanguage';
import { startBridge } from './bridge';
import { EmbedApp } from './EmbedApp';
import { embedStore } from './embedStore';
import { followFragment } from './fragment';
import { invalidSentence, openScenario, openSource } from './open';
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

// a run's timeline renders a stage after its other panels (EmbedApp's RunPanels)
workspaceStaging.enabled = true;
// the engine runs in its own worker (embedEngine.ts): the page's thread only draws what it answers
embedStore.getState().setSpeed(options.speed);
// a preset id opens in the language `lang` asks for, else the reader's; a share link's own language wins
const asked = options.language;
embedStore.getState().setLanguage(asked && 'language' in asked ? asked.language : preferredLanguage(browserLanguages()));
// the document speaks the run's language (a share link's, `lang`'s or the reader's, and whatever a
// host's `load` brings later), so a screen reader reads Korean as Korean: embed.html says `en`
const followLanguage = (language: string) => {
  if (root.lang !== language) root.lang = language;
};
followLanguage(embedStore.getState().language);
embedStore.subscribe((s) => followLanguage(s.language));
// a language the embed does not speak (`lang=fr`) is said, in the language it opened in
if (asked && 'unsupported' in asked) shareStore.getState().setLanguageNotSupported(asked.unsupported);

/** Loads a source for a host's `load`; resolves with an error sentence or null. */
async function load(source: { scenario: unknown } | { link: string }, step: number | undefined): Promise<string | null> {
  if ('scenario' in source) return invalidSentence(await openScenario(embedStore, source.scenario, step === undefined ? {} : { step }));
  return openSource(embedStore, source.link, step, false);
}

void openSource(embedStore, options.link ?? options.preset ?? DEFAULT_PRESET_ID, options.step ?? undefined);
// a host that changes the frame's fragment later (a docs page's "next scenario") gets the new scenario
followFragment();

startPlayer(embedStore);
/** The title the embed shows, so the host page can label the frame with the same words. */
function shownTitle(): string {
  const { scenario, run, language } = embedStore.getState();
  return run?.texts[language].title ?? scenario?.id ?? '';
}

startBridge(embedStore, { load, title: shownTitle });

const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
if (options.autoplay && !reducedMotion) {
  const begin = () => embedStore.getState().setPlaying(true);
  if (embedStore.getState().status === 'ready') begin();
  else {
    const stop = embedStore.subscribe((s) => {
      if (s.status !== 'ready') return;
      stop();
      begin();
    });
  }
}

/**
 * React's root in a task after this script's: evaluating the script, reading the options and starting
 * the engine's worker (openSource above) were one task with it, 20–30 ms of CPU on this machine, of
 * which a new root's event listeners (React listens to every event it supports: ~10 ms) were a third.
 */
function mount(): void {
  const el = document.getElementById('root');
  if (el)
    createRoot(el).render(
      <StrictMode>
        <EmbedApp />
      </StrictMode>,
    );
}
setTimeout(mount, 0);
