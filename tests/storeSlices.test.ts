/**
 * The page's runs (src/store/simStore.ts with runTiming.syncSteps = 0, as src/page.tsx and the
 * embed set it): load() returns while the run is under way, each slice gives the page back its
 * thread, and a seek made meanwhile is where the run lands. The trace is the one runScenario makes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PRESETS } from '../src/sim/presets';
import { runScenario } from '../src/sim/run';
import { replayTo } from '../src/sim/trace/trace';
import { createSimStore, runTiming } from '../src/store/simStore';

const preset = PRESETS.find((p) => p.id === 'late-duplicate-after-expiry');

afterEach(() => {
  runTiming.syncSteps = 8000;
});

describe('runs in slices from the first step', () => {
  it('returns from load() before the run is done, lands where a seek asked, with the same trace', async () => {
    runTiming.syncSteps = 0;
    const store = createSimStore();
    store.getState().load(preset?.scenario);
    expect(store.getState().status).toBe('running');
    expect(store.getState().progress).toBeLessThan(5000);
    let slices = 0;
    store.getState().seek(40);
    while (store.getState().status === 'running') {
      slices++;
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(slices).toBeGreaterThan(1);
    const { trace, step, view } = store.getState();
    const expected = runScenario(preset?.scenario);
    expect(trace?.traceHash).toBe(expected.traceHash);
    expect(trace?.steps.length).toBe(expected.steps.length);
    expect(step).toBe(40);
    expect(view?.time).toBe(replayTo(expected, 40).time);
  });

  it("an edit's fork lands when fork() returns, so the panel that made it can confirm it", async () => {
    runTiming.syncSteps = 0;
    const store = createSimStore();
    store.getState().load(preset?.scenario);
    while (store.getState().status === 'running') await new Promise((r) => setTimeout(r, 0));
    store.getState().seek(100);
    const edited = { ...(preset?.scenario as object), title: 'edited' };
    store.getState().fork(() => edited as never);
    expect(store.getState().status).toBe('ready');
    expect(store.getState().scenario?.title).toBe('edited');
    expect(store.getState().step).toBe(100);
  });

  it('by default (tests, scripts) a preset is ready when load() returns', () => {
    const store = createSimStore();
    store.getState().load(preset?.scenario);
    expect(store.getState().status).toBe('ready');
  });
});
