/**
 * The engine's front door: run a scenario to a Trace, and look at the simulation at any step.
 *
 * A Trace holds every step, every envelope, and checkpoints every `checkpointEvery` steps (plus one
 * at the end), so `stateAt(trace, i)` restores the nearest checkpoint and replays at most that many
 * steps. The same scenario gives the same steps and the same traceHash, in Node and in a browser.
 */
import type { Checkpoint } from './kernel/checkpoint';
import type { ActorId, Envelope, EnvelopeRecord } from './kernel/envelope';
import type { ProcessId } from './kernel/faults';
import { Simulation, type StopReason, type TraceStep } from './kernel/simulation';
import { type BuiltScenario, buildScenario } from './scenario/build';
import type { Scenario } from './scenario/schema';
import { type ResolvedScenario, type ScenarioError, validateScenario } from './scenario/validate';

export interface Trace {
  readonly scenario: Scenario;
  readonly resolved: ResolvedScenario;
  readonly built: BuiltScenario;
  readonly traceHash: string;
  readonly stopReason: StopReason;
  /** For 'livelock' and 'invalid-time': what the kernel saw, in words. */
  readonly stopDetail: string | null;
  readonly steps: readonly TraceStep[];
  readonly envelopes: readonly EnvelopeRecord[];
  readonly checkpoints: readonly Checkpoint[];
  readonly endTime: number;
}

export interface RunOptions {
  /** Stop after this many steps (the trace then ends there). */
  readonly untilStep?: number;
  /** Called every `sliceSteps` steps, e.g. to report progress. */
  readonly onProgress?: (steps: number) => void;
}

export class ScenarioInvalidError extends Error {
  constructor(readonly errors: readonly ScenarioError[]) {
    super(`invalid scenario: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  }
}

/** Validates, builds and runs a scenario. Throws ScenarioInvalidError for an invalid one. */
export function runScenario(input: unknown, options: RunOptions = {}): Trace {
  const v = validateScenario(input);
  if (!v.ok) throw new ScenarioInvalidError(v.errors);
  return runResolved(v.resolved, options);
}

export function startRun(resolved: ResolvedScenario): { sim: Simulation; built: BuiltScenario } {
  const built = buildScenario(resolved);
  return { sim: Simulation.create(built.specs, built.options), built };
}

export function finishTrace(resolved: ResolvedScenario, built: BuiltScenario, sim: Simulation): Trace {
  if (!sim.done) sim.takeCheckpoint();
  return {
    scenario: resolved.scenario,
    resolved,
    built,
    traceHash: sim.traceHash,
    stopReason: sim.stopReason ?? 'max-steps',
    stopDetail: sim.stopDetail,
    steps: sim.steps,
    envelopes: sim.envelopes,
    checkpoints: sim.checkpoints,
    endTime: sim.now,
  };
}

export function runResolved(resolved: ResolvedScenario, options: RunOptions = {}): Trace {
  const { sim, built } = startRun(resolved);
  const until = options.untilStep ?? Number.POSITIVE_INFINITY;
  if (options.onProgress) {
    while (!sim.done && sim.stepIndex < until) {
      sim.run(Math.min(until, sim.stepIndex + 5000));
      options.onProgress(sim.stepIndex);
    }
  } else sim.run(until);
  return finishTrace(resolved, built, sim);
}

/** The simulation as it was after `step` steps (0 = the start). */
export interface SimView {
  readonly step: number;
  readonly time: number;
  readonly actors: ReadonlyMap<ActorId, { value: unknown; context: unknown }>;
  readonly processes: ReadonlyMap<ProcessId, { down: boolean; paused: boolean; incarnation: number }>;
  readonly inFlight: readonly Envelope[];
}

function nearestCheckpoint(trace: Trace, step: number): Checkpoint {
  const cps = trace.checkpoints;
  let lo = 0;
  let hi = cps.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((cps[mid] as Checkpoint).step <= step) lo = mid;
    else hi = mid - 1;
  }
  return cps[lo] as Checkpoint;
}

/** Restores the nearest checkpoint at or before `step` and replays up to it. */
export function stateAt(trace: Trace, step: number): SimView {
  const target = Math.max(0, Math.min(step, trace.steps.length));
  const cp = nearestCheckpoint(trace, target);
  const sim = Simulation.restore(trace.built.specs, { ...trace.built.options, record: false }, cp);
  sim.run(target);
  return {
    step: sim.stepIndex,
    time: sim.now,
    actors: sim.actorSnapshots(),
    processes: sim.processStates(),
    inFlight: sim.inFlight(),
  };
}
