/**
 * Drives the message-sequence view outside React: d3-zoom along the time (or step) axis, the static
 * and overlay canvases, the d3 axis, hover / keyboard focus / selection of envelopes and the tooltip.
 */
import { axisTop } from 'd3-axis';
import { type ScaleLinear, scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { type D3ZoomEvent, type ZoomBehavior, type ZoomTransform, zoom, zoomIdentity } from 'd3-zoom';
import type { EnvelopeRecord } from '../../sim/kernel/envelope';
import type { Selection } from '../../store/simStore';
import { beginFrame, type CanvasLayer, createLayer, sizeLayer } from './canvasLayer';
import { envelopeDetails } from './details';
import { hideTooltip, placeTooltip, renderDetails } from './detailsDom';
import { LABEL_FONT_PX } from './drawLanes';
import { arrowPath, drawArrows, faultText, strokeArrow } from './drawMsc';
import { createFrameScheduler, type FrameScheduler } from './frameScheduler';
import { distanceToSegment } from './hitTest';
import { envelopeWindow, laneY, MSC_GEOMETRY, MSC_MAX_UNIT_PX, mscHeight } from './mscLayout';
import { type AxisMode, envelopeSpan, envelopeStateAt, type MscModel } from './mscModel';
import { PLOT_PAD } from './offsetScale';
import { type Palette, readPalette, watchTheme } from './palette';
import { type TimelineStrings, timelineStrings } from './timelineText';

export interface MscElements {
  readonly root: HTMLElement;
  readonly plot: HTMLElement;
  readonly staticCanvas: HTMLCanvasElement;
  readonly overlayCanvas: HTMLCanvasElement;
  readonly axis: SVGSVGElement;
  readonly tooltip: HTMLElement;
  readonly live: HTMLElement;
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

export class MscController {
  private data: MscData | null = null;
  /** Start of each shown envelope in axis units (non-decreasing). */
  private starts = new Float64Array(0);
  private width = 0;
  private transform: ZoomTransform = zoomIdentity;
  private hover = -1;
  /** Position in `shown` of the focused envelope. */
  private focus = -1;
  private focused = false;
  /** Focus came from the keyboard (or a key was pressed since): only then show the focus ring and its details. */
  private keyboardMode = false;
  private selectedId: number | null = null;
  private palette: Palette;
  private needStatic = true;
  private overlayClear = false;
  private readonly staticLayer: CanvasLayer;
  private readonly overlayLayer: CanvasLayer;
  private readonly zoomBehavior: ZoomBehavior<HTMLCanvasElement, unknown>;
  private readonly scheduler: FrameScheduler;
  private readonly textWidths = new Map<string, number>();
  private readonly cleanup: (() => void)[] = [];
  private text: TimelineStrings = timelineStrings('en');
  private translateFault: (label: string) => string = (label) => label;

  constructor(
    private readonly el: MscElements,
    private readonly onSelect: (selection: Selection | null) => void,
  ) {
    this.staticLayer = createLayer(el.staticCanvas);
    this.overlayLayer = createLayer(el.overlayCanvas);
    this.palette = readPalette(el.root);
    this.scheduler = createFrameScheduler(() => this.draw());
    this.zoomBehavior = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([1, 1])
      .filter((e: Event) => (e.type === 'wheel' ? (e as WheelEvent).ctrlKey || (e as WheelEvent).metaKey : !(e as MouseEvent).button))
      .on('zoom', (e: D3ZoomEvent<HTMLCanvasElement, unknown>) => {
        this.transform = e.transform;
        this.invalidate();
      });
    select(el.overlayCanvas).call(this.zoomBehavior).on('dblclick.zoom', null);
    this.listen(el.overlayCanvas, 'wheel', (e) => this.onWheel(e as WheelEvent), { passive: false });
    this.listen(el.overlayCanvas, 'mousemove', (e) => {
      if (!(e as MouseEvent).buttons) this.setHover(this.hitAt((e as MouseEvent).offsetX, (e as MouseEvent).offsetY));
    });
    this.listen(el.overlayCanvas, 'mouseleave', () => this.setHover(-1));
    this.listen(el.overlayCanvas, 'click', (e) => {
      const hit = this.hitAt((e as MouseEvent).offsetX, (e as MouseEvent).offsetY);
      if (hit < 0) return;
      this.focus = hit;
      this.selectAt(hit);
    });
    this.listen(el.overlayCanvas, 'pointerdown', () => {
      this.keyboardMode = false;
    });
    this.listen(el.root, 'keydown', (e) => {
      this.keyboardMode = true;
      this.onKey(e as KeyboardEvent);
    });
    this.listen(el.root, 'focus', () => {
      this.focused = true;
      this.keyboardMode ||= el.root.matches(':focus-visible');
      if (this.focus < 0 || this.focus >= this.shownCount()) this.focus = this.initialFocus();
      this.announce();
      this.scheduler.request();
    });
    this.listen(el.root, 'blur', () => {
      this.focused = false;
      this.scheduler.request();
    });
    const ro = new ResizeObserver(() => this.resize());
    ro.observe(el.plot);
    this.cleanup.push(() => ro.disconnect());
    this.cleanup.push(
      watchTheme(() => {
        this.palette = readPalette(el.root);
        this.textWidths.clear();
        this.invalidate();
      }),
    );
  }

  destroy(): void {
    this.scheduler.cancel();
    select(this.el.overlayCanvas).on('.zoom', null);
    for (const f of this.cleanup) f();
    this.cleanup.length = 0;
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
      const e = data.model.envelopes[i] as EnvelopeRecord;
      starts[j] = data.mode === 'time' ? e.sentAt : e.sentStep + 1;
    });
    this.starts = starts;
    this.focus = focusedId === undefined ? -1 : this.positionOf(focusedId);
    this.hover = -1;
    this.resize();
    if (modeChanged) this.resetZoom();
    else if (oldNow !== null && oldNow >= 0 && oldNow <= this.width) {
      const nowX = this.scale()(data.mode === 'time' ? data.now : data.step);
      if (nowX > this.width - 16)
        this.zoomBehavior.translateBy(select(this.el.overlayCanvas), (this.width * 0.7 - nowX) / this.transform.k, 0);
    }
    this.invalidate();
  }

  /** Fault labels (the engine's English) in the reader's language, once the narration module can say them. */
  setFaultText(translate: (label: string) => string): void {
    if (translate === this.translateFault) return;
    this.translateFault = translate;
    this.invalidate();
  }

  /** The words the canvas writes (fault labels), in the reader's language. */
  setText(text: TimelineStrings): void {
    if (text === this.text) return;
    this.text = text;
    this.textWidths.clear();
    this.invalidate();
  }

  setSelection(selection: Selection | null): void {
    this.selectedId = selection?.kind === 'envelope' ? selection.id : null;
    this.el.root.dataset.selected = this.selectedId === null ? '' : String(this.selectedId);
    this.scheduler.request();
  }

  zoomBy(factor: number): void {
    this.zoomBehavior.scaleBy(select(this.el.overlayCanvas), factor, [this.width / 2, 0]);
  }

  resetZoom(): void {
    this.zoomBehavior.transform(select(this.el.overlayCanvas), zoomIdentity);
  }

  // ------------------------------------------------------------------ geometry

  private shownCount(): number {
    return this.data?.shown.length ?? 0;
  }

  private positionOf(id: number): number {
    const d = this.data;
    if (!d) return -1;
    for (let j = 0; j < d.shown.length; j++) if ((d.model.envelopes[d.shown[j] as number] as EnvelopeRecord).id === id) return j;
    return -1;
  }

  private focusedEnvelope(): EnvelopeRecord | undefined {
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
    return this.transform.rescaleX(this.baseScale());
  }

  private resize(): void {
    const width = Math.max(1, this.el.plot.clientWidth);
    const height = mscHeight(this.data?.model.lanes.length ?? 0);
    this.width = width;
    sizeLayer(this.staticLayer, width, height);
    sizeLayer(this.overlayLayer, width, height);
    this.el.axis.setAttribute('width', String(width));
    this.el.axis.setAttribute('height', String(MSC_GEOMETRY.axis));
    const unitPx = MSC_MAX_UNIT_PX[this.data?.mode ?? 'step'];
    const maxK = Math.max(1, (unitPx * this.domainEnd()) / Math.max(1, width - 2 * PLOT_PAD));
    this.zoomBehavior
      .extent([
        [0, 0],
        [width, height],
      ])
      .translateExtent([
        [0, 0],
        [width, height],
      ])
      .scaleExtent([1, maxK]);
    this.zoomBehavior.transform(select(this.el.overlayCanvas), this.transform);
    this.invalidate();
  }

  private invalidate(): void {
    this.needStatic = true;
    this.scheduler.request();
  }

  private measure = (text: string): number => {
    let w = this.textWidths.get(text);
    if (w === undefined) {
      w = this.staticLayer.ctx.measureText(text).width;
      this.textWidths.set(text, w);
    }
    return w;
  };

  // ------------------------------------------------------------------ drawing

  private draw(): boolean {
    if (this.needStatic) this.drawStatic();
    this.needStatic = false;
    this.drawOverlay();
    return false;
  }

  private window(scale: ScaleLinear<number, number>): [number, number] {
    const d = this.data;
    if (!d) return [0, 0];
    const [lo, hi] = [scale.invert(-10), scale.invert(this.width + 10)];
    return envelopeWindow(this.starts, lo, hi, d.model.maxSpan[d.mode] + (hi - lo) * 0.05);
  }

  private drawStatic(): void {
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
      },
      d.shown,
      from,
      to,
    );
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

  private drawOverlay(): void {
    const s = this.selectedId === null ? null : this.pathOf(this.positionOf(this.selectedId));
    const h = this.pathOf(this.hover);
    const f = this.focused && this.keyboardMode ? this.pathOf(this.focus) : null;
    this.refreshTooltip();
    if (!s && !h && !f && this.overlayClear) return;
    const ctx = beginFrame(this.overlayLayer);
    this.overlayClear = !s && !h && !f;
    const p = this.palette;
    if (s) strokeArrow(ctx, s, p.selection, 3.5, true);
    if (h) strokeArrow(ctx, h, p.hover, 2.5, true);
    if (f) {
      ctx.strokeStyle = p.focus;
      ctx.lineWidth = 2;
      ctx.setLineDash([4, 3]);
      const x = Math.min(f.x0, f.x1) - 5;
      const y = Math.min(f.y0, f.y1) - 5;
      ctx.strokeRect(x, y, Math.abs(f.x1 - f.x0) + 10, Math.abs(f.y1 - f.y0) + 10);
      ctx.setLineDash([]);
    }
  }

  private refreshTooltip(): void {
    const tip = this.el.tooltip;
    const d = this.data;
    const j = this.hover >= 0 ? this.hover : this.focused && this.keyboardMode ? this.focus : -1;
    const a = this.pathOf(j);
    if (!d || !a) {
      if (!tip.hidden) hideTooltip(tip);
      return;
    }
    const e = d.model.envelopes[d.shown[j] as number] as EnvelopeRecord;
    const key = `${e.id}@${d.step}`;
    if (tip.dataset.envelope !== key || tip.hidden) {
      renderDetails(tip, envelopeDetails(e, envelopeStateAt(d.model, e, d.step), this.text.language, this.translateFault));
      tip.dataset.envelope = key;
      tip.dataset.rpc = e.rpc;
    }
    placeTooltip(tip, (a.x0 + a.x1) / 2, Math.max(a.y0, a.y1), this.width);
  }

  private announce(): void {
    const d = this.data;
    const e = this.focusedEnvelope();
    this.el.live.textContent =
      d && e ? envelopeDetails(e, envelopeStateAt(d.model, e, d.step), this.text.language, this.translateFault).sentence : '';
  }

  // ------------------------------------------------------------------ input

  private listen(target: EventTarget, type: string, fn: (e: Event) => void, opts?: AddEventListenerOptions): void {
    target.addEventListener(type, fn, opts);
    this.cleanup.push(() => target.removeEventListener(type, fn, opts));
  }

  private onWheel(e: WheelEvent): void {
    if (e.ctrlKey || e.metaKey) return;
    const dx = e.shiftKey ? e.deltaY || e.deltaX : Math.abs(e.deltaX) > Math.abs(e.deltaY) ? e.deltaX : 0;
    if (dx === 0) return;
    e.preventDefault();
    this.zoomBehavior.translateBy(select(this.el.overlayCanvas), -dx / this.transform.k, 0);
  }

  /** Position in `shown` of the arrow nearest (x, y) within HIT_PX, or -1. */
  private hitAt(x: number, y: number): number {
    const d = this.data;
    if (!d) return -1;
    const scale = this.scale();
    const [from, to] = this.window(scale);
    const lo = scale.invert(x - HIT_PX - 40);
    let best = -1;
    let bestD = HIT_PX;
    for (let j = from; j < to; j++) {
      const i = d.shown[j] as number;
      const e = d.model.envelopes[i] as EnvelopeRecord;
      const span = envelopeSpan(d.model, e, d.mode, d.step, d.now);
      if (span.end !== null && span.end < lo) continue;
      const a = arrowPath({ model: d.model, mode: d.mode, step: d.step, now: d.now, scale }, i);
      const dist = distanceToSegment(x, y, a.x0, a.y0, a.x1, a.y1);
      if (dist <= bestD) {
        bestD = dist;
        best = j;
      }
    }
    return best;
  }

  private setHover(j: number): void {
    if (j === this.hover) return;
    this.hover = j;
    this.el.overlayCanvas.style.cursor = j >= 0 ? 'pointer' : '';
    this.scheduler.request();
  }

  private selectAt(j: number): void {
    const d = this.data;
    if (!d || j < 0) return;
    const e = d.model.envelopes[d.shown[j] as number] as EnvelopeRecord;
    this.onSelect({ kind: 'envelope', id: e.id });
  }

  private moveFocus(j: number): void {
    const n = this.shownCount();
    if (n === 0) return;
    this.focus = Math.max(0, Math.min(j, n - 1));
    this.hover = -1;
    const a = this.pathOf(this.focus);
    if (a && (a.x0 < 8 || a.x0 > this.width - 8)) {
      const world = this.baseScale()(this.starts[this.focus] as number);
      this.zoomBehavior.translateTo(select(this.el.overlayCanvas), world, 0);
    }
    this.announce();
    this.scheduler.request();
  }

  private onKey(e: KeyboardEvent): void {
    let handled = true;
    const f = this.focus;
    switch (e.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        this.moveFocus(f + 1);
        break;
      case 'ArrowLeft':
      case 'ArrowUp':
        this.moveFocus(f - 1);
        break;
      case 'PageDown':
        this.moveFocus(f + 10);
        break;
      case 'PageUp':
        this.moveFocus(f - 10);
        break;
      case 'Home':
        this.moveFocus(0);
        break;
      case 'End':
        this.moveFocus(this.shownCount() - 1);
        break;
      case 'Enter':
      case ' ':
        this.selectAt(f);
        break;
      case 'Escape':
        this.onSelect(null);
        break;
      case '+':
      case '=':
        this.zoomBy(1.6);
        break;
      case '-':
      case '_':
        this.zoomBy(1 / 1.6);
        break;
      case '0':
        this.resetZoom();
        break;
      default:
        handled = false;
    }
    if (handled) e.preventDefault();
  }
}
