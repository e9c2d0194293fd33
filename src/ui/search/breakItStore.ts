/**
 * The Break it panel's state and its workers: one dedicated Web Worker per core but the page's (at
 * least one, at most 4), each running its shard of the search; a counterexample one finds is sent to
 * the others, which then stop at schedules ordered after it. Nothing of the search runs on the
 * page's thread.
 *
 * The workers are kept from one search to the next: a search whose workers all finished leaves them
 * idle, and the next one — of this scenario or another — starts in them at once, with the engine's
 * code already loaded and compiled (a cold worker spends the first second or so of a search on that).
 * Opening the panel starts them (when the page is idle), so a first Start does not wait for them to
 * load. Idle workers are let go after IDLE_MS. Stop, an error, and opening or closing the panel while
 * a search runs terminate them: Stop must be immediate even inside a long schedule.
 */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { shareStore, useShare } from '../../share/shareState';
import {
  type Counterexample,
  compareOrder,
  encodeLink,
  type FaultKind,
  type LinkLanguage,
  type LinkSearch,
  linkSearchResult,
  type Property,
  type Scenario,
  type SearchResult,
} from '../../sim';
import type { FromWorker, ToWorker } from './protocol';

export interface FoundItem {
  readonly counterexample: Counterexample;
  readonly link: string;
}

export interface BreakItState {
  readonly open: boolean;
  readonly scenario: Scenario | null;
  readonly property: Property;
  readonly maxFaults: number;
  readonly kinds: readonly FaultKind[];
  /** Only faults of these processes (a preset's goal may narrow it); all when null. */
  readonly processes: readonly string[] | null;
  /** The scenario's scripted faults stay in the configuration searched (a preset whose faults are its workload). */
  readonly keepFaults: boolean;
  readonly running: boolean;
  readonly workers: number;
  readonly tried: number;
  readonly perSecond: number;
  readonly k: number;
  readonly found: readonly FoundItem[];
  /** Set when every worker finished (or failed). */
  readonly result: SearchResult | null;
  readonly stopped: boolean;
  readonly error: string | null;
  /** What the link this search was opened from recorded (shown until the search runs here). */
  readonly recorded: LinkSearch['result'] | null;
  show(scenario: Scenario, settings?: BreakItSettings): void;
  hide(): void;
  configure(patch: Partial<Pick<BreakItState, 'property' | 'maxFaults' | 'kinds'>>): void;
  start(): void;
  stop(): void;
}

export interface BreakItSettings {
  readonly property?: Property;
  readonly kinds?: readonly FaultKind[];
  readonly processes?: readonly string[];
  readonly keepFaults?: boolean;
  readonly maxFaults?: number;
  readonly recorded?: LinkSearch['result'];
}

let pool: Worker[] = [];
/** The workers finished their last search (each answered done): the next search may run in them. */
let poolIdle = false;
let idleTimer: ReturnType<typeof setTimeout> | null = null;
/** How long idle workers are kept for another search (each holds a copy of the engine). */
const IDLE_MS = 5 * 60_000;

const idle = {
  running: false,
  tried: 0,
  perSecond: 0,
  k: 0,
  found: [],
  result: null,
  stopped: false,
  error: null,
  workers: 0,
  recorded: null,
};

/**
 * One worker per core but the page's own (at least one, at most four). A worker keeps more than a
 * core busy — V8 compiles and collects for it on helper threads — so with a worker on every core the
 * page's thread waits for a core and its renders stretch into long tasks; on two cores a second
 * worker made the search no faster (docs/search.md, "Workers").
 */
export function workerCount(cores = typeof navigator !== 'undefined' ? navigator.hardwareConcurrency || 2 : 2): number {
  return Math.max(1, Math.min(4, cores - 1));
}

function terminate(): void {
  for (const w of pool) w.terminate();
  pool = [];
  poolIdle = false;
  clearIdleTimer();
}

function clearIdleTimer(): void {
  if (idleTimer !== null) clearTimeout(idleTimer);
  idleTimer = null;
}

