/**
 * The workspace, the page's second stage: the store, the engine and every panel. Loaded by
 * src/main.tsx once the first stage (src/shell/) shows the URL's run from the engine worker; the
 * store runs the same scenario again on this thread, and when it is ready the app replaces the first
 * stage in the page's React root (`takeOver`), at the step the person is at, still playing if it was.
 */
import { StrictMode } from 'react';
import { startHashSync } from './share/hashSync';
import { presetAddressFromQuery } from './share/presetFragment';
import { shareStore } from './share/shareState';
import type { ShellHandoff } from './shell/handoff';
import type { EngineClient } from './store/engine/engineClient';
import { runTiming, simStore } from './store/simStore';
import { App } from './ui/App';
import { PAGE_LANDING } from './ui/landing';
import { workspaceStaging } from './ui/layout/stages';
import { followViewsInHistory, showViewsOf, VIEW_PREFIXES } from './ui/urlViews';

declare global {
  interface Window {
    /**
     * Test and debugging hook: browser tests drive the store directly (e2e/inject.test.ts), and the
     * engine in its Web Worker (e2e/engine-worker.test.ts; its chunks load when this is called).
     */
    __eosLab?: { store: typeof simStore; engine?: () => Promise<EngineClient> };
  }
}

// every run yields to the page from its first step: no run makes a long task (load() returns while it runs)
runTiming.syncSteps = 0;
// and lands in tasks: the trace, then what its panels read over the whole run, then the first render
runTiming.landing = PAGE_LANDING;
// and its workspace renders in stages: the playback bar and the timeline first, the other panels in later tasks
workspaceStaging.enabled = true;
/**
 * What the URL asks for, opened in a task after this module's: evaluating the page's chunk is a task
 * of its own (~40–60 ms on a cold load), and a load builds its run and computes its first slice
 * (~25 ms) — together they were the boot's one long task.
 */
function openTheUrl(): void {
  // the embed's query form (?preset=<id>&step=<n>) opens here as its fragment would
  const { pathname, search, hash } = window.location;
  const address = presetAddressFromQuery(pathname, search, hash);
  if (address) window.history.replaceState(window.history.state, '', address);
  // [share-embed] opens the URL's share link, #gallery or the default scenario, then keeps the URL in step
  startHashSync(simStore, window, { opensElsewhere: VIEW_PREFIXES });
  // [your-data] a dump link (#dump=1.…) or an A/B link (#ab=1.…) opens its view over the default scenario,
  // and Back, Forward or a pasted link opens or closes them as that entry's address says (urlViews.ts)
  showViewsOf(window.location.hash);
  followViewsInHistory(window);
}
/**
 * The store's run is there to show: ready, stopped by a budget or invalid, or a link that cannot be
 * opened; or under way while the first stage shows nothing yet (a long run: the workspace's progress
 * line has Cancel).
 */
function settled(shell: ShellHandoff): boolean {
  const { status } = simStore.getState();
  if (status === 'running') return shell.pending();
  return status === 'ready' || status === 'error' || (status === 'idle' && shareStore.getState().linkError !== null);
}

/**
 * Takes over from the first stage: opens the URL in the store (a task after this one), and when its
 * run is ready gives it the first stage's step, selection, speed and language, renders the app in
 * the first stage's place (with the playback bar and the timeline in its first render, so the run
 * never leaves the screen) and then resumes playback if it was on.
 */
export function takeOver(shell: ShellHandoff): void {
  // the language the first stage shows (the link's, else the browser's); a share link's own wins (hashSync)
  simStore.getState().setLanguage(shell.language());
  let started = false;
  const handOver = () => {
    if (started || !settled(shell)) return;
    started = true;
    stopWatching();
    stopWatchingLinks();
    const at = shell.stop();
    const s = simStore.getState();
    if (at.runShown && s.status === 'ready') {
      s.setSkipIdle(at.skipIdle);
      s.setSpeed(at.speed);
      s.seek(at.step);
      if (at.selection) s.select(at.selection);
    }
    if (at.language !== s.language) s.setLanguage(at.language);
    workspaceStaging.first = 2;
    void shell
      .replaceWith(
        <StrictMode>
          <App />
        </StrictMode>,
      )
      .then(() => {
        workspaceStaging.first = 1;
        shell.release();
        window.__eosLab = { store: simStore, engine: () => import('./store/engine/engineClient').then((m) => m.workerEngine()) };
        if (at.runShown && at.playing && simStore.getState().status === 'ready') simStore.getState().setPlaying(true);
      });
  };
  let stopWatching = () => {};
  let stopWatchingLinks = () => {};
  setTimeout(() => {
    openTheUrl();
    stopWatching = simStore.subscribe(handOver);
    stopWatchingLinks = shareStore.subscribe(handOver);
    handOver();
  }, 0);
}
