/**
 * The timeline: one lane per partition (internal topics included, collapsible), records as cells by
 * offset, markers, the high watermark / LSO / log end offset, consumer positions and committed
 * offsets; and the message-sequence view of envelopes over virtual time (or by step).
 *
 * Contract with the rest of the UI: it reads the trace and the view at the current step from its
 * props, reports selections through `onSelect`, and keeps its own 60 fps state (zoom, hover) to itself
 * (see LanesController and MscController: canvases driven by d3-zoom, outside React).
 */
import { useMemo } from 'react';
import { type SimView, type Trace, truncationsAt } from '../../sim/views';
import type { Selection } from '../../store/simStore';
import { LanesLegend, MscLegend } from './Legend';
import { LaneCache } from './laneCache';
import { runExtents } from './laneExtents';
import { MessageSequence } from './MessageSequence';
import { buildMscModel } from './mscModel';
import { PartitionLanes } from './PartitionLanes';
import { type TimelineLanguage, timelineStrings } from './timelineText';
import './timeline.css';

export interface TimelineProps {
  readonly trace: Trace;
  readonly view: SimView;
  readonly step: number;
  readonly selection: Selection | null;
  readonly onSelect: (selection: Selection | null) => void;
  /** Show `__consumer_offsets` and `__transaction_state` expanded at first (default: collapsed). */
  readonly internalTopicsExpanded?: boolean;
  /** Leave out the message-sequence view (e.g. a compact embed). */
  readonly hideMessages?: boolean;
  /** The language of the timeline's own words (default English). */
  readonly language?: TimelineLanguage;
  /** Fault labels (the engine's English) in that language, when the page can translate them. */
  readonly translateFault?: (label: string) => string;
}

export function Timeline({
  trace,
  view,
  step,
  selection,
  onSelect,
  internalTopicsExpanded,
  hideMessages,
  language = 'en',
  translateFault,
}: TimelineProps) {
  const text = timelineStrings(language);
  const extents = useMemo(() => runExtents(trace), [trace]);
  const laneCache = useMemo(() => (trace ? new LaneCache() : null), [trace]);
  // the records truncation cut from replicas so far (the trace's facts: a snapshot no longer has them)
  const lanes = useMemo(
    () => (trace ? (laneCache?.lanes(view.actors, truncationsAt(trace, view.step)) ?? []) : []),
    [laneCache, trace, view],
  );
  const msc = useMemo(() => buildMscModel(trace), [trace]);
  return (
    <div className="timeline" data-testid="timeline">
      <PartitionLanes
        lanes={lanes}
        extents={extents}
        selection={selection}
        onSelect={onSelect}
        initiallyExpanded={internalTopicsExpanded ?? false}
        text={text}
      />
      <LanesLegend text={text} replicated={lanes.some((l) => l.replication !== null)} />
      {!hideMessages && (
        <>
          <MessageSequence
            model={msc}
            step={step}
            now={view.time}
            selection={selection}
            onSelect={onSelect}
            text={text}
            translateFault={translateFault}
          />
          <MscLegend text={text} />
        </>
      )}
    </div>
  );
}