/** Every worker answered done: keep them for the next search, for a while. */
function keepIdle(): void {
  poolIdle = true;
  clearIdleTimer();
  idleTimer = setTimeout(terminate, IDLE_MS);
}

/** Workers still searching are terminated; idle ones are kept. */
function stopRunning(): void {
  if (!poolIdle) terminate();
}

function newWorkers(n: number): Worker[] {
  return Array.from({ length: n }, () => new Worker(new URL('./search.worker.ts', import.meta.url), { type: 'module' }));
}

/** `n` workers for a search: the idle ones of the last search when there are as many, else new ones. */
function workersFor(n: number): Worker[] {
  if (poolIdle && pool.length === n) {
    poolIdle = false;
    clearIdleTimer();
    return pool;
  }
  terminate();
  pool = newWorkers(n);
  return pool;
}

let spawnHandle: { cancel(): void } | null = null;

/**
 * Starts the workers when the panel opens, once the page's thread is idle, so that they load the
 * engine while the reader chooses the property: Start then runs at once. They wait idle (let go
 * after IDLE_MS like any idle workers).
 */
function spawnWhenIdle(): void {
  spawnHandle?.cancel();
  const spawn = () => {
    spawnHandle = null;
    if (pool.length > 0 || typeof Worker === 'undefined') return;
    pool = newWorkers(workerCount());
    keepIdle();
  };
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(spawn, { timeout: 1000 });
    spawnHandle = { cancel: () => cancelIdleCallback(id) };
  } else {
    const id = setTimeout(spawn, 0);
    spawnHandle = { cancel: () => clearTimeout(id) };
  }
}

/** The shortest, earliest first. */
const byOrder = (a: FoundItem, b: FoundItem) => compareOrder(a.counterexample.order, b.counterexample.order);

/**
 * Schedules tried by the workers together: each runs the configuration alone first (the root of its
 * shard), so the root counts once — while they run (a worker that has not reported yet has run no
 * root) and when they are done.
 */
export function mergedTried(counts: readonly number[]): number {
  const started = counts.filter((c) => c > 0).length;
  return counts.reduce((s, c) => s + c, 0) - Math.max(0, started - 1);
}

function merge(results: readonly SearchResult[]): SearchResult {
  const best = results.map((r) => r.counterexample).filter((c): c is Counterexample => c !== null);
  best.sort((a, b) => compareOrder(a.order, b.order));
  return {
    counterexample: best[0] ?? null,
    tried: mergedTried(results.map((r) => r.tried)),
    collapsed: results.reduce((s, r) => s + r.collapsed, 0),
    completeUpTo: Math.min(...results.map((r) => r.completeUpTo)),
    maxFaults: results[0]?.maxFaults ?? 0,
    budgetExhausted: results.some((r) => r.budgetExhausted),
  };
}

