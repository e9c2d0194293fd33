/**
 * The statechart of the selected actor, drawn from its machine definition and following the
 * scrubber: the current state highlighted, the last transition marked. A coordinator also shows the
 * chart of one of its instances (a transactional.id's TransactionState, a group's ClassicGroupState),
 * picked from a list. Each chart has a text alternative and can be copied as Mermaid.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { stateAt } from '../../sim';
import { actorChart, type Chart, instanceLastTransition, type LastTransition, toMermaid } from '../../sim/views';
import { useSim } from '../../store/useSim';
import { readableState, readableTransition } from '../stateText';
import { ChartSvg } from './ChartSvg';
import { type ChartStrings, chartStrings } from './strings';
import './statechart.css';

function ChartText({ chart, t }: { readonly chart: Chart; readonly t: ChartStrings }) {
  const states = chart.root.children.flatMap(function walk(n): string[] {
    const own = n.handles.length ? `${n.path} — ${t.handles(n.handles.join(', '))}` : n.path;
    return [own, ...n.children.flatMap(walk)];
  });
  return (
    <details className="statechart-text">
      <summary>{t.textAlternative}</summary>
      <h4>{t.states}</h4>
      <ul>
        {states.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      <h4>{t.transitions}</h4>
      <ul>
        {chart.edges.map((e) => {
          const s = t.edge(e.source, e.target, e.event, e.guard);
          return <li key={s}>{s}</li>;
        })}
      </ul>
    </details>
  );
}

function OneChart({
  chart,
  state,
  last,
  title,
  testId,
  t,
}: {
  readonly chart: Chart;
  readonly state: string;
  readonly last: LastTransition | null;
  readonly title: string;
  readonly testId: string;
  readonly t: ChartStrings;
}) {
  const statusId = useId();
  const frame = useRef<HTMLElement>(null);
  const [copyStatus, setCopyStatus] = useState<string>('');
  // the drawing may be wider than the panel: keep the current state (each region's) in sight
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the state changes; the highlighted states are read from the drawing
  useEffect(() => {
    const box = frame.current;
    const current = [...(box?.querySelectorAll('.statechart-state.leaf[data-current="true"]') ?? [])].map((e) => e.getBoundingClientRect());
    if (!box || current.length === 0) return;
    const f = box.getBoundingClientRect();
    // every region's current state when they fit together, else the first region's
    const all = {
      left: Math.min(...current.map((c) => c.left)),
      right: Math.max(...current.map((c) => c.right)),
      top: Math.min(...current.map((c) => c.top)),
      bottom: Math.max(...current.map((c) => c.bottom)),
    };
    const c = all.right - all.left <= f.width && all.bottom - all.top <= f.height ? all : (current[0] as DOMRect);
    if (c.left < f.left || c.right > f.right) box.scrollLeft += c.left - f.left - (f.width - (c.right - c.left)) / 2;
    if (c.top < f.top || c.bottom > f.bottom) box.scrollTop += c.top - f.top - (f.height - (c.bottom - c.top)) / 2;
  }, [state]);
  const mermaid = useMemo(() => toMermaid(chart, { current: state || undefined }), [chart, state]);
  const moved = last ? readableTransition(last.before, last.after) : null;
  const summary = `${state ? t.current(readableState(state)) : t.noState} ${last && moved ? t.last(moved.before, moved.after, last.edge?.event ?? null, last.step + 1) : t.noLast}`;
  const copy = () => {
    const done = (ok: boolean) => setCopyStatus(ok ? t.copied : t.copyFailed);
    if (!navigator.clipboard) return done(false);
    navigator.clipboard.writeText(mermaid).then(
      () => done(true),
      () => done(false),
    );
  };
  return (
    <figure className="statechart" data-testid={testId} data-state={state} data-last={last ? `${last.before}>${last.after}` : ''}>
      <figcaption>
        <strong>{title}</strong> <span data-testid={`${testId}-summary`}>{summary}</span>
      </figcaption>
      {/* the drawing can be wider than the panel: the frame scrolls, and is reachable by keyboard to do so */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable to scroll by keyboard */}
      <section ref={frame} className="statechart-frame" tabIndex={0} aria-label={t.chartOf(title)}>
        <ChartSvg chart={chart} state={state} last={last} label={`${t.chartOf(title)}. ${summary}`} eventless={t.eventless} />
      </section>
      <ChartText chart={chart} t={t} />
      <div className="statechart-actions">
        <button type="button" onClick={copy} aria-describedby={statusId}>
          {t.copy}
        </button>
        <output id={statusId}>{copyStatus}</output>
      </div>
      <details className="statechart-mermaid">
        <summary>{t.mermaid}</summary>
        <pre translate="no">{mermaid}</pre>
      </details>
    </figure>
  );
}

export function StatechartView({ actorId }: { readonly actorId: string }) {
  const trace = useSim((s) => s.trace);
  const view = useSim((s) => s.view);
  const language = useSim((s) => s.language);
  const t = chartStrings(language);
  const selectId = useId();
  const [picked, setPicked] = useState<string | null>(null);
  const a = useMemo(() => (trace && view ? actorChart(trace, view, actorId) : null), [trace, view, actorId]);
  const instance = a?.instances.find((i) => i.instance === picked) ?? a?.instances[0] ?? null;
  const instanceLast = useMemo(() => {
    if (!trace || !view || !a || !instance) return null;
    return instanceLastTransition(trace, a, instance, view.step, () => stateAt(trace, view.step - 1));
  }, [trace, view, a, instance]);
  if (!a) return null;
  return (
    <section className="statechart-view" aria-label={t.title(actorId)} data-testid="statechart-view">
      <OneChart chart={a.chart} state={a.state} last={a.last} title={`${actorId} (${a.chart.id})`} testId="statechart-actor" t={t} />
      {a.instances.length > 0 && instance && (
        <>
          <label htmlFor={selectId}>{t.instance(instance.kind)} </label>
          <select id={selectId} value={instance.instance} onChange={(e) => setPicked(e.target.value)}>
            {a.instances.map((i) => (
              <option key={i.instance} value={i.instance}>
                {i.instance} — {i.state}
              </option>
            ))}
          </select>
          <OneChart
            chart={instance.chart}
            state={instance.state}
            last={instanceLast}
            title={t.instanceTitle(instance.kind, instance.instance)}
            testId="statechart-instance"
            t={t}
          />
        </>
      )}
    </section>
  );
}
