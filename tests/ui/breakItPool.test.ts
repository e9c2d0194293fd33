/**
 * Break it keeps its workers between searches (src/ui/search/breakItStore.ts): a search whose workers
 * all answered done leaves them idle, and the next search starts in them; Stop, a search still
 * running when the panel is opened on another scenario or closed, and a long idle time let them go.
 * And the worker itself (search.worker.ts): each search has its own control, so the best
 * counterexample of one search does not cut the next one short.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SearchProgress, SearchResult } from '../../src/sim';
import { findPreset } from '../../src/sim/presets';
import { goalFor, spaceOf } from '../../src/sim/search/presetGoals';
import type { FromWorker, ToWorker } from '../../src/ui/search/protocol';

const workers: FakeWorker[] = [];
class FakeWorker {
  onmessage: ((e: MessageEvent<FromWorker>) => void) | null = null;
  readonly received: ToWorker[] = [];
  terminated = false;
  constructor() {
    workers.push(this);
  }
  postMessage(m: ToWorker) {
    this.received.push(m);
  }
  terminate() {
    this.terminated = true;
  }
  answer(m: FromWorker) {
    this.onmessage?.({ data: m } as MessageEvent<FromWorker>);
  }
}

const progress: SearchProgress = { tried: 4, collapsed: 0, k: 1, phase: 'exhaustive', levelTotal: 4, levelTried: 4 };
const result = (tried: number): SearchResult => ({
  counterexample: null,
  tried,
  collapsed: 0,
  completeUpTo: 1,
  maxFaults: 1,
  budgetExhausted: false,
});

function scenarioOf(id: string) {
  const s = findPreset(id)?.scenario;
  if (!s) throw new Error(id);
  return s;
}

describe('Break it: the workers kept between searches', () => {
  beforeEach(() => {
    workers.length = 0;
    vi.stubGlobal('Worker', FakeWorker);
    // three cores: two workers (one core is left to the page)
    vi.stubGlobal('navigator', { hardwareConcurrency: 3 });
  });
  afterEach(async () => {
    const { breakItStore } = await import('../../src/ui/search/breakItStore');
    breakItStore.getState().stop();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('a finished search leaves its workers for the next one, on this scenario or another', async () => {
    const { breakItStore } = await import('../../src/ui/search/breakItStore');
    breakItStore.getState().show(scenarioOf('opening-story'));
    breakItStore.getState().start();
    expect(workers.length).toBe(2);
    for (const w of workers) w.answer({ type: 'done', result: result(5) });
    expect(breakItStore.getState().running).toBe(false);
    expect(breakItStore.getState().result?.tried).toBe(9);
    expect(workers.some((w) => w.terminated)).toBe(false);

    // the panel closed and opened on another preset: the idle workers stay
    breakItStore.getState().hide();
    breakItStore.getState().show(scenarioOf('lost-ack-no-idempotence'));
    breakItStore.getState().start();
    expect(workers.length).toBe(2);
    for (const w of workers) expect(w.received.filter((m) => m.type === 'start').length).toBe(2);
    const second = workers[0]?.received.at(-1);
    expect(second?.type === 'start' && (second.scenario as { id: string }).id).toBe('lost-ack-no-idempotence');
    // the second search counts from nothing
    expect(breakItStore.getState().tried).toBe(0);
    workers[0]?.answer({ type: 'progress', progress });
    expect(breakItStore.getState().tried).toBe(4);
    for (const w of workers) w.answer({ type: 'done', result: result(3) });
    expect(breakItStore.getState().result?.tried).toBe(5);
  });

  it('leaves one core to the page: two cores get one worker, never fewer than one nor more than four', async () => {
    const { breakItStore, workerCount } = await import('../../src/ui/search/breakItStore');
    expect([1, 2, 3, 4, 5, 8, 16].map((cores) => workerCount(cores))).toEqual([1, 1, 2, 3, 4, 4, 4]);
    vi.stubGlobal('navigator', { hardwareConcurrency: 2 });
    breakItStore.getState().show(scenarioOf('opening-story'));
    breakItStore.getState().start();
    expect(workers.length).toBe(1);
    expect(breakItStore.getState().workers).toBe(1);
    const start = workers[0]?.received[0];
    expect(start?.type === 'start' && start.config.shard).toEqual({ index: 0, count: 1 });
  });

  it('opening the panel starts the workers once the page is idle; Start runs in them', async () => {
    const { breakItStore } = await import('../../src/ui/search/breakItStore');
    breakItStore.getState().show(scenarioOf('opening-story'));
    expect(workers.length).toBe(0);
    await new Promise((r) => setTimeout(r, 10));
    expect(workers.length).toBe(2);
    expect(workers.every((w) => w.received.length === 0 && !w.terminated)).toBe(true);
    breakItStore.getState().start();
    expect(workers.length).toBe(2);
    for (const w of workers) expect(w.received.map((m) => m.type)).toEqual(['start']);
    // closed before they were started: none are
    breakItStore.getState().stop();
    workers.length = 0;
    breakItStore.getState().show(scenarioOf('opening-story'));
    breakItStore.getState().hide();
    await new Promise((r) => setTimeout(r, 10));
    expect(workers.length).toBe(0);
  });

  it('Stop terminates the workers at once; the next search starts in new ones', async () => {
    const { breakItStore } = await import('../../src/ui/search/breakItStore');
    breakItStore.getState().show(scenarioOf('opening-story'));
    breakItStore.getState().start();
    breakItStore.getState().stop();
    expect(workers.map((w) => w.terminated)).toEqual([true, true]);
    breakItStore.getState().start();
    expect(workers.length).toBe(4);
    expect(workers.slice(2).some((w) => w.terminated)).toBe(false);
  });

  it('a search still running is terminated when the panel opens on another scenario', async () => {
    const { breakItStore } = await import('../../src/ui/search/breakItStore');
    breakItStore.getState().show(scenarioOf('opening-story'));
    breakItStore.getState().start();
    // one worker finished, the other still searches
    workers[0]?.answer({ type: 'done', result: result(5) });
    breakItStore.getState().show(scenarioOf('lost-ack-no-idempotence'));
    expect(workers.map((w) => w.terminated)).toEqual([true, true]);
    breakItStore.getState().start();
    expect(workers.length).toBe(4);
  });

  it('idle workers are let go after five minutes', async () => {
    vi.useFakeTimers();
    const { breakItStore } = await import('../../src/ui/search/breakItStore');
    breakItStore.getState().show(scenarioOf('opening-story'));
    breakItStore.getState().start();
    for (const w of workers) w.answer({ type: 'done', result: result(5) });
    vi.advanceTimersByTime(4 * 60_000);
    expect(workers.some((w) => w.terminated)).toBe(false);
    vi.advanceTimersByTime(60_000 + 1);
    expect(workers.map((w) => w.terminated)).toEqual([true, true]);
    breakItStore.getState().start();
    expect(workers.length).toBe(4);
  });
});

describe('Break it: a kept worker runs each search with a control of its own', () => {
  const posted: FromWorker[] = [];
  const self: { postMessage: (m: FromWorker) => void; onmessage: ((e: MessageEvent<ToWorker>) => void) | null } = {
    postMessage: (m) => posted.push(m),
    onmessage: null,
  };

  beforeEach(() => {
    posted.length = 0;
    vi.stubGlobal('self', self);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const done = async () => {
    for (let i = 0; i < 2000; i++) {
      const d = posted.find((m) => m.type === 'done');
      if (d?.type === 'done') return d.result;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('the worker did not finish');
  };
  const start = (id: string) => {
    const goal = goalFor(id);
    const m: ToWorker = {
      type: 'start',
      scenario: scenarioOf(id),
      config: { property: goal.property, maxFaults: 1, space: spaceOf(goal) },
      keepFaults: goal.keepFaults ?? false,
    };
    self.onmessage?.({ data: m } as MessageEvent<ToWorker>);
  };

  it("another worker's best counterexample bounds its search, not the next one", async () => {
    await import('../../src/ui/search/search.worker');
    // the first search is told that another worker found the configuration alone breaking it: from its
    // next slice on it tries nothing ordered after that (how far its first slice got depends on the machine)
    start('at-least-once-consumer-crash');
    const best: ToWorker = { type: 'best', order: [0] };
    self.onmessage?.({ data: best } as MessageEvent<ToWorker>);
    const first = await done();
    expect(first.tried).toBeGreaterThanOrEqual(1);

    // the next search in the same worker is not bounded by it: it finds the crash between processing
    // and commit
    posted.length = 0;
    start('at-least-once-consumer-crash');
    const second = await done();
    expect(second.counterexample?.k).toBe(1);
    expect(second.counterexample?.faults[0]?.type).toBe('crash');
  });
});
