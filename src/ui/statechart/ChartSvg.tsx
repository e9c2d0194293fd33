/**
 * One chart drawn from its definition: nested boxes for states, arrows for transitions. The active
 * states are highlighted, the last transition (and the state it left) marked. The drawing is a
 * picture (role img, named); the words are in the text alternative beside it.
 */
import { useId, useMemo } from 'react';
import { activePaths, type Chart, type ChartEdge } from '../../sim/views';
import { layoutChart } from './layout';

const sameEdge = (a: ChartEdge | null | undefined, b: ChartEdge) =>
  !!a && a.source === b.source && a.target === b.target && a.event === b.event && a.guard === b.guard;

export function ChartSvg({
  chart,
  state,
  last,
  label,
  eventless,
}: {
  readonly chart: Chart;
  readonly state: string;
  readonly last: { readonly before: string; readonly edges: readonly ChartEdge[] } | null;
  readonly label: string;
  /** The word for a transition taken without an event (XState's `always`), in the reader's language. */
  readonly eventless: string;
}) {
  const markerId = useId().replace(/:/g, '');
  const layout = useMemo(() => layoutChart(chart), [chart]);
  const active = useMemo(() => activePaths(state), [state]);
  const left = useMemo(() => (last ? activePaths(last.before) : new Set<string>()), [last]);
  return (
    <svg
      className="statechart-svg"
      role="img"
      aria-label={label}
      viewBox={`-4 -14 ${layout.width + 8} ${layout.height + 18}`}
      width={layout.width + 8}
      height={layout.height + 18}
    >
      <defs>
        <marker id={`arrow-${markerId}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" className="statechart-arrow" />
        </marker>
        <marker
          id={`arrow-last-${markerId}`}
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" className="statechart-arrow last" />
        </marker>
      </defs>
      {layout.boxes.map((b) => {
        const isActive = active.has(b.path);
        const wasLeft = !isActive && b.leaf && left.has(b.path);
        return (
          <g
            key={b.path}
            className={`statechart-state${b.leaf ? ' leaf' : ' compound'}${isActive ? ' current' : ''}${wasLeft ? ' previous' : ''}`}
            data-state-path={b.path}
            data-current={isActive ? 'true' : undefined}
          >
            <rect x={b.x} y={b.y} width={b.w} height={b.h} rx={b.leaf ? 8 : 10} />
            <text x={b.leaf ? b.x + b.w / 2 : b.x + 8} y={b.leaf ? b.y + b.h / 2 + 4 : b.y + 13} textAnchor={b.leaf ? 'middle' : 'start'}>
              {b.key}
            </text>
          </g>
        );
      })}
      {layout.lines.map((l) => {
        // in a parallel state every region that changed took its own transition
        const isLast = !!last?.edges.some((e) => sameEdge(e, l.edge));
        const title = `${l.edge.source} → ${l.edge.target}: ${l.edge.event ?? eventless}${l.edge.guard ? ` [${l.edge.guard}]` : ''}`;
        const marker = `url(#${isLast ? 'arrow-last-' : 'arrow-'}${markerId})`;
        return (
          <g key={`${title}`} className={`statechart-edge${isLast ? ' last' : ''}`} data-last={isLast ? 'true' : undefined}>
            <title>{title}</title>
            {l.self ? (
              <path d={`M ${l.x1} ${l.y1} C ${l.x1 - 6} ${l.y1 - 16}, ${l.x2 + 6} ${l.y2 - 16}, ${l.x2} ${l.y2}`} markerEnd={marker} />
            ) : (
              <line x1={l.x1} y1={l.y1} x2={l.x2} y2={l.y2} markerEnd={marker} />
            )}
            {isLast && (
              <text className="statechart-edge-label" x={(l.x1 + l.x2) / 2} y={(l.y1 + l.y2) / 2 - 4} textAnchor="middle">
                {l.edge.event ?? eventless}
                {l.edge.guard ? ` [${l.edge.guard}]` : ''}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
