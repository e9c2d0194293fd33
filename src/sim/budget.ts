/**
 * What a scenario asks of the machine that runs it, and the page's budgets: a size bound checked
 * before the run (partitions × group members), a step budget and a retained-memory budget checked
 * while it runs. The CLI has none of these (it has run.maxSteps and --max-steps); the page uses
 * them so that no link can hang or crash the tab. Pure: the caller measures and decides.
 */
import type { Simulation } from './kernel/simulation';
import type { Scenario } from './scenario/schema';
import { groupDigits } from './text/groupDigits';

export interface ScenarioAsks {
  readonly topics: number;
  /** Partitions over all topics. */
  readonly partitions: number;
  /** The largest topic's partitions. */
  readonly maxPartitions: number;
  readonly clients: number;
  /** Consumers and Streams applications: each one is assigned partitions and fetches from them. */
  readonly groupMembers: number;
  /** Records the producers' scripts send (a `count` op counts its records). */
  readonly records: number;
  readonly maxSteps: number | null;
}

export interface PageBudgets {
  /** Steps the page computes before it stops the run and shows what it got. */
  readonly maxSteps: number;
  /** The recorder's retained bytes plus an estimate of the checkpoints', before it stops. */
  readonly maxBytes: number;
  /** Partitions × group members the page runs at all (above it the run is refused up front). */
  readonly maxAssignments: number;
}

/**
 * 200,000 steps: the largest shipped preset takes ~5,200 steps, a 100k-record exactly-once run ~2M;
 * at the recorder's ~100–650 retained bytes per step plus checkpoints this stays near 100 MB, and the
 * page computes it in seconds. 256 MB of retained estimate stops a run whose checkpoints are large
 * (many partitions) well before a tab's heap limit (~2–4 GB). 2,048 assignments: the shipped presets
 * use at most 12 (3 partitions × 4 members); the heavy link asks 15,360 (16 × 64 × 15).
 */
export const PAGE_BUDGETS: PageBudgets = { maxSteps: 200000, maxBytes: 256 * 1024 * 1024, maxAssignments: 2048 };

export function scenarioAsks(s: Scenario): ScenarioAsks {
  let partitions = 0;
  let maxPartitions = 0;
  for (const t of s.topics) {
    const p = t.partitions ?? 1;
    partitions += p;
    maxPartitions = Math.max(maxPartitions, p);
  }
  let records = 0;
  let groupMembers = 0;
  for (const c of s.clients) {
    if (c.type !== 'producer') groupMembers++;
    else for (const op of c.script ?? []) if (op.op === 'send') records += op.count ?? 1;
  }
  return {
    topics: s.topics.length,
    partitions,
    maxPartitions,
    clients: s.clients.length,
    groupMembers,
    records,
    maxSteps: s.run?.maxSteps ?? null,
  };
}

/** What a scenario asks for, in English: the page's budget notice and the CLI's run.maxSteps notice say it. */
export function asksText(a: ScenarioAsks): string {
  return (
    `${groupDigits(a.topics)} topic${a.topics === 1 ? '' : 's'} (${groupDigits(a.partitions)} partition${a.partitions === 1 ? '' : 's'} in all, at most ${groupDigits(a.maxPartitions)} per topic), ` +
    `${groupDigits(a.clients)} client${a.clients === 1 ? '' : 's'} (${groupDigits(a.groupMembers)} of them consumers or Streams applications), ` +
    `${groupDigits(a.records)} record${a.records === 1 ? '' : 's'} to send` +
    (a.maxSteps !== null ? `, run.maxSteps = ${groupDigits(a.maxSteps)}` : '')
  );
}

export type BudgetKind = 'size' | 'steps' | 'memory' | 'cancelled';

/** A run the page refused, stopped at a budget, or that the person cancelled. */
export interface BudgetStop {
  readonly kind: BudgetKind;
  readonly asks: ScenarioAsks;
  /** Steps computed when it stopped (0 when refused up front). */
  readonly steps: number;
  /** The retained-bytes estimate when it stopped. */
  readonly bytes: number;
  /** The field that is too large (a refusal names it). */
  readonly field: string | null;
  readonly budgets: PageBudgets;
}

/** A refusal before running when the scenario's size is beyond what the page runs; null if it fits. */
export function sizeRefusal(s: Scenario, budgets: PageBudgets = PAGE_BUDGETS): BudgetStop | null {
  const asks = scenarioAsks(s);
  if (asks.partitions * Math.max(1, asks.groupMembers) <= budgets.maxAssignments) return null;
  const biggest = s.topics.findIndex((t) => (t.partitions ?? 1) === asks.maxPartitions);
  return { kind: 'size', asks, steps: 0, bytes: 0, field: `topics[${biggest}].partitions`, budgets };
}

/**
 * A rough size of a value in bytes (8 per number or reference, strings by length), walking at most
 * `limit` values. Objects in `seen` are counted as a reference only (they were counted before), and
 * every object walked is added to it: so a series of values that share structure is counted once.
 */
export function approxBytes(value: unknown, limit = 200000, seen?: WeakSet<object>): number {
  let bytes = 0;
  let walked = 0;
  const stack: unknown[] = [value];
  while (stack.length && walked < limit) {
    const v = stack.pop();
    walked++;
    if (typeof v === 'string') bytes += 16 + v.length * 2;
    else if (v === null || typeof v !== 'object') bytes += 8;
    else if (seen?.has(v)) bytes += 8;
    else {
      seen?.add(v);
      if (ArrayBuffer.isView(v)) bytes += 64 + v.byteLength;
      else if (v instanceof Map) {
        bytes += 64;
        for (const [k, x] of v) stack.push(k, x);
      } else if (v instanceof Set) {
        bytes += 64;
        for (const x of v) stack.push(x);
      } else if (Array.isArray(v)) {
        bytes += 32;
        for (const x of v) stack.push(x);
      } else {
        bytes += 32;
        for (const k in v) {
          bytes += 8;
          stack.push((v as Record<string, unknown>)[k]);
        }
      }
    }
  }
  return bytes;
}

/**
 * The retained-memory estimate of a run under way: the recorder's columns (exact, with their room
 * to grow) plus the checkpoints. A checkpoint keeps references to the actors' immutable snapshots,
 * so consecutive checkpoints share most of their structure (a producer's script, the log so far):
 * each checkpoint is walked once, when it is new, and counts only the objects no earlier one held.
 */
export class MemoryMeter {
  private seen = new WeakSet<object>();
  private walked = 0;
  private checkpointBytes = 0;

  estimate(sim: Simulation): number {
    const checkpoints = sim.checkpoints;
    if (checkpoints.length < this.walked) {
      // the run's checkpoints were replaced (a fork): start over
      this.seen = new WeakSet();
      this.walked = 0;
      this.checkpointBytes = 0;
    }
    for (; this.walked < checkpoints.length; this.walked++)
      this.checkpointBytes += approxBytes(checkpoints[this.walked], Number.POSITIVE_INFINITY, this.seen);
    return (sim.recorder?.retainedBytes ?? 0) + this.checkpointBytes;
  }
}
