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
  runTiming.landing = [];
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

  it("lands in tasks: the page's landing work runs once each, in tasks of its own, before the run is shown", async () => {
    runTiming.syncSteps = 0;
    const seen: { piece: string; steps: number; status: string }[] = [];
    const store = createSimStore();
    const log = (piece: string) => (trace: { steps: { length: number } }) =>
      void seen.push({ piece, steps: trace.steps.length, status: store.getState().status });
    runTiming.landing = [log('a'), (trace) => Promise.resolve().then(() => log('b')(trace))];
    store.getState().load(preset?.scenario);
    let tasks = 0;
    while (store.getState().status === 'running') {
      tasks++;
      const before = seen.length;
      await new Promise((r) => setTimeout(r, 0));
      expect(seen.length - before).toBeLessThanOrEqual(1); // one piece a task
    }
    const expected = runScenario(preset?.scenario);
    expect(seen).toEqual([
      { piece: 'a', steps: expected.steps.length, status: 'running' },
      { piece: 'b', steps: expected.steps.length, status: 'running' },
    ]);
    expect(tasks).toBeGreaterThan(3);
    expect(store.getState().trace?.traceHash).toBe(expected.traceHash);
  });

  it('a load made while a run lands drops that landing', async () => {
    runTiming.syncSteps = 0;
    const store = createSimStore();
    let first = true;
    runTiming.landing = [
      () => {
        if (!first) return;
        first = false;
        store.getState().load(PRESETS[0]?.scenario); // replaces the run landing now
      },
    ];
    store.getState().load(preset?.scenario);
    while (store.getState().status === 'running') await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().scenario?.id).toBe(PRESETS[0]?.scenario.id);
    expect(store.getState().trace?.traceHash).toBe(runScenario(PRESETS[0]?.scenario).traceHash);
  });

  it('by default (tests, scripts) a preset is ready when load() returns', () => {
    const store = createSimStore();
    store.getState().load(preset?.scenario);
    expect(store.getState().status).toBe('ready');
  });
});
