/**
 * Fast mode: a run that records nothing but its traceHash and what its verdict needs — the facts of
 * the steps that have some, kept as they come (the verdict's accumulator input) — and hands back the
 * state at its end. For bulk runs: the fuzzer, the counterexample search. No steps, envelopes or
 * checkpoints are kept, so it cannot be seeked or narrated; the same scenario gives the same
 * traceHash, stop and end state as a recorded run (tests/fastRun.test.ts).
 */

import type { Verdict } from '../checks/verdict';
import type { FactBase } from '../kernel/effects';
import { Simulation, type TraceStep } from '../kernel/simulation';
import { buildScenario } from '../scenario/build';
import { type ResolvedScenario, validateScenario } from '../scenario/validate';
import { factStep, verdictAt } from './summary';
import type { SimView, Trace } from './trace';

/** A run's identity and end as a recorded trace has them (Trace), without its steps: their count. */
export interface FastRun extends Pick<Trace, 'scenario' | 'resolved' | 'built' | 'traceHash' | 'stopReason' | 'stopDetail' | 'endTime'> {
  readonly steps: number;
  /** The state after the last step. */
  readonly final: SimView;
  /** The layered verdict at the end (computed on first read). */
  readonly verdict: Verdict;
}

/** Runs a valid scenario in fast mode (to its end, or `untilStep` steps). Throws on an invalid one. */
export function runFast(input: unknown, options: { untilStep?: number } = {}): FastRun {
  const v = validateScenario(input);
  if (!v.ok) throw new Error(`invalid scenario: ${v.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  return runFastResolved(v.resolved, options);
}

export function runFastResolved(resolved: ResolvedScenario, options: { untilStep?: number } = {}): FastRun {
  const built = buildScenario(resolved);
  const sim = Simulation.create(built.specs, { ...built.options, record: false });
  // only the steps with facts: their index, time and facts, made into steps the verdict can read
  // when it is asked for (a search reads the hash of most runs and the verdict of few)
  const factIndex: number[] = [];
  const factTime: number[] = [];
  const factLists: (readonly FactBase[])[] = [];
  sim.factSink = (i: number, t: number, facts: readonly FactBase[]) => {
    factIndex.push(i);
    factTime.push(t);
    factLists.push(facts);
  };
  sim.run(options.untilStep ?? Number.POSITIVE_INFINITY);
  const final: SimView = {
    step: sim.stepIndex,
    time: sim.now,
    actors: sim.actorSnapshots(),
    processes: sim.processStates(),
    inFlight: sim.inFlight(),
  };
  let verdict: Verdict | null = null;
  const run = {
    scenario: resolved.scenario,
    resolved,
    built,
    traceHash: sim.traceHash,
    stopReason: sim.stopReason ?? 'max-steps',
    stopDetail: sim.stopDetail,
    steps: sim.stepIndex,
    endTime: sim.now,
    final,
    get verdict(): Verdict {
      if (verdict === null) {
        const factSteps: TraceStep[] = factIndex.map((i, k) => factStep(i, factTime[k] as number, factLists[k] as readonly FactBase[]));
        verdict = verdictAt(run, factSteps, final, undefined, sim.done);
      }
      return verdict;
    },
  };
  return run;
}
