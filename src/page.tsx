/**
 * The app: the store, the engine and every panel. Loaded by src/main.tsx after index.html has painted
 * its skeleton; rendering the app replaces the skeleton.
 */
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { startHashSync } from './share/hashSync';
import { presetAddressFromQuery } from './share/presetFragment';
import type { EngineClient } from './store/engine/engineClient';
import { runTiming, simStore } from './store/simStore';
import { App } from './ui/App';
import { PAGE_LANDING } from './ui/landing';
import { workspaceStaging } from './ui/layout/stages';
import { browserLanguages, preferredLanguage } from './ui/preferredLanguage';
import { followViewsInHistory, showViewsOf, VIEW_PREFIXES } from './ui/urlViews';
import './ui/styles.css';

declare global {
  interface Window {
    /**
     * Test and debugging hook: browser tests drive the store directly (e2e/inject.test.ts), and the
     * engine in its Web Worker (e2e/engine-worker.test.ts; its chunks load when this is called).
     */
    __eosLab?: { store: typeof simStore; engine?: () => Promise<EngineClient> };
  }
}

window.__eosLab = { store: simStore, engine: () => import('./store/engine/engineClient').then((m) => m.workerEngine()) };
// every run yields to the page from its first step: no run makes a long task (load() returns while it runs)
runTiming.syncSteps = 0;
// and lands in tasks: the trace, then what its panels read over the whole run, then the first render
runTiming.landing = PAGE_LANDING;
// and its workspace renders in stages: the playback bar and the timeline first, the other panels in later tasks
workspaceStaging.enabled = true;
// a browser set to Korean opens in Korean; a share link's own language wins (hashSync opens it next)
simStore.getState().setLanguage(preferredLanguage(browserLanguages()));
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
setTimeout(openTheUrl, 0);
const root = document.getElementById('root');
// the first render as a transition: React renders it in slices of a few ms and yields between them,
// so mounting the whole app (React DOM's first, cold render: ~45 ms) is no long task
if (root) {
  const reactRoot = createRoot(root);
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
