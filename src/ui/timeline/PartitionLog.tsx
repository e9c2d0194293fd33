/** A partition log as a row of cells by offset, with the high watermark and LSO marked (d3 scales). */
import { scaleBand } from 'd3-scale';
import type { PartitionRow } from '../../sim/trace/logView';

const CELL = 34;

export function PartitionLog({ partition }: { partition: PartitionRow }) {
  const first = partition.logStartOffset;
  const end = Math.max(partition.logEndOffset, first + 1);
  const offsets = Array.from({ length: end - first }, (_, i) => first + i);
  const x = scaleBand<number>()
    .domain(offsets)
    .range([0, offsets.length * CELL])
    .paddingInner(0.1);
  const byOffset = new Map(partition.records.map((r) => [r.offset, r]));
  const width = offsets.length * CELL + 60;
  const mark = (offset: number) => (offset >= end ? offsets.length * CELL : (x(offset) ?? 0));
  return (
    <figure className="partition-log">
      <figcaption>
        {partition.topic}-{partition.partition} <span className="muted">on {partition.leader}</span>
      </figcaption>
      <svg
        width={width}
        height={64}
        role="img"
        aria-label={`${partition.topic}-${partition.partition}: ${partition.records.length} records, high watermark ${partition.highWatermark}, last stable offset ${partition.lastStableOffset}`}
      >
        {offsets.map((o) => {
          const r = byOffset.get(o);
          const cls = r ? (r.control ? `cell control ${r.control.toLowerCase()}` : `cell ${r.txnOutcome ?? 'plain'}`) : 'cell empty';
          return (
            <g key={o} transform={`translate(${x(o)},14)`}>
              <rect className={cls} width={x.bandwidth()} height={26} rx={3} />
              <text x={x.bandwidth() / 2} y={17} textAnchor="middle" className="cell-label">
                {r?.control ? (r.control === 'COMMIT' ? 'C' : 'A') : o}
              </text>
            </g>
          );
        })}
        <line className="hw" x1={mark(partition.highWatermark)} x2={mark(partition.highWatermark)} y1={8} y2={46} />
        <text className="hw-label" x={mark(partition.highWatermark) + 2} y={58}>
          HW {partition.highWatermark}
        </text>
        <line className="lso" x1={mark(partition.lastStableOffset)} x2={mark(partition.lastStableOffset)} y1={4} y2={44} />
        <text className="lso-label" x={mark(partition.lastStableOffset) + 2} y={10}>
          LSO {partition.lastStableOffset}
        </text>
      </svg>
    </figure>
  );
}
