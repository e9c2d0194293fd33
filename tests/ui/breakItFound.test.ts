/**
 * Break it's list of counterexamples (the store, with its workers replaced by stand-ins that answer
 * as search.worker.ts does): each shard runs the configuration alone, so when the configuration by
 * itself breaks the property every worker reports the same counterexample — the panel lists it once,
 * and counts the configuration alone once in the schedules tried.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Counterexample, SearchProgress, SearchResult } from '../../src/sim';
import { findPreset } from '../../src/sim/presets';
import type { FromWorker, ToWorker } from '../../src/ui/search/protocol';

const workers: FakeWorker[] = [];
class FakeWorker {
  onmessage: ((e: MessageEvent<FromWorker>) => void) | null = null;
  readonly received: ToWorker[] = [];
  constructor() {
    workers.push(this);
  }
  postMessage(m: ToWorker) {
    this.received.push(m);
  }
  terminate() {}
  answer(m: FromWorker) {
    this.onmessage?.({ data: m } as MessageEvent<FromWorker>);
  }
}

beforeEach(() => {
  workers.length = 0;
  vi.stubGlobal('Worker', FakeWorker);
  // five cores: four workers (one core is left to the page)
  vi.stubGlobal('navigator', { hardwareConcurrency: 5 });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const progress: SearchProgress = { tried: 1, collapsed: 0, k: 0, phase: 'exhaustive', levelTotal: 1, levelTried: 1 };
const configurationAlone: Counterexample = {
  faults: [],
  k: 0,
  steps: [],
  violation: { property: 'any', layer: 'log', subject: 'orders', status: 'more-than-once', eventIds: ['evt-789'], sentence: 'x' },
  traceHash: 'h',
  runSteps: 51,
  order: [0],
  via: 'exhaustive',
};
const oneFault: Counterexample = { ...configurationAlone, faults: [{ type: 'crash', target: 'billing', at: 10 }], k: 1, order: [1, 5, 0] };
const result: SearchResult = {
  counterexample: configurationAlone,
  tried: 1,
  collapsed: 0,
  completeUpTo: 0,
  maxFaults: 1,
  budgetExhausted: true,
};

describe('Break it: counterexamples found', () => {
  it('lists a counterexample every worker reports once, and different ones each once, shortest first', async () => {
    const { breakItStore } = await import('../../src/ui/search/breakItStore');
    const scenario = findPreset('opening-story')?.scenario;
    if (!scenario) throw new Error('opening-story');
    breakItStore.getState().show(scenario);
    breakItStore.getState().start();
    expect(workers.length).toBe(4);
    for (const w of workers) w.answer({ type: 'found', counterexample: configurationAlone, link: '#s=1.alone', progress });
    // while they run, the configuration alone counts once too
    expect(breakItStore.getState().tried).toBe(1);
    workers[2]?.answer({ type: 'found', counterexample: oneFault, link: '#s=1.crash', progress: { ...progress, tried: 3, k: 1 } });
    expect(breakItStore.getState().tried).toBe(3);
    expect(breakItStore.getState().found.map((f) => f.link)).toEqual(['#s=1.alone', '#s=1.crash']);
    for (const w of workers) w.answer({ type: 'done', result });
    expect(breakItStore.getState().running).toBe(false);
    expect(breakItStore.getState().found.length).toBe(2);
    // four workers each ran the configuration alone: one schedule tried, as the answer says
    expect(breakItStore.getState().result?.tried).toBe(1);
    expect(breakItStore.getState().tried).toBe(1);
    breakItStore.getState().hide();
  });

  it('counts the schedules tried with the configuration alone once, whichever workers have run it', async () => {
    const { mergedTried } = await import('../../src/ui/search/breakItStore');
    expect(mergedTried([])).toBe(0);
    expect(mergedTried([0, 0])).toBe(0);
    expect(mergedTried([1, 0])).toBe(1);
    expect(mergedTried([1, 1])).toBe(1);
    expect(mergedTried([270, 269])).toBe(538);
    expect(mergedTried([5, 0, 4])).toBe(8);
  });
});
