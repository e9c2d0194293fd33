/**
 * A test-only page (never part of the production build): the real App and store, plus a handle on
 * window so that browser tests can load any scenario through the store and compute traceHashes
 * with the engine as Chromium runs it. Built by e2e/harness/build.ts.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { runScenario } from '../../src/sim/run';
import { simStore } from '../../src/store/simStore';
import { App } from '../../src/ui/App';
import '../../src/ui/styles.css';

export interface Harness {
  traceHash(scenario: unknown): string;
  load(scenario: unknown): void;
  seek(step: number): void;
  state(): { steps: number; errors: number; title: string | null };
}

const harness: Harness = {
  traceHash: (scenario) => runScenario(scenario).traceHash,
  load: (scenario) => simStore.getState().load(scenario),
  seek: (step) => simStore.getState().seek(step),
  state: () => {
    const s = simStore.getState();
    return { steps: s.trace?.steps.length ?? 0, errors: s.errors?.length ?? 0, title: s.scenario?.title ?? null };
  },
};
(window as unknown as { __eosHarness: Harness }).__eosHarness = harness;

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
