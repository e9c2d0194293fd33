/**
 * Drives the message-sequence view outside React (on the shared CanvasController plumbing): the
 * arrows and the d3 axis along the time (or step) axis, hover / keyboard focus / selection of
 * envelopes on the overlay, the tooltip.
 */

import { axisTop } from 'd3-axis';
import { type ScaleLinear, scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import type { Selection } from '../../store/simStore';
import { CanvasController, type CanvasElements } from './CanvasController';
import { beginFrame } from './canvasLayer';
import { envelopeDetails } from './details';
import { hideTooltip, placeTooltip, renderDetails } from './detailsDom';
import { LABEL_FONT_PX } from './drawLanes';
import { arrowPath, drawArrows, faultText, strokeArrow } from './drawMsc';
import type { EnvelopePayloads } from './envelopePayloads';
import { distanceToSegment } from './hitTest';
import type { LabelBox, PlacedLabel } from './mscLabels';
import { envelopeWindow, laneY, MSC_GEOMETRY, MSC_MAX_UNIT_PX, mscHeight } from './mscLayout';
import { type AxisMode, envelopeSpan, envelopeStateAt, type MscEnvelope, type MscModel } from './mscModel';
import { PLOT_PAD } from './offsetScale';

/** The message view's canvas, with the labels of its last drawing (read by e2e/msc-labels.test.ts). */
type LabelledCanvas = HTMLCanvasElement & { eosPlacedLabels?: readonly PlacedLabel[] };

export interface MscElements extends CanvasElements {
  readonly axis: SVGSVGElement;
}

export interface MscData {
  readonly model: MscModel;
  /** Model indices of the envelopes to draw, in send order. */
  readonly shown: Int32Array;
  readonly mode: AxisMode;
  readonly step: number;
  readonly now: number;
}

const HIT_PX = 6;

/** Marks are positions in `shown`. */
export class MscController extends CanvasController<number, MscElements> {
  private data: MscData | null = null;
  /** The fault labels of the last drawing, with the arrow each names (hitAt: hovering one shows its tooltip). */
  private faultLabels: { box: LabelBox; position: number; cut: boolean }[] = [];
  /** Start of each shown envelope in axis units (non-decreasing). */
  private starts = new Float64Array(0);
  /** Position in `shown` of the focused envelope. */
  private focus = -1;
  private selectedId: number | null = null;
  private translateFault: (label: string) => string = (label) => label;
  /** Payloads read from elsewhere (the embed's worker), when the model's envelopes carry none. */
  private payloads: EnvelopePayloads | null = null;
  private unsubscribePayloads: (() => void) | null = null;

  constructor(el: MscElements, onSelect: (selection: Selection | null) => void) {
    super(el, { onSelect });
  }

  setData(data: MscData): void {
    const previous = this.data;
    const modeChanged = previous !== null && previous.mode !== data.mode;
    const focusedId = this.focusedEnvelope()?.id;
    // follow "now" while the run plays: if it was on screen and is about to leave it, pan along
    const oldNow = previous ? this.scale()(previous.mode === 'time' ? previous.now : previous.step) : null;
    this.data = data;
    const starts = new Float64Array(data.shown.length);
    data.shown.forEach((i, j) => {
      const e = data.model.envelopes.at(i) as MscEnvelope;
      starts[j] = data.mode === 'time' ? e.sentAt : e.sentStep + 1;
    });
    this.starts = starts;
    this.focus = focusedId === undefined ? -1 : this.positionOf(focusedId);
    this.hover = null;
    this.resize();
    if (modeChanged) this.resetZoom();
    else if (oldNow !== null && oldNow >= 0 && oldNow <= this.width) {
      const nowX = this.scale()(data.mode === 'time' ? data.now : data.step);
      if (nowX > this.width - 16) this.zoom.panBy(this.width * 0.7 - nowX);
    }
    this.invalidate();
  }

  /** Fault labels (the engine's English) in the reader's language, once the narration module can say them. */
  setFaultText(translate: (label: string) => string): void {
    if (translate === this.translateFault) return;
    this.translateFault = translate;
    this.invalidate();
  }

  /** Where the tooltip reads payloads (the model carries none: null shows none); a payload that comes redraws the tooltip. */
  setPayloads(payloads: EnvelopePayloads | null): void {
    if (payloads === this.payloads) return;
    this.unsubscribePayloads?.();
    this.payloads = payloads;
    this.unsubscribePayloads = payloads ? payloads.subscribe(() => this.scheduler.request()) : null;
    this.scheduler.request();
  }

  override destroy(): void {
    this.unsubscribePayloads?.();
    this.unsubscribePayloads = null;
    super.destroy();
  }

  setSelection(selection: Selection | null): void {
    this.selectedId = selection?.kind === 'envelope' ? selection.id : null;
    this.el.root.dataset.selected = this.selectedId === null ? '' : String(this.selectedId);
    this.scheduler.request();
  }

  // ------------------------------------------------------------------ geometry

  private shownCount(): number {
    return this.data?.shown.length ?? 0;
  }

  private positionOf(id: number): number {
    const d = this.data;
    if (!d) return -1;
    for (let j = 0; j < d.shown.length; j++) if ((d.model.envelopes[d.shown[j] as number] as MscEnvelope).id === id) return j;
    return -1;
  }

  private focusedEnvelope(): MscEnvelope | undefined {
    const d = this.data;
    if (!d || this.focus < 0) return undefined;
    return d.model.envelopes[d.shown[this.focus] as number];
  }

  private initialFocus(): number {
    if (this.selectedId !== null) {
      const j = this.positionOf(this.selectedId);
      if (j >= 0) return j;
    }
    return this.shownCount() > 0 ? 0 : -1;
  }

  private domainEnd(): number {
    const d = this.data;
    if (!d) return 1;
    return Math.max(1, d.mode === 'time' ? d.model.endTime : d.model.endStep);
  }

  private baseScale(): ScaleLinear<number, number> {
    return scaleLinear()
      .domain([0, this.domainEnd()])
      .range([PLOT_PAD, Math.max(PLOT_PAD + 1, this.width - PLOT_PAD)]);
  }

  private scale(): ScaleLinear<number, number> {
    return this.zoom.transform.rescaleX(this.baseScale());
  }

  /**
   * + and − zoom around the selected envelope, else the "now" line (where the reader is), when it is
   * in view; else the middle. Around the middle, a few presses at step 60 of a 400-step run showed an
   * empty stretch of later steps.
   */
  protected override zoomAnchor(): number {
    const d = this.data;
    if (!d) return this.width / 2;
    const inView = (x: number) => x >= 0 && x <= this.width;
    const selected = this.selectedId === null ? null : this.pathOf(this.positionOf(this.selectedId));
    if (selected && inView(selected.x0)) return selected.x0;
    const nowX = this.scale()(d.mode === 'time' ? d.now : d.step);
    return inView(nowX) ? nowX : this.width / 2;
  }

  protected plotSize(width: number): { height: number; maxZoom: number } {
    this.el.axis.setAttribute('width', String(width));
    this.el.axis.setAttribute('height', String(MSC_GEOMETRY.axis));
    const unitPx = MSC_MAX_UNIT_PX[this.data?.mode ?? 'step'];
    const maxZoom = Math.max(1, (unitPx * this.domainEnd()) / Math.max(1, width - 2 * PLOT_PAD));
    return { height: mscHeight(this.data?.model.lanes.length ?? 0), maxZoom };
  }

  // ------------------------------------------------------------------ drawing

  private window(scale: ScaleLinear<number, number>): [number, number] {
    const d = this.data;
    if (!d) return [0, 0];
    const [lo, hi] = [scale.invert(-10), scale.invert(this.width + 10)];
    return envelopeWindow(this.starts, lo, hi, d.model.maxSpan[d.mode] + (hi - lo) * 0.05);
  }

  protected drawStatic(): void {
    const ctx = beginFrame(this.staticLayer);
    const d = this.data;
    if (!d) return;
    const p = this.palette;
    const scale = this.scale();
    ctx.font = `${LABEL_FONT_PX}px ${p.font}`;
    // process rows
    ctx.fillStyle = p.grid;
    d.model.lanes.forEach((_, i) => {
      ctx.fillRect(0, Math.round(laneY(i)), this.width, 1);
    });
    // now
    const nowX = scale(d.mode === 'time' ? d.now : d.step);
    ctx.strokeStyle = p.now;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([3, 3]);
    ctx.beginPath();
    ctx.moveTo(nowX, MSC_GEOMETRY.axis - 2);
    ctx.lineTo(nowX, this.staticLayer.height);
    ctx.stroke();
    ctx.setLineDash([]);
    const [from, to] = this.window(scale);
    this.faultLabels = [];
    const placed: PlacedLabel[] = [];
    drawArrows(
      {
        ctx,
        width: this.width,
        palette: p,
        model: d.model,
        mode: d.mode,
        step: d.step,
        now: d.now,
        scale,
        measure: this.measure,
        top: MSC_GEOMETRY.axis,
        bottom: this.staticLayer.height,
        faultText: (e, span) => faultText(this.text, e, span, this.translateFault),
        faultLabels: this.faultLabels,
        placedLabels: placed,
      },
      d.shown,
      from,
      to,
    );
    // the labels as placed, on the canvas element for the browser tests (a property: no DOM write)
    (this.staticLayer.canvas as LabelledCanvas).eosPlacedLabels = placed;
    const count = Math.max(2, Math.floor(this.width / 100));
    const fmt = d.mode === 'time' ? scale.tickFormat(count) : (v: number) => String(v);
    const ticks = d.mode === 'time' ? scale.ticks(count) : scale.ticks(count).filter(Number.isInteger);
    select(this.el.axis)
      .selectAll<SVGGElement, null>('g.tl-axis')
      .data([null])
      .join('g')
      .attr('class', 'tl-axis')
      .attr('transform', `translate(0,${MSC_GEOMETRY.axis - 4})`)
      .call(
        axisTop(scale)
          .tickValues(ticks)
          .tickFormat((v) => (d.mode === 'time' ? `${fmt(v as number)} ms` : `${v}`))
          .tickSize(4)
          .tickSizeOuter(0),
      );
  }

  private pathOf(j: number) {
    const d = this.data;
    if (!d || j < 0 || j >= d.shown.length) return null;
    return arrowPath({ model: d.model, mode: d.mode, step: d.step, now: d.now, scale: this.scale() }, d.shown[j] as number);
  }

  protected drawOverlay(): void {
    const s = this.selectedId === null ? null : this.pathOf(this.positionOf(this.selectedId));
    const h = this.pathOf(this.hover ?? -1);
    const f = this.focused && this.keyboardMode ? this.pathOf(this.focus) : null;
    this.refreshTooltip();
    const ctx = this.beginOverlay(!s && !h && !f);
    if (!ctx) return;
    const p = this.palette;
    if (s) strokeArrow(ctx, s, p.selection, 3.5, true);
    if (h) strokeArrow(ctx, h, p.hover, 2.5, true);
    if (f)
      this.strokeFocusRing(ctx, Math.min(f.x0, f.x1) - 5, Math.min(f.y0, f.y1) - 5, Math.abs(f.x1 - f.x0) + 10, Math.abs(f.y1 - f.y0) + 10);
  }

  private refreshTooltip(): void {
    const tip = this.el.tooltip;
    const d = this.data;
    const j = this.hover ?? (this.focused && this.keyboardMode ? this.focus : -1);
    const a = this.pathOf(j);
    if (!d || !a) {
      if (!tip.hidden) hideTooltip(tip);
      return;
    }
    const e = d.model.envelopes[d.shown[j] as number] as MscEnvelope;
    // null: asked for and on its way (the tooltip says so and is drawn again when it comes)
    const payload = this.payloads?.get(e.id) ?? null;
    const key = `${e.id}@${d.step}${payload === null ? '…' : ''}`;
    if (tip.dataset.envelope !== key || tip.hidden) {
      renderDetails(tip, envelopeDetails(e, envelopeStateAt(d.model, e, d.step), this.text.language, this.translateFault, payload));
      tip.dataset.envelope = key;
      tip.dataset.rpc = e.rpc;
    }
    placeTooltip(tip, (a.x0 + a.x1) / 2, Math.max(a.y0, a.y1), this.width);
  }

  private announce(): void {
    const d = this.data;
    const e = this.focusedEnvelope();
    this.el.live.textContent =
      d && e ? envelopeDetails(e, envelopeStateAt(d.model, e, d.step), this.text.language, this.translateFault, null).sentence : '';
  }

  // ------------------------------------------------------------------ input

  /** Position in `shown` of the arrow nearest (x, y) within HIT_PX, or null. */
  protected hitAt(x: number, y: number): number | null {
    const d = this.data;
    if (!d) return null;
    // on a fault label: its arrow (the tooltip then says the whole fault, a cut label's too)
    const label = this.faultLabels.find((l) => x >= l.box.x0 && x <= l.box.x1 && y >= l.box.y0 && y <= l.box.y1);
    if (label && label.position < d.shown.length) return label.position;
    const scale = this.scale();
    const [from, to] = this.window(scale);
    const lo = scale.invert(x - HIT_PX - 40);
    let best = -1;
    let bestD = HIT_PX;
    for (let j = from; j < to; j++) {
      const i = d.shown[j] as number;
      const e = d.model.envelopes.at(i) as MscEnvelope;
      const span = envelopeSpan(d.model, e, d.mode, d.step, d.now);
      if (span.end !== null && span.end < lo) continue;
      const a = arrowPath({ model: d.model, mode: d.mode, step: d.step, now: d.now, scale }, i);
      const dist = distanceToSegment(x, y, a.x0, a.y0, a.x1, a.y1);
      if (dist <= bestD) {
        bestD = dist;
        best = j;
      }
    }
    return best < 0 ? null : best;
  }

  protected clickMark(j: number): void {
    this.focus = j;
    this.selectAt(j);
  }

  protected selectFocused(): void {
    this.selectAt(this.focus);
  }

  protected onFocus(): void {
    if (this.focus < 0 || this.focus >= this.shownCount()) this.focus = this.initialFocus();
    this.announce();
    this.scheduler.request();
  }

  private selectAt(j: number): void {
    const d = this.data;
    if (!d || j < 0) return;
    const e = d.model.envelopes[d.shown[j] as number] as MscEnvelope;
    this.options.onSelect({ kind: 'envelope', id: e.id });
  }

  private moveFocus(j: number): void {
    const n = this.shownCount();
    if (n === 0) return;
    this.focus = Math.max(0, Math.min(j, n - 1));
    this.hover = null;
    const a = this.pathOf(this.focus);
    if (a) this.keepInView(a.x0, () => this.baseScale()(this.starts[this.focus] as number));
    this.announce();
    this.scheduler.request();
  }

  protected navigate(e: KeyboardEvent): boolean {
    const f = this.focus;
    switch (e.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        this.moveFocus(f + 1);
        return true;
      case 'ArrowLeft':
      case 'ArrowUp':
        this.moveFocus(f - 1);
        return true;
      case 'PageDown':
        this.moveFocus(f + 10);
        return true;
      case 'PageUp':
        this.moveFocus(f - 10);
        return true;
      case 'Home':
        this.moveFocus(0);
        return true;
      case 'End':
        this.moveFocus(this.shownCount() - 1);
        return true;
      default:
        return false;
    }
  }
}
