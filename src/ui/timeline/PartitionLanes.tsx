/**
 * The partition lanes panel: DOM for what must be DOM (lane names, the internal-topics toggle, the
 * zoom buttons, the text alternative, the tooltip), canvases for the marks, driven by LanesController.
 */

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Selection } from '../../store/simStore';
import { CanvasPlot } from './CanvasPlot';
import { LanesController } from './LanesController';
import { type LanesLayout, layoutLanes } from './laneLayout';
import type { LaneModel } from './laneModel';
import { laneLeaderText, laneNameLines, shortLaneName } from './laneName';
import { laneSummary } from './laneSummary';
import type { LaneExtent } from './offsetScale';
import { type TimelineStrings, timelineStrings } from './timelineText';
import { useCanvasController } from './useCanvasController';
import { ZoomButtons } from './ZoomButtons';

export interface PartitionLanesProps {
  readonly lanes: readonly LaneModel[];
  readonly extents: ReadonlyMap<string, LaneExtent>;
  readonly selection: Selection | null;
  readonly onSelect: (selection: Selection | null) => void;
  /** Internal topics expanded at first (default: collapsed). */
  readonly initiallyExpanded?: boolean;
  /** Time each drawn frame took (benchmarks). */
  readonly onFrame?: (ms: number) => void;
  /** Hands out the controller (benchmarks and tests drive zoom through it). */
  readonly onController?: (controller: LanesController | null) => void;
  /** The panel's words (default English). */
  readonly text?: TimelineStrings;
}

/** The phone layout's breakpoint (timeline.css): a narrower gutter whose names take up to two lines. */
const PHONE_QUERY = '(max-width: 640px)';

const fits = new Map<boolean, ((text: string) => boolean) | undefined>();

/** gutterFit, made once per layout: it reads the document's computed font, which would force a style recalculation on every new run's first render. */
/** Whether a text fits one line of the gutter in the lane name's bold font (undefined where no canvas can measure: by length). */
function gutterFitOnce(phone: boolean): ((text: string) => boolean) | undefined {
  if (!fits.has(phone)) fits.set(phone, gutterFit(phone));
  return fits.get(phone);
}

function gutterFit(phone: boolean): ((text: string) => boolean) | undefined {
  const ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext?.('2d');
  if (!ctx) return undefined;
  const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  ctx.font = `600 ${(phone ? 0.75 : 0.85) * rem}px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`;
  // the gutter is 12rem wide (7.5rem on phones) and its labels keep 0.5rem clear of the plot; on
  // phones a name may take two such lines (laneNameLines)
  const width = phone ? 7 * rem - 2 : 11.5 * rem - 2;
  return (text) => ctx.measureText(text).width <= width;
}

function usePhone(): boolean {
  const query = useMemo(() => (typeof window === 'undefined' || !window.matchMedia ? null : window.matchMedia(PHONE_QUERY)), []);
  const [phone, setPhone] = useState(() => query?.matches ?? false);
  useEffect(() => {
    if (!query) return;
    const on = () => setPhone(query.matches);
    query.addEventListener?.('change', on);
    return () => query.removeEventListener?.('change', on);
  }, [query]);
  return phone;
}

/** A name's one or two lines (laneNameLines), the second after a line break. */
function NameLines({ lines }: { readonly lines: readonly string[] }) {
  const [first, second] = lines;
  return (
    <>
      {first}
      {second !== undefined && (
        <>
          <br />
          {second}
        </>
      )}
    </>
  );
}

function internalTopics(lanes: readonly LaneModel[], text: TimelineStrings): string {
  const counts = new Map<string, number>();
  for (const l of lanes) if (l.internal) counts.set(l.topic, (counts.get(l.topic) ?? 0) + 1);
  return [...counts.entries()].map(([t, n]) => text.partitions(t, n)).join(', ');
}

