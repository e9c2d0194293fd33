/**
 * The one place the search runs the engine: `runSchedule(base, faults)` → verdict, traceHash, an
 * effect hash and, for enumerating the next fault, the run itself.
 *
 * Today every schedule is a full rerun through the public run API (startRun/finishTrace). When the
 * recorder's fast mode (hash + verdict accumulators) and forks from checkpoints land, this file is
 * what changes: a schedule whose faults all fire after step k can restore the checkpoint before k of
 * its parent run (`forkAt`), and a run whose trace is not needed (a leaf of the search) can run in
 * fast mode. Nothing else in src/sim/search touches the kernel.
 */

import type { Verdict } from '../checks/verdict';
import type { ActorId } from '../kernel/envelope';
import { StreamHash } from '../kernel/hash';
import type { Simulation, TraceStep } from '../kernel/simulation';
import { finishTrace, startRun, type Trace } from '../run';
import type { FaultSpec, Scenario } from '../scenario/schema';
import { type ResolvedScenario, validateScenario } from '../scenario/validate';
import { summarize } from '../trace/summary';

/** A named point an application passed (afterPoll, afterProcess …) at a step, with its detail. */
export interface PointOccurrence {
  readonly step: number;
  readonly time: number;
  readonly actor: ActorId;
  readonly point: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

/** The configuration being searched: validated once, its scripted failures taken out. */
export interface SearchBase {
  readonly resolved: ResolvedScenario;
  /** Faults kept from the scenario (the log cleaner runs; with keepFaults, every scripted fault). */
  readonly fixedFaults: readonly FaultSpec[];
}

export interface ScheduleRun {
  readonly verdict: Verdict;
  readonly traceHash: string;
  /** A hash of what happened, without the faults' own labels: equal hashes, equal effect. */
  readonly effectHash: string;
  readonly steps: number;
  readonly endTime: number;
  readonly trace: Trace;
  readonly points: readonly PointOccurrence[];
}

/** Failures the search injects itself; the rest of a scenario's faults (runCleaner) are its workload. */
const INJECTED = new Set(['drop', 'delay', 'duplicate', 'reset', 'crash', 'restart', 'pause', 'resume']);

export class SearchBaseError extends Error {}

/** Validates a scenario and takes its scripted failures out (unless keepFaults): the configuration to break. */
export function prepareBase(input: unknown, options: { keepFaults?: boolean } = {}): SearchBase {
  const v = validateScenario(input);
  if (!v.ok) throw new SearchBaseError(v.errors.map((e) => `${e.path}: ${e.message}`).join('; '));
  const faults = v.resolved.scenario.faults ?? [];
  const fixedFaults = options.keepFaults ? faults : faults.filter((f) => !INJECTED.has(f.type));
  return { resolved: v.resolved, fixedFaults };
}

/** The scenario a schedule runs: the configuration, its fixed faults, then the schedule's. */
export function scheduleScenario(base: SearchBase, faults: readonly FaultSpec[]): Scenario {
  return { ...base.resolved.scenario, faults: [...base.fixedFaults, ...faults] };
}

/** Records the named points each application passes (the kernel's point listener; not in the trace). */
function listenToPoints(sim: Simulation, out: PointOccurrence[]): void {
  sim.pointListener = (actor, point, detail) => out.push({ step: sim.stepIndex, time: sim.now, actor, point, detail });
}

/** Folds the steps into a hash that leaves out fault labels (two faults with one effect hash alike). */
export function effectHashOf(steps: Iterable<TraceStep>): string {
  const h = new StreamHash();
  for (const s of steps) {
    const label = s.kind === 'fault' ? s.label.split(' ', 2).join(' ') : s.label;
    h.update(`${s.t}|${s.actor}|${s.kind}|${label}|${s.before}>${s.after}|${s.sent.length}|${s.faults.length}`);
    if (s.facts.length) h.update(JSON.stringify(s.facts));
  }
  return h.digest();
}

export function runSchedule(base: SearchBase, faults: readonly FaultSpec[]): ScheduleRun {
  const scenario = scheduleScenario(base, faults);
  const resolved: ResolvedScenario = { ...base.resolved, scenario };
  const { sim, built } = startRun(resolved);
  const points: PointOccurrence[] = [];
  listenToPoints(sim, points);
  sim.run();
  const trace = finishTrace(resolved, built, sim);
  const verdict = summarize(trace).verdict;
  return {
    verdict,
    traceHash: trace.traceHash,
    effectHash: effectHashOf(trace.steps),
    steps: trace.steps.length,
    endTime: trace.endTime,
    trace,
    points,
  };
}
