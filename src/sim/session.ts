/**
 * The engine as something a Web Worker (or the page, or a test) drives by messages: a scenario or
 * an edit in; runs in slices of a step budget, reporting progress between them; cancellable
 * between slices; views of the finished trace at any step out. Nothing here touches the DOM or a
 * timer: the caller decides when the next slice runs.
 */
import type { Simulation } from './kernel/simulation';
import { finishTrace, maxStepsNotice, startRun } from './run';
import type { BuiltScenario } from './scenario/build';
import { type ResolvedScenario, type ScenarioError, validateScenario } from './scenario/validate';
import { startFork } from './trace/fork';
import { summarize, type TraceSummary } from './trace/summary';
import { type RecordedTrace, replayTo, type SimView } from './trace/trace';

export interface Progress {
  /** Steps taken so far (a fork counts the steps it shares with the trace it forked). */
  readonly steps: number;
  readonly done: boolean;
  /** The step a fork ran on from (0 for a full run). */
  readonly from: number;
}

export type Started = { readonly ok: true; readonly from: number } | { readonly ok: false; readonly errors: readonly ScenarioError[] };

export interface StepViews {
  readonly state: SimView;
  readonly summary: TraceSummary;
}

export class EngineSession {
  private job: { sim: Simulation; built: BuiltScenario; resolved: ResolvedScenario; from: number } | null = null;
  /** The last finished trace (what views and forks read). */
  trace: RecordedTrace | null = null;

  /**
   * Validates and starts a scenario. With `forkAt`, it is an edit of the current trace's scenario
   * at that step: the run goes on from the checkpoint before it when it can (trace/fork.ts).
   */
  start(input: unknown, forkAt?: number): Started {
    const v = validateScenario(input);
    if (!v.ok) return { ok: false, errors: v.errors };
    if (forkAt !== undefined && this.trace) {
      const f = startFork(this.trace, v.resolved, forkAt);
      this.job = { sim: f.sim, built: f.built, resolved: v.resolved, from: f.from };
    } else {
      const { sim, built } = startRun(v.resolved);
      this.job = { sim, built, resolved: v.resolved, from: 0 };
    }
    return { ok: true, from: this.job.from };
  }

  /** Runs at most `budget` more steps of the started run; when it is over, the trace is ready. */
  advance(budget: number): Progress {
    const job = this.job;
    if (!job) return { steps: this.trace?.steps.length ?? 0, done: true, from: 0 };
    job.sim.run(job.sim.stepIndex + Math.max(1, Math.floor(budget)));
    if (!job.sim.done) return { steps: job.sim.stepIndex, done: false, from: job.from };
    this.trace = finishTrace(job.resolved, job.built, job.sim);
    this.job = null;
    return { steps: this.trace.steps.length, done: true, from: job.from };
  }

  /** Drops the run under way (the last finished trace stays). */
  cancel(): void {
    this.job = null;
  }

  get running(): boolean {
    return this.job !== null;
  }

  /** What to tell the user if the finished run stopped at run.maxSteps. */
  notice(): string | null {
    return this.trace ? maxStepsNotice(this.trace) : null;
  }

  /** The state and the summary (with the verdict) of the finished trace after `step` steps. */
  views(step: number): StepViews | null {
    const trace = this.trace;
    if (!trace) return null;
    const state = replayTo(trace, step);
    return { state, summary: summarize(trace, state.step, state) };
  }
}