export function PartitionLanes({
  lanes,
  extents,
  selection,
  onSelect,
  initiallyExpanded = false,
  onFrame,
  onController,
  text = timelineStrings('en'),
}: PartitionLanesProps) {
  const [expanded, setExpanded] = useState(initiallyExpanded);
  const layout: LanesLayout = useMemo(() => layoutLanes(lanes, expanded), [lanes, expanded]);
  const phone = usePhone();
  const fitsGutter = gutterFitOnce(phone);
  const ids = useId();
  const frame = useRef(onFrame);
  frame.current = onFrame;
  const controller = useRef<LanesController | null>(null);
  const refs = useCanvasController(
    controller,
    (el, select) => new LanesController(el, { onSelect: select, onFrame: (ms) => frame.current?.(ms) }),
    { selection, text, onSelect, onController },
  );

  useEffect(() => {
    controller.current?.setData(lanes, layout, extents);
  }, [lanes, layout, extents]);

  const userCount = lanes.filter((l) => !l.internal).length;
  const internalCount = lanes.length - userCount;
  const canvasLabel = text.canvasLabel(userCount, internalCount, expanded);

  return (
    <section className="tl-panel tl-lanes-panel" aria-labelledby={`${ids}-title`} data-testid="logs">
      <div className="tl-panel-head">
        <h3 id={`${ids}-title`}>{text.logsTitle}</h3>
        <div className="tl-toolbar" role="toolbar" aria-label={text.logsZoom}>
          <ZoomButtons view={controller} zoomOut={text.logsZoomOut} zoomIn={text.logsZoomIn} fit={text.logsFit} fitText={text.fit} />
        </div>
        {/* the mouse's and keyboard's words, or a finger's on a touch screen (timeline.css) */}
        <p className="tl-hint" id={`${ids}-help`}>
          <span className="tl-hint-pointer">{text.logsHint}</span>
          <span className="tl-hint-touch">{text.logsTouchHint}</span>
        </p>
      </div>
      <div className="tl-lanes" style={{ height: layout.height }}>
        <div className="tl-gutter">
          {layout.boxes.map((b) => {
            const lane = lanes[b.lane];
            return (
              <div key={b.key} className="tl-lane-label" style={{ top: b.y + 14 }} aria-hidden="true" title={b.key}>
                <span className="tl-lane-name" translate="no">
                  {phone ? <NameLines lines={laneNameLines(b.key, fitsGutter)} /> : shortLaneName(b.key, fitsGutter)}
                </span>
                <span className="tl-lane-leader">{laneLeaderText(lane, text)}</span>
              </div>
            );
          })}
          {layout.group && (
            <button
              type="button"
              className="tl-group-toggle"
              style={{ top: layout.group.y + 4 }}
              aria-expanded={expanded}
              onClick={() => setExpanded((x) => !x)}
              title={internalTopics(lanes, text)}
            >
              <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> {text.internalTopics(layout.group.count)}
            </button>
          )}
        </div>
        <CanvasPlot refs={refs} label={text.lanes} describedBy={`${ids}-help`} tooltipTestId="timeline-tooltip">
          <canvas ref={refs.staticCanvas} className="tl-canvas" role="img" aria-label={canvasLabel} />
          {/* the text alternative: one image per lane, over the lane, named by what it shows */}
          <div className="tl-lane-alts" data-testid="timeline-summary">
            {layout.boxes.map((b) => {
              const lane = lanes[b.lane];
              if (!lane) return null;
              const summary = laneSummary(lane, text.language);
              return (
                <div
                  key={b.key}
                  className="tl-lane-alt"
                  role="img"
                  aria-label={summary}
                  style={{ top: b.y, height: b.height }}
                  data-lane={b.key}
                  data-offsets={lane.offsets.length <= 200 ? Array.from(lane.offsets).join(' ') : undefined}
                >
                  <span className="tl-sr-only">{summary}</span>
                </div>
              );
            })}
            {internalCount > 0 && !expanded && <p className="tl-sr-only">{text.internalCollapsed(internalTopics(lanes, text))}</p>}
          </div>
        </CanvasPlot>
      </div>
      <p ref={refs.live} className="tl-sr-only" aria-live="polite" data-testid="timeline-focus-detail" />
    </section>
  );
}
