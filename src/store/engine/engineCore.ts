/**
 * The engine's side of the worker boundary (protocol.ts), free of the worker itself so that a test
 * can drive it in-process: validates and runs a scenario under the page's budgets in slices
 * (../runJob.ts), posts progress between slices, stops when asked, keeps the finished trace and
 * answers views of it at any step. Between two slices it yields to its event loop (`yieldNow`), so a
 * cancel or a newer start is read while a run is under way.
 */
import { PAGE_BUDGETS, type PageBudgets, type RecordedTrace, sizeRefusal, ViewCursor, validateScenario } from '../../sim';
import { partitionRows, type SimView, stateValueToString, verdictViewAt } from '../../sim/views';
import { RunJob } from '../runJob';
import type { FromEngine, RunOutcome, StepViews, ToEngine } from './protocol';
import { resolveLink } from './resolveLink';

/** A slice runs this long before the engine looks at its messages (and posts progress). */
const SLICE_MS = 30;
/** Progress is posted after the first slice, then at most this often. */
const PROGRESS_MS = 100;

const clock = () => (typeof performance !== 'undefined' ? performance.now() : 0);

/**
 * The views a page's own panels need, computed where the trace is (the embed's: src/embed/embedPanels.ts).
 * Both answers cross the boundary, so they must be plain, structured-clone-able data.
 */
export interface PanelsProvider {
  /** Once per finished run, sent with `done` as `outcome.panels`. */
  run(trace: RecordedTrace): unknown;
  /** After `view.step` steps of that run, for a `panels` ask with the page's `options`. */
  at(trace: RecordedTrace, view: SimView, options: unknown): unknown;
}

export interface EngineCoreOptions {
  readonly budgets?: PageBudgets;
  /** Resolves on the next turn of the event loop (a worker: a zero timeout). */
  readonly yieldNow?: () => Promise<void>;
  readonly panels?: PanelsProvider;
}

export function createEngineCore(post: (m: FromEngine) => void, options: EngineCoreOptions = {}): (m: ToEngine) => void {
  const budgets = options.budgets ?? PAGE_BUDGETS;
  const yieldNow = options.yieldNow ?? (() => new Promise<void>((r) => setTimeout(r, 0)));
  const provider = options.panels;
  /** The run under way (the newest start), and whether it was asked to stop. */
  let current = 0;
  let cancelled = false;
  let finished: { run: number; trace: RecordedTrace; cursor: ViewCursor } | null = null;

  async function start(run: number, scenario: unknown, forkAt: number | undefined): Promise<void> {
    const v = validateScenario(scenario);
    if (!v.ok) return post({ type: 'invalid', run, errors: v.errors });
    const refused = sizeRefusal(v.resolved.scenario, budgets);
    if (refused) return post({ type: 'refused', run, budget: refused, scenario: v.resolved.scenario });
    const base = forkAt !== undefined && finished ? { trace: finished.trace, step: forkAt } : undefined;
    const job = new RunJob(v.resolved, budgets, base);
    // the first progress goes out after the first slice, then at most every PROGRESS_MS
    let lastPost = Number.NEGATIVE_INFINITY;
    for (;;) {
      if (run !== current) return; // a newer start replaced this run
      const end = cancelled ? 'cancelled' : job.slice(SLICE_MS, Number.POSITIVE_INFINITY);
      if (end) {
        const { trace, budget } = job.land(end === 'done' ? null : end);
        finished = { run, trace, cursor: new ViewCursor(trace) };
        const outcome: RunOutcome = {
          steps: trace.steps.length,
          traceHash: trace.traceHash,
          stopReason: trace.stopReason,
          endTime: trace.endTime,
          budget,
          ...(provider ? { panels: provider.run(trace) } : {}),
        };
        return post({ type: 'done', run, outcome });
      }
      if (clock() - lastPost >= PROGRESS_MS) {
        lastPost = clock();
        post({ type: 'progress', run, steps: job.steps });
      }
      await yieldNow();
    }
  }

  function views(step: number): StepViews | null {
    if (!finished) return null;
    const { trace, cursor } = finished;
    const view = cursor.at(step);
    return {
      step: view.step,
      time: view.time,
      states: [...view.actors].map(([id, s]) => [id, stateValueToString(s.value)] as const),
      processes: [...view.processes].map(([id, p]) => [id, { down: p.down, paused: p.paused, incarnation: p.incarnation }] as const),
      partitions: partitionRows(view.actors),
      verdict: verdictViewAt(trace, view),
    };
  }

  return (m) => {
    if (m.type === 'start') {
      current = m.run;
      cancelled = false;
      start(m.run, m.scenario, m.forkAt).catch((err: unknown) =>
        post({ type: 'error', run: m.run, message: err instanceof Error ? err.message : String(err) }),
      );
    } else if (m.type === 'cancel') {
      if (m.run === current) cancelled = true;
    } else if (m.type === 'resolve') {
      // only the embed asks the worker to resolve (the page resolves on its thread): its errors name its own address form
      post({ type: 'resolved', ask: m.ask, result: resolveLink(m.text, 'embed') });
    } else if (m.type === 'payload') {
      // a trace's envelope reads its payload by replaying from the checkpoint before the step that sent it
      const payload = finished?.run === m.run ? (finished.trace.envelopes.at(m.envelope)?.payload ?? null) : null;
      post({ type: 'payload', run: m.run, ask: m.ask, payload });
    } else if (m.type === 'panels') {
      const answer = finished?.run === m.run && provider ? provider.at(finished.trace, finished.cursor.at(m.step), m.options) : null;
      post({ type: 'panels', run: m.run, ask: m.ask, panels: answer });
    } else {
      const answer = finished?.run === m.run ? views(m.step) : null;
      post({ type: 'views', run: m.run, ask: m.ask, views: answer });
    }
  };
}
