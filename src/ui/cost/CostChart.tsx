/**
 * A run's cost figures as a small chart (d3-scale, drawn as SVG by React): per consumer, send() →
 * visible p50 and p99 and, for read_committed, the p99 wait behind the LSO; then write-path and
 * transaction requests per committed record. In A/B both charts share their scales (maxMs, maxPerRecord)
 * so equal bars mean equal figures; `differs` marks a figure that differs from the other run's.
 */
import { scaleLinear } from 'd3-scale';
import { groupDigits, type RunCost } from '../../sim/views';
import type { CostStrings } from './costStrings';

const W = 360;
/** Room right of the longest bar for its numbers. */
const NUMBERS = 100;
const LABEL = 110;
const ROW = 16;

export interface CostScales {
  readonly maxMs: number;
  readonly maxPerRecord: number;
}

export function costScales(costs: readonly RunCost[]): CostScales {
  let maxMs = 1;
  let maxPerRecord = 0.1;
  for (const c of costs) {
    for (const k of c.consumers) maxMs = Math.max(maxMs, k.latency.p99 ?? 0, k.lsoWait?.p99 ?? 0);
    maxPerRecord = Math.max(maxPerRecord, c.writePathRequestsPerCommittedRecord ?? 0);
  }
  return { maxMs, maxPerRecord };
}

// grouped as every other time on screen ("27,101 ms", not "27101 ms")
const round = (x: number | null) => (x === null ? '–' : groupDigits(Math.round(x * 100) / 100));

interface Bar {
  readonly key: string;
  readonly label: string;
  readonly value: number | null;
  readonly second?: number | null;
  readonly kind: 'latency' | 'lso' | 'requests' | 'txn';
}

export interface CostChartProps {
  readonly cost: RunCost;
  readonly t: CostStrings;
  readonly scales?: CostScales;
  /** Keys of bars whose figure differs from the other run's (A/B). */
  readonly differs?: ReadonlySet<string>;
}

export function CostChart({ cost, t, scales, differs }: CostChartProps) {
  const s = scales ?? costScales([cost]);
  const ms = scaleLinear()
    .domain([0, s.maxMs])
    .nice()
    .range([0, W - LABEL - NUMBERS]);
  const per = scaleLinear()
    .domain([0, s.maxPerRecord])
    .nice()
    .range([0, W - LABEL - NUMBERS]);
  const latencyBars: Bar[] = cost.consumers.flatMap((k) => [
    { key: `latency:${k.consumer}`, label: k.consumer, value: k.latency.p50, second: k.latency.p99, kind: 'latency' as const },
    ...(k.lsoWait ? [{ key: `lso:${k.consumer}`, label: `${t.lsoWait} ${t.p99}`, value: k.lsoWait.p99, kind: 'lso' as const }] : []),
  ]);
  const requestBars: Bar[] = [
    { key: 'writePath', label: t.writePath, value: cost.writePathRequestsPerCommittedRecord, kind: 'requests' },
    { key: 'transaction', label: t.transactional, value: cost.transactionRequestsPerCommittedRecord, kind: 'txn' },
  ];
  const msHeadY = 12;
  const latencyTop = msHeadY + 8;
  const reqHeadY = latencyTop + latencyBars.length * ROW + 18;
  const reqTop = reqHeadY + 8;
  const height = reqTop + requestBars.length * ROW + 18;
  const row = (b: Bar, y: number, scale: typeof ms, unit: string) => {
    const v = b.value ?? 0;
    const second = b.second ?? null;
    return (
      <g
        key={b.key}
        transform={`translate(0,${y})`}
        className={`cost-bar cost-${b.kind}${differs?.has(b.key) ? ' differs' : ''}`}
        data-key={b.key}
      >
        <text x={0} y={11} className="cost-label">
          {b.label}
        </text>
        {second !== null && <rect x={LABEL} y={3} width={Math.max(0, scale(second))} height={10} className="cost-p99" />}
        <rect x={LABEL} y={3} width={Math.max(0, scale(v))} height={10} className="cost-value" />
        <text x={LABEL + Math.max(scale(v), second !== null ? scale(second) : 0) + 4} y={11} className="cost-number">
          {second !== null ? `${round(b.value)} / ${round(second)} ${unit}` : `${round(b.value)}${unit ? ` ${unit}` : ''}`}
        </text>
      </g>
    );
  };
  return (
    <svg viewBox={`0 0 ${W} ${height}`} width="100%" role="img" aria-label={t.chartLabel} className="cost-chart" data-testid="cost-chart">
      <text x={0} y={msHeadY} className="cost-head">
        {`${t.latency} (${t.p50} / ${t.p99}), ${t.ms}`}
      </text>
      {latencyBars.map((b, i) => row(b, latencyTop + i * ROW, ms, t.ms))}
      <text x={0} y={reqHeadY} className="cost-head">
        {t.perRecord}
      </text>
      {requestBars.map((b, i) => row(b, reqTop + i * ROW, per, ''))}
    </svg>
  );
}
