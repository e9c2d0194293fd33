/**
 * What the whole run cost (src/sim/cost): the chart, the committed records per virtual second, and
 * beside them the assumptions the numbers rest on — so nobody reads them as a benchmark of a cluster.
 * Percentiles and requests per committed record are the run's, not a step's: the panel says so under
 * its title, since the panels beside it follow the step on screen.
 */
import { useId, useMemo } from 'react';
import type { Scenario } from '../../sim';
import { costOfRun, type RunCost, summarize, type Trace } from '../../sim/views';
import { useSim } from '../../store/useSim';
import { CostChart, type CostChartProps } from './CostChart';
import { type CostStrings, costStrings } from './costStrings';

const cache = new WeakMap<Trace, RunCost>();
/** The cost of a finished run (its end), computed once per trace. */
export function traceCost(trace: Trace): RunCost {
  let c = cache.get(trace);
  if (!c) {
    c = costOfRun(trace, summarize(trace));
    cache.set(trace, c);
  }
  return c;
}

export function CostAssumptions({ scenario, t }: { readonly scenario: Scenario; readonly t: CostStrings }) {
  const n = scenario.network;
  return (
    <div className="cost-assumptions" data-testid="cost-assumptions">
      <strong>{t.assumptionsTitle}</strong>
      <p>{t.assumptions(n?.latencyMs ?? 1, n?.links?.length ?? 0, n?.jitterMs ?? 0)}</p>
      <p>{t.latencyFrom}</p>
      <p>{t.requestsWhich}</p>
    </div>
  );
}

/** The chart and the committed records per virtual second over the whole run, its window said (the same props as the chart). */
export function CostFigures({ cost, t, scales, differs }: CostChartProps) {
  const perSecond = cost.committedPerSecond === null ? '–' : String(Math.round(cost.committedPerSecond * 100) / 100);
  return (
    <>
      {cost.consumers.length === 0 && <p className="muted">{t.noConsumer}</p>}
      <CostChart cost={cost} t={t} scales={scales} differs={differs} />
      <p className={`cost-committed${differs?.has('committed') ? ' differs' : ''}`}>
        {t.committed(cost.committedRecords, perSecond, cost.windowMs)}
      </p>
    </>
  );
}

export function CostPanel() {
  const titleId = useId();
  const trace = useSim((s) => s.trace);
  const language = useSim((s) => s.language);
  const t = costStrings(language);
  const cost = useMemo(() => (trace ? traceCost(trace) : null), [trace]);
  if (!trace || !cost) return null;
  return (
    <section className="cost-panel" aria-labelledby={titleId} data-testid="cost-panel">
      {/* focusable by script: the notes panel's cost note moves the focus here */}
      <h2 id={titleId} tabIndex={-1}>
        {t.title}
      </h2>
      <p className="eos-muted" data-testid="cost-scope">
        {t.wholeRun(trace.steps.length, trace.endTime)}
      </p>
      <div className="cost-body">
        <CostFigures cost={cost} t={t} />
        <CostAssumptions scenario={trace.scenario} t={t} />
      </div>
    </section>
  );
}
