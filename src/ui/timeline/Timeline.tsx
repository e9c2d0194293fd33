/**
 * The timeline: one lane per partition (internal topics included, collapsible), records as cells by
 * offset, markers, the high watermark / LSO / log end offset, consumer positions and committed
 * offsets; and the message-sequence view of envelopes over virtual time (or by step).
 *
 * Contract with the rest of the UI: it draws views, not the trace — the lanes at the current step,
 * the run's lane extents and its message diagram — so the page can compute them from its trace
 * (TraceTimeline.tsx) and the embed receive them from the engine's worker. It reports selections
 * through `onSelect`, and keeps its own 60 fps state (zoom, hover) to itself (see LanesController and
 * MscController: canvases driven by d3-zoom, outside React).
 */
import type { Selection } from '../../store/simStore';
import type { EnvelopePayloads } from './envelopePayloads';
import { LanesLegend, MscLegend } from './Legend';
import type { LaneModel } from './laneModel';
import { MessageSequence } from './MessageSequence';
import type { MscModel } from './mscModel';
import type { LaneExtent } from './offsetScale';
import { PartitionLanes } from './PartitionLanes';
import { type TimelineLanguage, timelineStrings } from './timelineText';
import './timeline.css';

export interface TimelineProps {
  /** The lanes after `step` steps (LaneCache). */
  readonly lanes: readonly LaneModel[];
  /** The offsets each partition covers over the whole run (runExtents). */
  readonly extents: ReadonlyMap<string, LaneExtent>;
  /** The run's message diagram (buildMscModel). */
  readonly msc: MscModel;
  readonly step: number;
  /** Virtual time after `step` steps. */
  readonly now: number;
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
  /** Where the message diagram's tooltip reads payloads when `msc`'s envelopes carry none (the embed's worker). */
  readonly payloads?: EnvelopePayloads | null;
}

export function Timeline({
  lanes,
  extents,
  msc,
  step,
  now,
  selection,
  onSelect,
  internalTopicsExpanded,
  hideMessages,
  language = 'en',
  translateFault,
  payloads,
}: TimelineProps) {
  const text = timelineStrings(language);
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
            now={now}
            selection={selection}
            onSelect={onSelect}
            text={text}
            translateFault={translateFault}
            payloads={payloads}
          />
          <MscLegend text={text} />
        </>
      )}
    </div>
  );
}