export const breakItStore = createStore<BreakItState>()((set, get) => ({
  open: false,
  scenario: null,
  property: { id: 'any' },
  maxFaults: 1,
  kinds: ['crash', 'pause', 'drop', 'delay', 'duplicate'],
  processes: null,
  keepFaults: false,
  ...idle,
  show: (scenario, settings) => {
    stopRunning();
    spawnWhenIdle();
    set({
      open: true,
      scenario,
      ...(settings?.property ? { property: settings.property } : {}),
      ...(settings?.kinds ? { kinds: settings.kinds } : {}),
      processes: settings?.processes ?? null,
      keepFaults: settings?.keepFaults ?? false,
      ...idle,
      ...(settings?.maxFaults !== undefined ? { maxFaults: settings.maxFaults } : {}),
      recorded: settings?.recorded ?? null,
    });
  },
  hide: () => {
    spawnHandle?.cancel();
    spawnHandle = null;
    stopRunning();
    set({ open: false, running: false });
  },
  // other settings than the recorded search's: its answer no longer speaks for them
  configure: (patch) => set({ ...patch, recorded: null }),
  start: () => {
    const { scenario, property, maxFaults, kinds, processes, keepFaults } = get();
    if (!scenario) return;
    const n = workerCount();
    const workers = workersFor(n);
    set({ ...idle, running: true, workers: n });
    const started = performance.now();
    const progress = new Array<{ tried: number; k: number }>(n).fill({ tried: 0, k: 0 });
    const results: (SearchResult | null)[] = new Array(n).fill(null);
    const update = () => {
      const tried = mergedTried(progress.map((p) => p.tried));
      const secs = (performance.now() - started) / 1000;
      set({ tried, k: Math.max(...progress.map((p) => p.k)), perSecond: secs > 0 ? tried / secs : 0 });
    };
    for (const [index, w] of workers.entries()) {
      w.onmessage = (e: MessageEvent<FromWorker>) => {
        const m = e.data;
        if (m.type === 'progress' || m.type === 'found') {
          progress[index] = { tried: m.progress.tried, k: m.progress.k };
          update();
        }
        if (m.type === 'found') {
          // every worker runs the configuration alone: when that breaks the property, each reports it
          set((s) =>
            s.found.some((f) => f.link === m.link)
              ? {}
              : { found: [...s.found, { counterexample: m.counterexample, link: m.link }].sort(byOrder) },
          );
          const best = get().found[0]?.counterexample.order;
          if (best)
            for (const [j, other] of workers.entries())
              if (j !== index) other.postMessage({ type: 'best', order: best } satisfies ToWorker);
        } else if (m.type === 'done') {
          results[index] = m.result;
          progress[index] = { tried: m.result.tried, k: progress[index]?.k ?? 0 };
          update();
          if (results.every((r) => r !== null)) {
            keepIdle();
            const result = merge(results as SearchResult[]);
            // the count shown is the merged one: the configuration alone, which every worker ran, once
            set({ running: false, result, tried: result.tried });
          }
        } else if (m.type === 'error') {
          terminate();
          set({ running: false, error: m.message });
        }
      };
      const msg: ToWorker = {
        type: 'start',
        scenario,
        config: { property, maxFaults, space: { kinds, ...(processes ? { processes } : {}) }, shard: { index, count: n } },
        keepFaults,
      };
      w.postMessage(msg);
    }
  },
  stop: () => {
    terminate();
    set({ running: false, stopped: true });
  },
}));

/** The search as a share link: its settings, and its answer once every worker finished. */
export function searchOf(s: Pick<BreakItState, 'property' | 'maxFaults' | 'kinds' | 'processes' | 'keepFaults' | 'result'>): LinkSearch {
  return {
    property: s.property,
    maxFaults: s.maxFaults,
    kinds: s.kinds,
    ...(s.processes ? { processes: s.processes } : {}),
    ...(s.keepFaults ? { keepFaults: true } : {}),
    ...(s.result ? { result: linkSearchResult(s.result) } : {}),
  };
}

export function searchLinkOf(s: BreakItState, language: LinkLanguage): string | null {
  return s.scenario ? encodeLink(s.scenario, { step: 0, selection: null, language, search: searchOf(s) }) : null;
}

/** Opens Break it as a link recorded it: same settings, its answer shown until the search runs again. */
export function openLinkedSearch(scenario: Scenario, search: LinkSearch): void {
  breakItStore.getState().show(scenario, {
    property: search.property,
    kinds: search.kinds,
    maxFaults: search.maxFaults,
    ...(search.processes ? { processes: search.processes } : {}),
    ...(search.keepFaults ? { keepFaults: true } : {}),
    ...(search.result ? { recorded: search.result } : {}),
  });
}

/** Opens the search a link carried (share state `linkedSearch`), once; the header calls it, so it runs on every page. */
export function useOpenLinkedSearch(): void {
  const linked = useShare((s) => s.linkedSearch);
  useEffect(() => {
    if (!linked) return;
    openLinkedSearch(linked.scenario, linked.search);
    shareStore.getState().setLinkedSearch(null);
  }, [linked]);
}

export function useBreakIt<T>(selector: (s: BreakItState) => T): T {
  return useStore(breakItStore, selector);
}
