/**
 * Break it: the search for the shortest fault schedule that breaks a property (docs/search.md).
 *
 * Exhaustive first, level by level: the configuration alone (k = 0), then every schedule of one
 * fault, then of two … up to `maxFaults`, each level in the order its faults fire (earliest first), so
 * the first counterexample of the lowest level is the shortest and earliest. A schedule of k faults
 * extends one of k − 1 with a fault enumerated from *that* run, firing after its last fault: a set of
 * faults is tried once, in the order they fire. Collapsed: a schedule whose effect on the run equals
 * its parent's (a no-op fault) or an earlier sibling's (same effect hash) is not extended — its
 * extensions would repeat runs already made — and a schedule that already breaks the property is not
 * extended either (a longer counterexample is not wanted).
 *
 * Then, if asked, random schedules of up to `randomMaxFaults` faults drawn from the configuration's
 * own fault space, each counterexample shrunk to the fewest faults and then to the earliest ones.
 *
 * A generator: the caller drives it one schedule at a time, so a worker can answer messages and the
 * CLI can keep a time budget (nothing here reads a clock). Several workers split the work with
 * `shard`: a schedule of level 1 (by a hash of its fault's key), and everything that extends it,
 * belongs to one worker.
 */
import { stringHash } from '../kernel/hash';
import { Prng, seedPrng } from '../kernel/prng';
import type { FaultSpec } from '../scenario/schema';
import { type Candidate, enumerateFaults, type FaultSpaceOptions } from './faultSpace';
import { checkProperty, type Property, type Violation } from './property';
import { runSchedule, runScheduleFast, type ScheduleVerdict, type SearchBase } from './runner';

export interface SearchConfig {
  readonly property: Property;
  /** The bound of the exhaustive part. */
  readonly maxFaults: number;
  readonly space?: FaultSpaceOptions;
  /** Stop after this many schedules (the budget); the exhaustive result then says it is incomplete. */
  readonly maxSchedules?: number;
  readonly shard?: { readonly index: number; readonly count: number };
  /** Random schedules to try once the exhaustive part found nothing (0: none). */
  readonly randomSchedules?: number;
  readonly randomMaxFaults?: number;
  readonly seed?: number;
}

/** Shared with the driver: another worker's find bounds this one's search. */
export interface SearchControl {
  /** Stop at once. */
  stop?: boolean;
  /** The best counterexample found anywhere: schedules ordered after it are not tried. */
  best?: OrderKey | null;
}

/** Where a schedule stands in the search order: fewer faults first, then earlier ones. */
export type OrderKey = readonly number[];

export interface Counterexample {
  readonly faults: readonly FaultSpec[];
  readonly k: number;
  /** The step at which each fault fires, in the run of the counterexample. */
  readonly steps: readonly number[];
  readonly violation: Violation;
  readonly traceHash: string;
  readonly runSteps: number;
  readonly order: OrderKey;
  readonly via: 'exhaustive' | 'random';
}

export interface SearchProgress {
  /** Schedules run (the configuration alone counts as one). */
  readonly tried: number;
  /** Of those, schedules whose effect repeated their parent's (a no-op fault) or a sibling's. */
  readonly collapsed: number;
  /** The level being searched (faults per schedule); in the random phase, the largest drawn. */
  readonly k: number;
  readonly phase: 'exhaustive' | 'random' | 'done';
  /** Schedules of this level known so far (grows as parents are extended). */
  readonly levelTotal: number;
  readonly levelTried: number;
}

export type SearchEvent =
  | { readonly type: 'progress'; readonly progress: SearchProgress }
  | { readonly type: 'found'; readonly counterexample: Counterexample; readonly progress: SearchProgress }
  | { readonly type: 'done'; readonly result: SearchResult };

export interface SearchResult {
  /** The shortest counterexample this search found, if any. */
  readonly counterexample: Counterexample | null;
  readonly tried: number;
  readonly collapsed: number;
  /** Every schedule of at most this many faults was tried (−1: not even the configuration alone). */
  readonly completeUpTo: number;
  readonly maxFaults: number;
  readonly budgetExhausted: boolean;
}

