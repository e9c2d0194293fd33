/**
 * An actor of a run and its charts as of a step: the chart of its machine (from the scenario's
 * built specs, so the machine that ran), the state it is in, the last transition it took up to that
 * step, and the per-instance charts it keeps (each transactional.id, each group).
 */
import { stateValueToString } from '../kernel/stateValue';
import type { SimView, Trace } from '../run';
import { type Chart, type ChartEdge, chartOf, edgeOf, edgesOf } from './chart';
import { type InstanceChart, instanceCharts } from './instances';
import { toMermaid } from './mermaid';

export interface LastTransition {
  /** The step (0-based index into trace.steps) that made it. */
  readonly step: number;
  readonly before: string;
  readonly after: string;
  /** The transition taken (in a parallel state, the first region's). */
  readonly edge: ChartEdge | null;
  /** Every transition taken: one per region that changed. */
  readonly edges: readonly ChartEdge[];
}

function transition(chart: Chart, step: number, before: string, after: string): LastTransition {
  const edges = edgesOf(chart, before, after);
  return { step, before, after, edge: edges[0] ?? edgeOf(chart, before, after), edges };
}

export interface ActorChart {
  readonly actorId: string;
  readonly kind: string;
  readonly chart: Chart;
  readonly state: string;
  readonly last: LastTransition | null;
  readonly instances: readonly InstanceChart[];
}

const charts = new WeakMap<object, Chart>();
function cachedChart(logic: object): Chart {
  let c = charts.get(logic);
  if (!c) {
    c = chartOf(logic as Parameters<typeof chartOf>[0]);
    charts.set(logic, c);
  }
  return c;
}

/** The last step before `step` in which the actor's state value changed. */
export function lastTransition(trace: Trace, actorId: string, step: number, chart: Chart): LastTransition | null {
  for (let i = Math.min(step, trace.steps.length) - 1; i >= 0; i--) {
    const s = trace.steps.at(i);
    if (s?.actor !== actorId || s.before === s.after) continue;
    return transition(chart, i, s.before, s.after);
  }
  return null;
}

export function actorChart(trace: Trace, view: SimView, actorId: string): ActorChart | null {
  const spec = trace.built.specs.find((s) => s.id === actorId);
  if (!spec) return null;
  const chart = cachedChart(spec.logic);
  const snap = view.actors.get(actorId);
  return {
    actorId,
    kind: spec.kind,
    chart,
    state: snap ? stateValueToString(snap.value) : '',
    last: lastTransition(trace, actorId, view.step, chart),
    instances: instanceCharts(spec.kind, snap?.context),
  };
}

/** What `npm run sim -- <scenario> --chart <actorId>` prints: the actor's chart and each instance's, as Mermaid. */
export function actorChartText(a: ActorChart): string {
  const parts = [
    `%% ${a.actorId} (${a.chart.id}) in state ${a.state || '—'}${a.last ? `; last transition at step ${a.last.step + 1}: ${a.last.before} → ${a.last.after}` : ''}`,
    toMermaid(a.chart, { current: a.state || undefined }),
  ];
  for (const i of a.instances) {
    parts.push(
      `%% ${i.kind === 'group' ? 'group' : 'transactional.id'} ${i.instance} in state ${i.state}`,
      toMermaid(i.chart, { current: i.state }),
    );
  }
  return parts.join('\n');
}

/**
 * The last transition of one instance up to `step`: for a transactional.id, from the coordinator's
 * `txnState` facts; for a group (its states leave no fact), the change the step on screen made, if
 * it was the coordinator's (`previous` is the view one step earlier).
 */
export function instanceLastTransition(
  trace: Trace,
  a: ActorChart,
  instance: InstanceChart,
  step: number,
  previous: () => SimView,
): LastTransition | null {
  if (instance.kind === 'transactionalId') {
    for (let i = Math.min(step, trace.steps.length) - 1; i >= 0; i--) {
      const s = trace.steps.at(i);
      if (s?.actor !== a.actorId) continue;
      for (const f of s.facts as readonly { kind: string; transactionalId?: string; from?: string; to?: string }[]) {
        if (f.kind !== 'txnState' || f.transactionalId !== instance.instance || !f.from || !f.to) continue;
        return transition(instance.chart, i, f.from, f.to);
      }
    }
    return null;
  }
  const s = trace.steps.at(step - 1);
  if (step < 1 || s?.actor !== a.actorId) return null;
  const before = instanceCharts(a.kind, previous().actors.get(a.actorId)?.context).find((i) => i.instance === instance.instance)?.state;
  if (!before || before === instance.state) return null;
  return transition(instance.chart, step - 1, before, instance.state);
}
