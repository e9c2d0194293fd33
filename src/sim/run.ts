/**
 * The engine's front door: run a scenario to a Trace, and look at the simulation at any step.
 *
 * A Trace holds every step and envelope in the recorder's columns, and checkpoints every
 * `checkpointEvery` steps (plus one at the end), so `stateAt(trace, i)` restores the nearest
 * checkpoint and replays at most that many steps. The same scenario gives the same steps and the
 * same traceHash, in Node and in a browser.
 */
import { asksText, scenarioAsks } from './budget';
import { Simulation } from './kernel/simulation';
import { type BuiltScenario, buildScenario } from './scenario/build';
import { LIMITS, type Scenario } from './scenario/schema';
import { type ResolvedScenario, type ScenarioError, validateScenario } from './scenario/validate';
import { groupDigits } from './text/groupDigits';
import { RecordedTrace, replayTo, type SimView, type Trace } from './trace/trace';

export type { SimView, Trace } from './trace/trace';
export { RecordedTrace } from './trace/trace';

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
export function runScenario(input: unknown, options: RunOptions = {}): RecordedTrace {
  const v = validateScenario(input);
  if (!v.ok) throw new ScenarioInvalidError(v.errors);
  return runResolved(v.resolved, options);
}

export function startRun(resolved: ResolvedScenario): { sim: Simulation; built: BuiltScenario } {
  const built = buildScenario(resolved);
  return { sim: Simulation.create(built.specs, built.options), built };
}

export function finishTrace(resolved: ResolvedScenario, built: BuiltScenario, sim: Simulation): RecordedTrace {
  if (!sim.done) sim.takeCheckpoint();
  return new RecordedTrace(resolved, built, sim);
}

export function runResolved(resolved: ResolvedScenario, options: RunOptions = {}): RecordedTrace {
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

/** Restores the nearest checkpoint at or before `step` and replays up to it. */
export function stateAt(trace: Trace, step: number): SimView {
  return replayTo(trace, step);
}

/** The scenario with its step limit (run.maxSteps) replaced. */
export function withMaxSteps(scenario: Scenario, maxSteps: number): Scenario {
  return { ...scenario, run: { ...scenario.run, maxSteps } };
}

/**
 * What to tell the user when a run stopped at its step limit rather than settling: how many steps
 * the scenario allowed, and how to run it with more headless. Null for any other stop.
 */
export function maxStepsNotice(trace: Trace): string | null {
  if (trace.stopReason !== 'max-steps') return null;
  const limit = trace.built.options.maxSteps;
  return (
    `The run stopped at its step limit: run.maxSteps = ${groupDigits(limit)} steps were taken at ${groupDigits(trace.endTime)} ms ` +
    `of virtual time, and the scenario had more to do (it did not settle). What it shows is the run so far. ` +
    `The scenario asks for ${asksText(scenarioAsks(trace.scenario))}. ` +
    `To run it further headless: npm run sim -- <scenario.json> --max-steps <n> (at most ${groupDigits(LIMITS.maxSteps)}), ` +
    `or raise run.maxSteps in the scenario.`
  );
}
