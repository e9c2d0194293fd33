/**
 * One run of a scenario under the page's budgets, computed in slices: the part of a load that is the
 * same wherever the engine runs — in the page's store (in-process, tests and the page today) or in
 * the engine's Web Worker (engine.worker.ts). The caller schedules the slices and decides what a
 * slice may cost; this only runs steps, checks the budgets (src/sim/budget.ts) and lands the trace.
 */
import {
  type BudgetKind,
  type BudgetStop,
  finishTrace,
  MemoryMeter,
  type PageBudgets,
  type RecordedTrace,
  type ResolvedScenario,
  scenarioAsks,
  startFork,
  startRun,
} from '../sim';

/** Steps between two looks at the clock within a slice. */
const CHUNK_STEPS = 16;

const clock = () => (typeof performance !== 'undefined' ? performance.now() : 0);

/** Why a slice stopped: the run is over, a budget was reached, or (null) its time ran out. */
export type SliceEnd = BudgetKind | 'done' | null;

/** A landed run: its trace, and the budget that stopped it (null when it ran to its end). */
export interface Landed {
  readonly trace: RecordedTrace;
  readonly budget: BudgetStop | null;
}

export class RunJob {
  private readonly meter = new MemoryMeter();
  private readonly started: ReturnType<typeof startRun>;

  /** With `forkOf`, `resolved` is an edit of that trace's scenario at `step` (trace/fork.ts). */
  constructor(
    readonly resolved: ResolvedScenario,
    readonly budgets: PageBudgets,
    forkOf?: { trace: RecordedTrace; step: number },
  ) {
    this.started = forkOf ? startFork(forkOf.trace, resolved, forkOf.step) : startRun(resolved);
  }

  /** Steps taken so far (a fork counts the steps it shares with the trace it forked). */
  get steps(): number {
    return this.started.sim.stepIndex;
  }

  private over(): BudgetKind | null {
    const { sim } = this.started;
    return sim.stepIndex >= this.budgets.maxSteps ? 'steps' : this.meter.estimate(sim) > this.budgets.maxBytes ? 'memory' : null;
  }

  /** Runs chunks until `ms` have passed (or `steps` more steps are taken); says why it stopped, if it did. */
  slice(ms: number, steps: number): SliceEnd {
    const { sim } = this.started;
    const t0 = clock();
    const until = Math.min(this.budgets.maxSteps, sim.stepIndex + steps);
    while (sim.stepIndex < until) {
      sim.run(Math.min(until, sim.stepIndex + CHUNK_STEPS));
      if (sim.done) return 'done';
      const o = this.over();
      if (o) return o;
      if (clock() - t0 >= ms) return null;
    }
    return this.over();
  }

  /** The trace so far, and what stopped it (`stopped`: a budget or a cancel; null: the run ended). */
  land(stopped: BudgetKind | null): Landed {
    const { sim, built } = this.started;
    const bytes = stopped ? this.meter.estimate(sim) : 0; // before finishing: that trims the columns
    const trace = finishTrace(this.resolved, built, sim);
    const budget: BudgetStop | null = stopped
      ? { kind: stopped, asks: scenarioAsks(this.resolved.scenario), steps: sim.stepIndex, bytes, field: null, budgets: this.budgets }
      : null;
    return { trace, budget };
  }
}
