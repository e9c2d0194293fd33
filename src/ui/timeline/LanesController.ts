/**
 * Drives the partition lanes outside React: d3-zoom on the overlay canvas, the static and the
 * interactive canvas layers, the d3 offset axes, hover / keyboard focus / selection and the tooltip.
 * React hands it data (setData, setSelection) and never sees a zoom transform or a hover.
 */
import type { ScaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { type D3ZoomEvent, type ZoomBehavior, type ZoomTransform, zoom, zoomIdentity } from 'd3-zoom';
import type { Selection } from '../../store/simStore';
import { type BinColors, BinSurface, binColors } from './binRaster';
import { beginFrame, type CanvasLayer, createLayer, sizeLayer } from './canvasLayer';
import { recordDetails } from './details';
import { hideTooltip, placeTooltip, renderDetails } from './detailsDom';
import { drawLane, LABEL_FONT_PX, type LaneDrawContext } from './drawLanes';
import { createFrameScheduler, type FrameScheduler } from './frameScheduler';
import { indexOfOffset, recordAt, recordsInPixel } from './hitTest';
import { boxAtY, type LaneBox, type LanesLayout } from './laneLayout';
import type { LaneModel } from './laneModel';
import { createMarkLayout } from './markLayout';
import { Tweens } from './motion';
import { baseScale, type LaneExtent, laneScale, linearMapOf, maxZoom, mergeExtent, sharedSpan } from './offsetScale';
import { type Palette, readPalette, reducedMotion, watchTheme } from './palette';
import { createPatterns, type Patterns } from './patterns';
import { type TimelineStrings, timelineStrings } from './timelineText';

export interface LanesElements {
  /** The focusable element that receives keyboard input. */
  readonly root: HTMLElement;
  /** Positioned container of the layers; its width is the plot width. */
  readonly plot: HTMLElement;
  readonly staticCanvas: HTMLCanvasElement;
  readonly overlayCanvas: HTMLCanvasElement;
  readonly tooltip: HTMLElement;
  /** aria-live region announcing the focused record. */
  readonly live: HTMLElement;
}

export interface LanesControllerOptions {
  readonly onSelect: (selection: Selection | null) => void;
  /** Called after each drawn frame with the time it took (benchmarks). */
  readonly onFrame?: (ms: number) => void;
}

interface RecordRef {
  readonly lane: string;
  readonly offset: number;
}

const HIT_TOLERANCE_PX = 3;

export class LanesController {
  private lanes: readonly LaneModel[] = [];
  private laneByKey = new Map<string, LaneModel>();
  private layout: LanesLayout = { boxes: [], group: null, height: 1 };
  private extents = new Map<string, LaneExtent>();
  private span = 1;
  private width = 0;
  private transform: ZoomTransform = zoomIdentity;
  private hover: RecordRef | null = null;
  private focus: RecordRef | null = null;
  private focused = false;
  /** Focus came from the keyboard (or a key was pressed since): only then show the focus ring and its details. */
  private keyboardMode = false;
  private selection: Selection | null = null;
  private palette: Palette;
  private patterns: Patterns | null = null;
  private binColors: BinColors | null = null;
  private readonly bins = new BinSurface();
  private needStatic = true;
  private readonly staticLayer: CanvasLayer;
  private readonly overlayLayer: CanvasLayer;
  private readonly zoomBehavior: ZoomBehavior<HTMLCanvasElement, unknown>;
  private readonly scheduler: FrameScheduler;
  private readonly tweens = new Tweens();
  private readonly marks = createMarkLayout();
  private readonly textWidths = new Map<string, number>();
  private readonly cleanup: (() => void)[] = [];
  private lastMode: 'cells' | 'bins' = 'cells';
  private text: TimelineStrings = timelineStrings('en');
  private overlayClear = false;

  constructor(
    private readonly el: LanesElements,
    private readonly options: LanesControllerOptions,
  ) {
    this.staticLayer = createLayer(el.staticCanvas);
    this.overlayLayer = createLayer(el.overlayCanvas);
    this.palette = readPalette(el.root);
    this.scheduler = createFrameScheduler(() => this.draw(), options.onFrame);
    this.zoomBehavior = zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([1, 1])
      // the mouse wheel scrolls the page; ctrl/⌘ + wheel (and trackpad pinch) zooms
      .filter((e: Event) => (e.type === 'wheel' ? (e as WheelEvent).ctrlKey || (e as WheelEvent).metaKey : !(e as MouseEvent).button))
      .on('zoom', (e: D3ZoomEvent<HTMLCanvasElement, unknown>) => {
        this.transform = e.transform;
        this.invalidate();
      });
    const overlay = select(el.overlayCanvas);
    overlay.call(this.zoomBehavior).on('dblclick.zoom', null);
    this.listen(el.overlayCanvas, 'wheel', (e) => this.onWheel(e as WheelEvent), { passive: false });
    this.listen(el.overlayCanvas, 'mousemove', (e) => this.onPointer(e as MouseEvent));
    this.listen(el.overlayCanvas, 'mouseleave', () => this.setHover(null));
    this.listen(el.overlayCanvas, 'click', (e) => this.onClick(e as MouseEvent));
    this.listen(el.overlayCanvas, 'pointerdown', () => {
      this.keyboardMode = false;
    });
    this.listen(el.root, 'keydown', (e) => {
      this.keyboardMode = true;
      this.onKey(e as KeyboardEvent);
    });
    this.listen(el.root, 'focus', () => this.onFocus());
    this.listen(el.root, 'blur', () => {
      this.focused = false;
      this.refreshTooltip();
      this.scheduler.request();
    });
    const ro = new ResizeObserver(() => this.resize());
    ro.observe(el.plot);
    this.cleanup.push(() => ro.disconnect());
    this.cleanup.push(
      watchTheme(() => {
        this.palette = readPalette(el.root);
        this.patterns = null;
        this.binColors = null;
        this.textWidths.clear();
        this.invalidate();
      }),
    );
    this.resize();
  }

  destroy(): void {
    this.scheduler.cancel();
    select(this.el.overlayCanvas).on('.zoom', null);
    for (const f of this.cleanup) f();
    this.cleanup.length = 0;
  }

  setData(lanes: readonly LaneModel[], layout: LanesLayout, extents: ReadonlyMap<string, LaneExtent>): void {
    this.lanes = lanes;
    this.laneByKey = new Map(lanes.map((l) => [l.key, l]));
    this.layout = layout;
    const ext = new Map<string, LaneExtent>();
    for (const l of lanes) ext.set(l.key, mergeExtent(extents.get(l.key), l.logStartOffset, l.logEndOffset));
    this.extents = ext;
    this.span = sharedSpan(ext.values(), this.width);
    const now = performance.now();
    const animate = !reducedMotion();
    const keep = new Set<string>();
    const tween = (key: string, target: number) => {
      keep.add(key);
      this.tweens.set(key, target, now, animate);
    };
    for (const l of lanes) {
      tween(`${l.key}:lso`, l.lastStableOffset);
      tween(`${l.key}:hw`, l.highWatermark);
      tween(`${l.key}:leo`, l.logEndOffset);
      for (const p of l.pointers) tween(`${l.key}:${p.kind}:${p.owner}`, p.offset);
    }
    this.tweens.retain(keep);
    this.resize();
    this.refreshTooltip();
    this.invalidate();
  }

  /** The words the canvas writes (pointer labels), in the reader's language. */
  setText(text: TimelineStrings): void {
    if (text === this.text) return;
    this.text = text;
    this.textWidths.clear();
    this.invalidate();
  }

  setSelection(selection: Selection | null): void {
    this.selection = selection;
    this.el.root.dataset.selected = selection?.kind === 'record' ? `${selection.topic}-${selection.partition}@${selection.offset}` : '';
    this.scheduler.request();
  }

  zoomBy(factor: number): void {
    const anchor = this.focusX();
    this.zoomBehavior.scaleBy(select(this.el.overlayCanvas), factor, [anchor ?? this.width / 2, 0]);
  }

  resetZoom(): void {
    this.zoomBehavior.transform(select(this.el.overlayCanvas), zoomIdentity);
  }

  /** Pans by dx CSS pixels (positive moves the content right). */
  panBy(dx: number): void {
    this.zoomBehavior.translateBy(select(this.el.overlayCanvas), dx / this.transform.k, 0);
  }

  setTransform(k: number, x: number): void {
    this.zoomBehavior.transform(select(this.el.overlayCanvas), zoomIdentity.translate(x, 0).scale(k));
  }

  /** Draws now, synchronously (benchmarks and tests). */
  renderNow(): void {
    this.needStatic = true;
    this.scheduler.flush(true);
  }

  get mode(): 'cells' | 'bins' {
    return this.lastMode;
  }

  // ------------------------------------------------------------------ geometry

  private scaleOf(lane: LaneModel): ScaleLinear<number, number> {
    const e = this.extents.get(lane.key) ?? { start: lane.logStartOffset, end: lane.logEndOffset + 1 };
    return laneScale(e.start, this.span, this.width, this.transform);
  }

  private boxOf(key: string): LaneBox | undefined {
    return this.layout.boxes.find((b) => b.key === key);
  }

  private resolve(ref: RecordRef | null): { lane: LaneModel; box: LaneBox; index: number } | null {
    if (!ref) return null;
    const lane = this.laneByKey.get(ref.lane);
    const box = this.boxOf(ref.lane);
    if (!lane || !box) return null;
    const index = indexOfOffset(lane.offsets, ref.offset);
    return index < 0 ? null : { lane, box, index };
  }

  private focusX(): number | null {
    const f = this.resolve(this.focus);
    return f ? this.scaleOf(f.lane)(f.lane.offsets[f.index] as number) : null;
  }

  private resize(): void {
    const width = Math.max(1, this.el.plot.clientWidth);
    const height = this.layout.height;
    const changed = width !== this.width;
    this.width = width;
    sizeLayer(this.staticLayer, width, height);
    sizeLayer(this.overlayLayer, width, height);
    if (changed) this.span = sharedSpan(this.extents.values(), width);
    this.zoomBehavior
      .extent([
        [0, 0],
        [width, height],
      ])
      .translateExtent([
        [0, 0],
        [width, height],
      ])
      .scaleExtent([1, maxZoom(this.span, width)]);
    // re-apply the transform so it is clamped to the new extents
    const t = this.transform;
    this.zoomBehavior.transform(select(this.el.overlayCanvas), t);
    this.invalidate();
  }

  private invalidate(): void {
    this.needStatic = true;
    this.scheduler.request();
  }

  // ------------------------------------------------------------------ drawing

  private measure = (text: string): number => {
    let w = this.textWidths.get(text);
    if (w === undefined) {
      w = this.staticLayer.ctx.measureText(text).width;
      this.textWidths.set(text, w);
    }
    return w;
  };

  /** One frame. Returns true while something is still animating. */
  private draw(): boolean {
    const now = performance.now();
    const animating = this.tweens.active(now);
    if (this.needStatic || animating) this.drawStatic(now);
    this.needStatic = false;
    this.drawOverlay();
    return this.tweens.active(now);
  }

  private drawStatic(now: number): void {
    const layer = this.staticLayer;
    const ctx = beginFrame(layer);
    if (!this.patterns) this.patterns = createPatterns(ctx, layer.dpr, this.palette.open, this.palette.aborted);
    if (!this.binColors) this.binColors = binColors(this.palette);
    ctx.font = `${LABEL_FONT_PX}px ${this.palette.font}`;
    const dc: LaneDrawContext = {
      ctx,
      width: this.width,
      palette: this.palette,
      patterns: this.patterns,
      marks: this.marks,
      dpr: layer.dpr,
      bins: this.bins,
      binColors: this.binColors,
      animated: (key, target) => this.tweens.value(key, now) ?? target,
      measure: this.measure,
      pointerLabel: (p) =>
        p.kind === 'position' ? this.text.pointerPosition(p.owner, p.offset) : this.text.pointerGroup(p.owner, p.kind, p.offset),
    };
    for (const box of this.layout.boxes) {
      const lane = this.lanes[box.lane];
      if (lane) this.lastMode = drawLane(dc, lane, box, this.scaleOf(lane));
    }
    if (this.layout.group) {
      ctx.fillStyle = this.palette.grid;
      ctx.fillRect(0, this.layout.group.y + this.layout.group.height / 2, this.width, 1);
    }
  }

  private cellBox(lane: LaneModel, box: LaneBox, index: number, grow: number): [number, number, number, number] {
    const scale = this.scaleOf(lane);
    const o = lane.offsets[index] as number;
    let x0 = scale(o);
    let x1 = scale(o + 1);
    if (x1 - x0 < 4) {
      const c = (x0 + x1) / 2;
      x0 = c - 2;
      x1 = c + 2;
    }
    return [x0 - grow, box.cellTop - grow, x1 - x0 + 2 * grow, box.cellBottom - box.cellTop + 2 * grow];
  }

  private drawOverlay(): void {
    const sel = this.selection;
    const s = sel?.kind === 'record' ? this.resolve({ lane: `${sel.topic}-${sel.partition}`, offset: sel.offset }) : null;
    const h = this.resolve(this.hover);
    const f = this.focused && this.keyboardMode ? this.resolve(this.focus) : null;
    this.refreshTooltip();
    // an empty overlay that is already clear stays untouched (nothing for the compositor to upload)
    if (!s && !h && !f && this.overlayClear) return;
    const ctx = beginFrame(this.overlayLayer);
    this.overlayClear = !s && !h && !f;
    const p = this.palette;
    if (s) {
      ctx.strokeStyle = p.selection;
      ctx.lineWidth = 3;
      ctx.strokeRect(...this.cellBox(s.lane, s.box, s.index, 2.5));
    }
    if (h) {
      ctx.strokeStyle = p.hover;
      ctx.lineWidth = 1.5;
      ctx.strokeRect(...this.cellBox(h.lane, h.box, h.index, 0.5));
    }
    if (f) {
      ctx.strokeStyle = p.focus;
      ctx.lineWidth = 2;
      ctx.setLineDash([4, 3]);
      ctx.strokeRect(...this.cellBox(f.lane, f.box, f.index, 5));
      ctx.setLineDash([]);
    }
  }

  // ------------------------------------------------------------------ details

  private refreshTooltip(): void {
    const tip = this.el.tooltip;
    const ref = this.hover ?? (this.focused && this.keyboardMode ? this.focus : null);
    const r = this.resolve(ref);
    if (!r) {
      if (!tip.hidden) hideTooltip(tip);
      return;
    }
    const row = r.lane.rows[r.index];
    if (!row) return;
    const key = `${r.lane.key}@${row.offset}`;
    const scale = this.scaleOf(r.lane);
    const x = (scale(row.offset) + scale(row.offset + 1)) / 2;
    if (tip.dataset.record !== key || tip.hidden) {
      const shared = recordsInPixel(r.lane.offsets, linearMapOf(scale), Math.floor(x));
      renderDetails(
        tip,
        recordDetails(r.lane.key, row, this.text.language),
        shared > 1 ? `${shared} records share this pixel: zoom in to see each one.` : undefined,
      );
      tip.dataset.record = key;
      tip.dataset.lane = r.lane.key;
      tip.dataset.offset = String(row.offset);
    }
    placeTooltip(tip, x, r.box.cellBottom, this.width);
  }

  private announce(): void {
    const r = this.resolve(this.focus);
    const row = r?.lane.rows[r.index];
    this.el.live.textContent = r && row ? recordDetails(r.lane.key, row, this.text.language).sentence : '';
  }

  // ------------------------------------------------------------------ input

  private listen(target: EventTarget, type: string, fn: (e: Event) => void, opts?: AddEventListenerOptions): void {
    target.addEventListener(type, fn, opts);
    this.cleanup.push(() => target.removeEventListener(type, fn, opts));
  }

  private onWheel(e: WheelEvent): void {
    if (e.ctrlKey || e.metaKey) return; // d3-zoom handles it
    const dx = e.shiftKey ? e.deltaY || e.deltaX : Math.abs(e.deltaX) > Math.abs(e.deltaY) ? e.deltaX : 0;
    if (dx === 0) return;
    e.preventDefault();
    this.panBy(-dx);
  }

  private hitAt(x: number, y: number): RecordRef | null {
    const box = boxAtY(this.layout, y);
    if (!box || y < box.cellTop - 6 || y > box.cellBottom + 6) return null;
    const lane = this.lanes[box.lane];
    if (!lane) return null;
    const i = recordAt(lane.offsets, linearMapOf(this.scaleOf(lane)), x, HIT_TOLERANCE_PX);
    return i < 0 ? null : { lane: lane.key, offset: lane.offsets[i] as number };
  }

  private setHover(ref: RecordRef | null): void {
    if (ref?.lane === this.hover?.lane && ref?.offset === this.hover?.offset) return;
    this.hover = ref;
    this.el.overlayCanvas.style.cursor = ref ? 'pointer' : '';
    this.scheduler.request();
  }

  private onPointer(e: MouseEvent): void {
    if (e.buttons) return; // panning
    this.setHover(this.hitAt(e.offsetX, e.offsetY));
  }

  private onClick(e: MouseEvent): void {
    const hit = this.hitAt(e.offsetX, e.offsetY);
    if (!hit) return;
    this.focus = hit;
    this.selectRef(hit);
  }

  private selectRef(ref: RecordRef): void {
    const lane = this.laneByKey.get(ref.lane);
    if (!lane) return;
    this.options.onSelect({ kind: 'record', topic: lane.topic, partition: lane.partition, offset: ref.offset });
  }

  private onFocus(): void {
    this.focused = true;
    this.keyboardMode ||= this.el.root.matches(':focus-visible');
    if (!this.resolve(this.focus)) {
      const sel = this.selection;
      const fromSel = sel?.kind === 'record' ? { lane: `${sel.topic}-${sel.partition}`, offset: sel.offset } : null;
      if (fromSel && this.resolve(fromSel)) this.focus = fromSel;
      else {
        const box = this.layout.boxes.find((b) => (this.lanes[b.lane]?.offsets.length ?? 0) > 0);
        const lane = box ? this.lanes[box.lane] : undefined;
        this.focus = lane ? { lane: lane.key, offset: lane.offsets[0] as number } : null;
      }
    }
    this.announce();
    this.scheduler.request();
  }

  private moveFocus(laneKey: string, index: number): void {
    const lane = this.laneByKey.get(laneKey);
    if (!lane || lane.offsets.length === 0) return;
    const i = Math.max(0, Math.min(index, lane.offsets.length - 1));
    const offset = lane.offsets[i] as number;
    this.focus = { lane: laneKey, offset };
    this.hover = null;
    // keep the focused record on screen
    const x = this.scaleOf(lane)(offset + 0.5);
    if (x < 8 || x > this.width - 8) {
      const e = this.extents.get(lane.key) ?? { start: lane.logStartOffset };
      const world = baseScale(e.start, this.span, this.width)(offset + 0.5);
      this.zoomBehavior.translateTo(select(this.el.overlayCanvas), world, 0);
    }
    this.announce();
    this.scheduler.request();
  }

  private onKey(e: KeyboardEvent): void {
    const f = this.resolve(this.focus);
    const boxes = this.layout.boxes.filter((b) => (this.lanes[b.lane]?.offsets.length ?? 0) > 0);
    let handled = true;
    switch (e.key) {
      case 'ArrowRight':
        if (f) this.moveFocus(f.lane.key, f.index + (e.shiftKey ? 10 : 1));
        else this.onFocus();
        break;
      case 'ArrowLeft':
        if (f) this.moveFocus(f.lane.key, f.index - (e.shiftKey ? 10 : 1));
        else this.onFocus();
        break;
      case 'ArrowUp':
      case 'ArrowDown': {
        if (!f) {
          this.onFocus();
          break;
        }
        const at = boxes.findIndex((b) => b.key === f.lane.key);
        const next = boxes[at + (e.key === 'ArrowDown' ? 1 : -1)];
        const lane = next ? this.lanes[next.lane] : undefined;
        if (lane) {
          // the record nearest the same offset
          const o = f.lane.offsets[f.index] as number;
          const i = Math.min(lane.offsets.length - 1, Math.max(0, recordAt(lane.offsets, { a: 1, b: 0 }, o, Number.POSITIVE_INFINITY)));
          this.moveFocus(lane.key, i);
        }
        break;
      }
      case 'Home':
        if (f) this.moveFocus(f.lane.key, 0);
        break;
      case 'End':
        if (f) this.moveFocus(f.lane.key, f.lane.offsets.length - 1);
        break;
      case 'Enter':
      case ' ':
        if (this.focus && f) this.selectRef(this.focus);
        break;
      case 'Escape':
        this.options.onSelect(null);
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
