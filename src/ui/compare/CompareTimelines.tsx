/**
 * The two runs' partitions side by side at the same virtual time: one scrubber drives both (each run
 * shows its state after its last step at or before that time). A lane whose log differs from the
 * other run's at that time — its end, its LSO, or a record's outcome — is highlighted.
 */
import { useMemo } from 'react';
import { stateAt } from '../../sim';
import { keyOf, type PartitionRow, partitionRows, type Trace } from '../../sim/views';
import type { Language } from '../../store/simStore';
import { buildLane } from '../timeline/laneModel';
import type { LaneExtent } from '../timeline/offsetScale';
import { PartitionLanes } from '../timeline/PartitionLanes';
import { timelineStrings } from '../timeline/timelineText';
import type { CompareStrings } from './compareStrings';

/** Steps of the trace taken by virtual time `t` (the state after the last step at or before it). */
export function stepAtTime(trace: Trace, t: number): number {
  let lo = 0;
  let hi = trace.steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((trace.steps.at(mid)?.t ?? 0) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const laneName = (r: PartitionRow) => keyOf(r);
/** What a lane shows, as a string: equal strings, equal lanes. */
export function laneSignature(r: PartitionRow | undefined): string {
  if (!r) return '';
  return `${r.logStartOffset}|${r.highWatermark}|${r.lastStableOffset}|${r.logEndOffset}|${r.records
    .map((x) => `${x.offset}:${x.control ?? ''}:${x.txnOutcome ?? ''}:${x.headers.event_id ?? ''}`)
    .join(',')}`;
}

export function CompareTimelines({
  a,
  b,
  time,
  end,
  onTime,
  language,
  t,
}: {
  readonly a: Trace;
  readonly b: Trace;
  readonly time: number;
  readonly end: number;
  readonly onTime: (t: number) => void;
  readonly language: Language;
  readonly t: CompareStrings;
}) {
  const rowsA = useMemo(() => partitionRows(stateAt(a, stepAtTime(a, time)).actors).filter((r) => !r.internal), [a, time]);
  const rowsB = useMemo(() => partitionRows(stateAt(b, stepAtTime(b, time)).actors).filter((r) => !r.internal), [b, time]);
  const names = [...new Set([...rowsA, ...rowsB].map(laneName))].sort();
  const byName = (rows: PartitionRow[]) => new Map(rows.map((r) => [laneName(r), r]));
  const ma = byName(rowsA);
  const mb = byName(rowsB);
  const differing = names.filter((n) => laneSignature(ma.get(n)) !== laneSignature(mb.get(n)));
  const extents = new Map<string, LaneExtent>();
  for (const n of names) {
    const x = ma.get(n);
    const y = mb.get(n);
    const start = Math.min(x?.logStartOffset ?? Number.POSITIVE_INFINITY, y?.logStartOffset ?? Number.POSITIVE_INFINITY);
    const stop = Math.max(x?.logEndOffset ?? 0, y?.logEndOffset ?? 0) + 1;
    extents.set(n, { start: Number.isFinite(start) ? start : 0, end: stop });
  }
  const text = timelineStrings(language);
  const column = (label: string, m: Map<string, PartitionRow>) => (
    <div className="compare-column" data-side={label}>
      <h4>{label}</h4>
      {names.map((n) => {
        const row = m.get(n);
        const lane = row ? buildLane(row) : null;
        return (
          <div
            key={n}
            className={`compare-lane${differing.includes(n) ? ' differs' : ''}`}
            data-lane={n}
            data-differs={differing.includes(n) ? 'true' : 'false'}
          >
            {lane ? (
              <PartitionLanes
                lanes={[lane]}
                extents={new Map([[lane.key, extents.get(n) as LaneExtent]])}
                selection={null}
                onSelect={() => {}}
                text={text}
              />
            ) : (
              <p className="muted">{`${n}: ${t.missing}`}</p>
            )}
          </div>
        );
      })}
    </div>
  );
  return (
    <section className="compare-timelines timeline" data-testid="compare-timelines">
      <h3>{t.timelineTitle}</h3>
      <label className="compare-scrubber">
        {t.scrubber}{' '}
        <input
          type="range"
          min={0}
          max={end}
          step={1}
          value={time}
          onChange={(e) => onTime(Number(e.currentTarget.value))}
          data-testid="compare-scrubber"
        />{' '}
        <output data-testid="compare-time">{t.at(time)}</output>
      </label>
      <p className={differing.length ? 'compare-count differs' : 'compare-count'} data-testid="compare-lanes-differ">
        {differing.length ? t.lanesDiffer(differing.join(', ')) : t.lanesSame}
      </p>
      <div className="compare-columns">
        {column('A', ma)}
        {column('B', mb)}
      </div>
    </section>
  );
}
