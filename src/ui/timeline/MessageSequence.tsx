/**
 * The message-sequence panel: envelopes between processes over virtual time (or by step), with the
 * toggles for the axis and for background traffic, driven by MscController.
 */

import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Selection } from '../../store/simStore';
import { CanvasPlot } from './CanvasPlot';
import type { EnvelopePayloads } from './envelopePayloads';
import { MscController } from './MscController';
import { laneY, mscHeight } from './mscLayout';
import { type AxisMode, type MscModel, mscSummary, sentBefore, visibleEnvelopes } from './mscModel';
import { type TimelineStrings, timelineStrings } from './timelineText';
import { useCanvasController } from './useCanvasController';
import { ZoomButtons } from './ZoomButtons';

export interface MessageSequenceProps {
  readonly model: MscModel;
  readonly step: number;
  /** Virtual time at this step. */
  readonly now: number;
  readonly selection: Selection | null;
  readonly onSelect: (selection: Selection | null) => void;
  /** The panel's words (default English). */
  readonly text?: TimelineStrings;
  /** Fault labels in the reader's language (default: the engine's English). */
  readonly translateFault?: (label: string) => string;
  /** Where the tooltip reads payloads when the model's envelopes carry none (the embed's worker). */
  readonly payloads?: EnvelopePayloads | null;
}

export function MessageSequence({
  model,
  step,
  now,
  selection,
  onSelect,
  text = timelineStrings('en'),
  translateFault,
  payloads = null,
}: MessageSequenceProps) {
  const [mode, setMode] = useState<AxisMode>('step');
  const [background, setBackground] = useState(false);
  const ids = useId();
  const axisRef = useRef<SVGSVGElement>(null);
  const controller = useRef<MscController | null>(null);
  const refs = useCanvasController(
    controller,
    (el, select) => (axisRef.current ? new MscController({ ...el, axis: axisRef.current }, select) : null),
    { selection, text, onSelect },
  );

  const shown = useMemo(() => visibleEnvelopes(model, step, background), [model, step, background]);
  const hidden = background ? 0 : sentBefore(model, step) - shown.length;

  useEffect(() => {
    controller.current?.setData({ model, shown, mode, step, now });
  }, [model, shown, mode, step, now]);

  useEffect(() => {
    if (translateFault) controller.current?.setFaultText(translateFault);
  }, [translateFault]);

  useEffect(() => {
    controller.current?.setPayloads(payloads);
  }, [payloads]);

  const summary = mscSummary(model, shown, step, hidden, text.language, translateFault);
  return (
    <section className="tl-panel tl-msc-panel" aria-labelledby={`${ids}-title`} data-testid="msc">
      <div className="tl-panel-head">
        <h3 id={`${ids}-title`}>{text.messagesTitle}</h3>
        <div className="tl-toolbar" role="toolbar" aria-label={text.messageOptions}>
          <fieldset className="tl-segmented">
            <legend className="tl-sr-only">{text.axis}</legend>
            <button type="button" aria-pressed={mode === 'step'} onClick={() => setMode('step')}>
              {text.byStep}
            </button>
            <button type="button" aria-pressed={mode === 'time'} onClick={() => setMode('time')}>
              {text.virtualTime}
            </button>
          </fieldset>
          <button type="button" aria-pressed={background} onClick={() => setBackground((b) => !b)}>
            {text.background(hidden)}
          </button>
          <ZoomButtons
            view={controller}
            zoomOut={text.messagesZoomOut}
            zoomIn={text.messagesZoomIn}
            fit={text.messagesFit}
            fitText={text.fit}
          />
        </div>
        <p className="tl-hint" id={`${ids}-help`}>
          {mode === 'step' ? text.byStepHint : text.timeHint} <span className="tl-hint-pointer">{text.messagesKeys}</span>
          <span className="tl-hint-touch">{text.messagesTouch}</span>
        </p>
      </div>
      <div className="tl-msc" style={{ height: mscHeight(model.lanes.length) }}>
        <div className="tl-gutter" aria-hidden="true">
          {model.lanes.map((l, i) => (
            <div key={l.id} className="tl-lane-label tl-msc-label" style={{ top: laneY(i) }}>
              <span className="tl-lane-name" translate="no">
                {l.id}
              </span>
              <span className="tl-lane-leader" title={text.kinds[l.kind] ?? l.kind}>
                {text.kinds[l.kind] ?? l.kind}
              </span>
            </div>
          ))}
        </div>
        <CanvasPlot refs={refs} label={text.messageSequence} describedBy={`${ids}-summary ${ids}-help`} tooltipTestId="msc-tooltip">
          <svg ref={axisRef} className="tl-axes tl-msc-axis" aria-hidden="true" />
          <canvas
            ref={refs.staticCanvas}
            className="tl-canvas"
            role="img"
            aria-label={text.messagesCanvas(model.lanes.length, step, mode === 'step')}
            aria-describedby={`${ids}-summary`}
          />
        </CanvasPlot>
      </div>
      <p id={`${ids}-summary`} className="tl-sr-only" data-testid="msc-summary">
        {summary}
      </p>
      <p ref={refs.live} className="tl-sr-only" aria-live="polite" data-testid="msc-focus-detail" />
    </section>
  );
}
