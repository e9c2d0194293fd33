/**
 * The timeline over a trace on this thread (the page, the timeline bench): its lanes at the view's
 * step, the run's extents and message diagram, computed here and drawn by Timeline. The embed gets
 * the same three from the engine's worker (src/embed/embedPanels.ts) instead.
 */
import { useMemo } from 'react';
import { type SimView, type Trace, truncationsAt } from '../../sim/views';
import { tracePayloadsOf } from './envelopePayloads';
import { LaneCache } from './laneCache';
import { runExtentsOf } from './laneExtents';
import { mscModelOf } from './mscModel';
import { Timeline, type TimelineProps } from './Timeline';

export type TraceTimelineProps = Omit<TimelineProps, 'lanes' | 'extents' | 'msc' | 'now'> & {
  readonly trace: Trace;
  readonly view: SimView;
};

export function TraceTimeline({ trace, view, ...rest }: TraceTimelineProps) {
  const extents = runExtentsOf(trace);
  const laneCache = useMemo(() => (trace ? new LaneCache() : null), [trace]);
  // the records truncation cut from replicas so far (the trace's facts: a snapshot no longer has them)
  const lanes = useMemo(
    () => (trace ? (laneCache?.lanes(view.actors, truncationsAt(trace, view.step)) ?? []) : []),
    [laneCache, trace, view],
  );
  const msc = mscModelOf(trace);
  const payloads = rest.payloads ?? tracePayloadsOf(trace);
  return <Timeline lanes={lanes} extents={extents} msc={msc} now={view.time} {...rest} payloads={payloads} />;
}