interface Node {
  readonly candidates: readonly Candidate[];
  /** The step its last fault fires at; its extensions fire after it. */
  readonly afterStep: number;
  readonly order: OrderKey;
}

export function compareOrder(a: OrderKey, b: OrderKey): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

const faultsOf = (cs: readonly Candidate[]) => cs.map((c) => c.fault);

/** Order: the number of faults, then each fault's step and its index among the faults at that step. */
const orderOf = (parent: OrderKey, c: Candidate, index: number): OrderKey => [(parent[0] ?? 0) + 1, ...parent.slice(1), c.step, index];

export function* search(base: SearchBase, config: SearchConfig, control: SearchControl = {}): Generator<SearchEvent, SearchResult> {
  const shard = config.shard ?? { index: 0, count: 1 };
  const budget = config.maxSchedules ?? Number.POSITIVE_INFINITY;
  let tried = 0;
  let collapsed = 0;
  let best: Counterexample | null = null;
  let completeUpTo = -1;
  let budgetExhausted = false;
  let k = 0;
  let levelTotal = 1;
  let levelTried = 0;
  const progress = (phase: SearchProgress['phase'] = 'exhaustive'): SearchProgress => ({
    tried,
    collapsed,
    k,
    phase,
    levelTotal,
    levelTried,
  });
  const beaten = (order: OrderKey) => {
    const b = control.best ?? null;
    const mine = best?.order ?? null;
    return (b !== null && compareOrder(order, b) > 0) || (mine !== null && compareOrder(order, mine) > 0);
  };
  const violated = (run: ScheduleVerdict): Violation | null => checkProperty(config.property, run.verdict, run.endTime);
  const counterexample = (cs: readonly Candidate[], run: ScheduleVerdict, v: Violation, order: OrderKey, via: Counterexample['via']) =>
    ({
      faults: faultsOf(cs),
      k: cs.length,
      steps: cs.map((c) => c.step),
      violation: v,
      traceHash: run.traceHash,
      runSteps: run.steps,
      order,
      via,
    }) satisfies Counterexample;
  const result = (): SearchResult => ({
    counterexample: best,
    tried,
    collapsed,
    completeUpTo,
    maxFaults: config.maxFaults,
    budgetExhausted,
  });

  // k = 0: the configuration alone (every worker runs it: it is the root of every schedule)
  const root = runSchedule(base, []);
  tried++;
  levelTried = 1;
  const v0 = violated(root);
  if (v0) {
    best = counterexample([], root, v0, [0], 'exhaustive');
    completeUpTo = 0;
    yield { type: 'found', counterexample: best, progress: progress() };
    return result();
  }
  completeUpTo = 0;
  yield { type: 'progress', progress: progress() };
  const baseline = enumerateFaults(root, -1, config.space);

  let frontier: Node[] = [{ candidates: [], afterStep: -1, order: [0] }];
  for (k = 1; k <= config.maxFaults && frontier.length > 0; k++) {
    const next: Node[] = [];
    levelTotal = 0;
    levelTried = 0;
    for (const parent of frontier) {
      if (control.stop || budgetExhausted) break;
      if (beaten([k, ...parent.order.slice(1)])) break;
      const parentRun = parent.candidates.length === 0 ? root : runSchedule(base, faultsOf(parent.candidates));
      if (parent.candidates.length > 0) tried++;
      const children = parent.candidates.length === 0 ? baseline : enumerateFaults(parentRun, parent.afterStep, config.space);
      const seen = new Set<string>([parentRun.effectHash]);
      for (let i = 0; i < children.length; i++) {
        const c = children[i] as Candidate;
        // level 1 is split among workers by a hash of each fault's key (faults come in kinds at each
        // instant — a crash, then a pause — so every n-th would give one worker all the pauses);
        // deeper levels follow their level-1 ancestor
        if (k === 1 && (stringHash(c.key) >>> 0) % shard.count !== shard.index) continue;
        levelTotal++;
        const order = orderOf(parent.order, c, i);
        if (beaten(order)) break;
        if (control.stop) break;
        if (tried >= budget) {
          budgetExhausted = true;
          break;
        }
        const cs = [...parent.candidates, c];
        // the child is its parent's run up to the step its new fault fires at: run on from there
        const run = runScheduleFast(base, faultsOf(cs), { run: parentRun, step: c.step });
        tried++;
        levelTried++;
        if (seen.has(run.effectHash)) {
          collapsed++;
          yield { type: 'progress', progress: progress() };
          continue;
        }
        seen.add(run.effectHash);
        const v = violated(run);
        if (v) {
          best = counterexample(cs, run, v, order, 'exhaustive');
          yield { type: 'found', counterexample: best, progress: progress() };
          break;
        }
        next.push({ candidates: cs, afterStep: c.step, order });
        yield { type: 'progress', progress: progress() };
      }
    }
    if (control.stop || budgetExhausted) break;
    if (best || control.best) {
      // the level is finished up to the best counterexample: nothing shorter or earlier is left
      completeUpTo = k - 1;
      return result();
    }
    completeUpTo = k;
    frontier = next;
  }
  if (k > config.maxFaults || frontier.length === 0) completeUpTo = config.maxFaults;

  // random schedules, shrunk
  const rounds = config.randomSchedules ?? 0;
  if (rounds > 0 && !control.stop && !best && baseline.length > 0) {
    const prng = new Prng(seedPrng(((config.seed ?? 1) + shard.index * 7919) >>> 0));
    const maxR = Math.max(1, config.randomMaxFaults ?? 4);
    for (let r = 0; r < rounds && !control.stop && !budgetExhausted; r++) {
      if (tried >= budget) {
        budgetExhausted = true;
        break;
      }
      const size = prng.int(1, Math.min(maxR, baseline.length));
      k = size;
      const picked = new Set<number>();
      while (picked.size < size) picked.add(prng.int(0, baseline.length - 1));
      const cs = [...picked].sort((a, b) => a - b).map((i) => baseline[i] as Candidate);
      const run = runScheduleFast(base, faultsOf(cs));
      tried++;
      const v = violated(run);
      if (!v) {
        yield { type: 'progress', progress: progress('random') };
        continue;
      }
      const shrunk = yield* shrink(cs, v);
      best = shrunk;
      yield { type: 'found', counterexample: shrunk, progress: progress('random') };
      break;
    }
  }
  yield { type: 'progress', progress: progress('done') };
  return result();

  /** Fewest faults first (drop one at a time while it still breaks), then each fault as early as it can be. */
  function* shrink(start: readonly Candidate[], startV: Violation): Generator<SearchEvent, Counterexample> {
    let cs = [...start];
    let v = startV;
    let run: ScheduleVerdict | null = null;
    let changed = true;
    while (changed && cs.length > 1) {
      changed = false;
      for (let i = 0; i < cs.length; i++) {
        const fewer = cs.filter((_, j) => j !== i);
        const r = runScheduleFast(base, faultsOf(fewer));
        tried++;
        yield { type: 'progress', progress: progress('random') };
        const rv = violated(r);
        if (rv) {
          cs = fewer;
          v = rv;
          run = r;
          changed = true;
          break;
        }
      }
    }
    for (let i = 0; i < cs.length; i++) {
      const cur = cs[i] as Candidate;
      const lower = i > 0 ? (cs[i - 1] as Candidate).step : -1;
      for (const e of baseline) {
        if (e.step >= cur.step) break;
        if (e.step <= lower || e.kind !== cur.kind || e.process !== cur.process) continue;
        const earlier = cs.map((c, j) => (j === i ? e : c));
        const r = runScheduleFast(base, faultsOf(earlier));
        tried++;
        yield { type: 'progress', progress: progress('random') };
        const rv = violated(r);
        if (rv) {
          cs = earlier;
          v = rv;
          run = r;
          break;
        }
      }
    }
    const final = run ?? runScheduleFast(base, faultsOf(cs));
    const order: OrderKey = [cs.length, ...cs.flatMap((c) => [c.step, 0])];
    return counterexample(cs, final, v, order, 'random');
  }
}

/** Runs a search to its end (tests, the CLI without a time budget). */
export function searchAll(base: SearchBase, config: SearchConfig, control: SearchControl = {}): SearchResult {
  const it = search(base, config, control);
  for (;;) {
    const n = it.next();
    if (n.done) return n.value;
  }
}
