/**
 * Drives the partition lanes outside React (on the shared CanvasController plumbing): the lanes on
 * the static layer, hover / keyboard focus / selection of records on the overlay, the tooltip.
 * React hands it data (setData, setSelection) and never sees a zoom transform or a hover.
 */
import type { ScaleLinear } from 'd3-scale';
import { recordAddress, topicPartitionKey } from '../../sim/views';
import type { Selection } from '../../store/simStore';
import { type BinColors, BinSurface, binColors } from './binRaster';
import { CanvasController, type CanvasControllerOptions, type CanvasElements } from './CanvasController';
import { beginFrame } from './canvasLayer';
import { recordDetails } from './details';
import { hideTooltip, placeTooltip, renderDetails } from './detailsDom';
import { drawLane, LABEL_FONT_PX, type LaneDrawContext } from './drawLanes';
import { type PlacedReplicaLabel, replicaRowBounds, replicaTweenKey } from './drawReplicas';
import { indexOfOffset, recordAt, recordsInPixel } from './hitTest';
import { boxAtY, type LaneBox, type LanesLayout } from './laneLayout';
import type { LaneModel } from './laneModel';
import { createMarkLayout } from './markLayout';
import { Tweens } from './motion';
import { baseScale, type LaneExtent, laneScale, linearMapOf, maxZoom, mergeExtent, sharedSpan } from './offsetScale';
import { reducedMotion } from './palette';
import { createPatterns, type Patterns } from './patterns';
import { replicaRowAt, truncatedAt } from './replicaHit';
import { replicaDetails, replicaWords, truncatedDetails } from './replicaText';

export type LanesElements = CanvasElements;
export type LanesControllerOptions = CanvasControllerOptions;

/**
 * A record of a lane, or (with `replica`) a replica's sub-lane: the replica itself (offset -1) or a
 * record truncation cut from it (its offset).
 */
interface RecordRef {
  readonly lane: string;
  readonly offset: number;
  readonly replica?: string;
}

const HIT_TOLERANCE_PX = 3;

/** The lanes' canvas, with the replica labels of its last drawing (read by e2e/phone-replica-labels.test.ts). */
type ReplicaLabelledCanvas = HTMLCanvasElement & { eosReplicaLabels?: readonly PlacedReplicaLabel[] };

export class LanesController extends CanvasController<RecordRef> {
  private lanes: readonly LaneModel[] = [];
  private laneByKey = new Map<string, LaneModel>();
  private layout: LanesLayout = { boxes: [], group: null, height: 1 };
  private extents = new Map<string, LaneExtent>();
  private span = 1;
  private focus: RecordRef | null = null;
  private selection: Selection | null = null;
  private patterns: Patterns | null = null;
  private binColors: BinColors | null = null;
  private readonly bins = new BinSurface();
  private readonly tweens = new Tweens();
  private readonly marks = createMarkLayout();
  private lastMode: 'cells' | 'bins' = 'cells';

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
      for (const r of l.replication?.replicas ?? []) {
        tween(replicaTweenKey(l.key, r.broker, 'leo'), r.logEndOffset);
        tween(replicaTweenKey(l.key, r.broker, 'hw'), r.highWatermark);
      }
    }
    this.tweens.retain(keep);
    this.resize();
    this.refreshTooltip();
    this.invalidate();
  }

  setSelection(selection: Selection | null): void {
    this.selection = selection;
    this.el.root.dataset.selected =
      selection?.kind === 'record' ? recordAddress(selection.topic, selection.partition, selection.offset) : '';
    this.scheduler.request();
  }

  get mode(): 'cells' | 'bins' {
    return this.lastMode;
  }

  // ------------------------------------------------------------------ geometry

  private scaleOf(lane: LaneModel): ScaleLinear<number, number> {
    const e = this.extents.get(lane.key) ?? { start: lane.logStartOffset, end: lane.logEndOffset + 1 };
    return laneScale(e.start, this.span, this.width, this.zoom.transform);
  }

  private boxOf(key: string): LaneBox | undefined {
    return this.layout.boxes.find((b) => b.key === key);
  }

  private resolve(ref: RecordRef | null): { lane: LaneModel; box: LaneBox; index: number } | null {
    if (!ref || ref.replica !== undefined) return null;
    const lane = this.laneByKey.get(ref.lane);
    const box = this.boxOf(ref.lane);
    if (!lane || !box) return null;
    const index = indexOfOffset(lane.offsets, ref.offset);
    return index < 0 ? null : { lane, box, index };
  }

  /** The selected record, if a record is selected. */
  private selectedRef(): RecordRef | null {
    const sel = this.selection;
    return sel?.kind === 'record' ? { lane: topicPartitionKey(sel.topic, sel.partition), offset: sel.offset } : null;
  }

  protected override zoomAnchor(): number {
    const f = this.resolve(this.focus);
    return f ? this.scaleOf(f.lane)(f.lane.offsets[f.index] as number) : this.width / 2;
  }

  protected plotSize(width: number, widthChanged: boolean): { height: number; maxZoom: number } {
    if (widthChanged) this.span = sharedSpan(this.extents.values(), width);
    return { height: this.layout.height, maxZoom: maxZoom(this.span, width) };
  }

  // ------------------------------------------------------------------ drawing

  protected override onTheme(): void {
    this.patterns = null;
    this.binColors = null;
  }

  protected override animating(now: number): boolean {
    return this.tweens.active(now);
  }

  protected drawStatic(now: number): void {
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
      replicaWords: replicaWords(this.text.language),
      replicaLabels: [],
    };
    for (const box of this.layout.boxes) {
      const lane = this.lanes[box.lane];
      if (lane) this.lastMode = drawLane(dc, lane, box, this.scaleOf(lane));
    }
    // the replica rows' labels as drawn, on the canvas element for the browser tests (a property: no DOM write)
    (layer.canvas as ReplicaLabelledCanvas).eosReplicaLabels = dc.replicaLabels;
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

  /** The hovered replica row (or truncated record on it) as a rectangle. */
  private replicaBox(ref: RecordRef | null): [number, number, number, number] | null {
    const hit = this.resolveReplica(ref);
    if (!hit) return null;
    const [top, bottom] = replicaRowBounds(hit.box, hit.index);
    if (ref?.offset === undefined || ref.offset < 0) return [0.5, top + 0.5, this.width - 1, bottom - top - 1];
    const scale = this.scaleOf(hit.lane);
    const x0 = scale(ref.offset);
    const w = Math.max(4, scale(ref.offset + 1) - x0);
    return [x0, top + 1, w, bottom - top - 2];
  }

  protected drawOverlay(): void {
    const s = this.resolve(this.selectedRef());
    const h = this.resolve(this.hover);
    const rh = this.replicaBox(this.hover);
    const f = this.focused && this.keyboardMode ? this.resolve(this.focus) : null;
    this.refreshTooltip();
    const ctx = this.beginOverlay(!s && !h && !f && !rh);
    if (!ctx) return;
    const p = this.palette;
    if (rh) {
      ctx.strokeStyle = p.hover;
      ctx.lineWidth = 1.5;
      ctx.strokeRect(...rh);
    }
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
    if (f) this.strokeFocusRing(ctx, ...this.cellBox(f.lane, f.box, f.index, 5));
  }

  // ------------------------------------------------------------------ details

  private refreshTooltip(): void {
    const tip = this.el.tooltip;
    const ref = this.hover ?? (this.focused && this.keyboardMode ? this.focus : null);
    if (ref?.replica !== undefined) {
      this.replicaTooltip(ref);
      return;
    }
    const r = this.resolve(ref);
    if (!r) {
      if (!tip.hidden) hideTooltip(tip);
      return;
    }
    const row = r.lane.rows[r.index];
    if (!row) return;
    const key = recordAddress(r.lane.topic, r.lane.partition, row.offset);
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
      tip.dataset.replica = '';
      tip.dataset.lane = r.lane.key;
      tip.dataset.offset = String(row.offset);
    }
    placeTooltip(tip, x, r.box.cellBottom, this.width);
  }

  private resolveReplica(ref: RecordRef | null): { lane: LaneModel; box: LaneBox; index: number } | null {
    if (ref?.replica === undefined) return null;
    const lane = this.laneByKey.get(ref.lane);
    const box = this.boxOf(ref.lane);
    const index = lane?.replication?.replicas.findIndex((r) => r.broker === ref.replica) ?? -1;
    return lane && box && index >= 0 ? { lane, box, index } : null;
  }

  /** A replica's details, or a truncated record's, under its sub-lane. */
  private replicaTooltip(ref: RecordRef): void {
    const tip = this.el.tooltip;
    const hit = this.resolveReplica(ref);
    const repl = hit?.lane.replication;
    const replica = repl?.replicas[hit?.index ?? -1];
    if (!hit || !repl || !replica) {
      if (!tip.hidden) hideTooltip(tip);
      return;
    }
    const id = `${hit.lane.key}|${replica.broker}|${ref.offset}`;
    let x = this.width / 2;
    const cut = ref.offset >= 0 ? truncatedAt(repl.truncations, replica.broker, ref.offset) : null;
    if (cut) {
      const scale = this.scaleOf(hit.lane);
      x = (scale(ref.offset) + scale(ref.offset + 1)) / 2;
    }
    if (tip.dataset.record !== id || tip.hidden) {
      const lang = this.text.language;
      renderDetails(tip, cut ? truncatedDetails(hit.lane.key, cut.row, cut.t, lang) : replicaDetails(hit.lane.key, replica, repl, lang));
      tip.dataset.record = id;
      tip.dataset.lane = hit.lane.key;
      tip.dataset.offset = String(ref.offset);
      tip.dataset.replica = replica.broker;
    }
    placeTooltip(tip, x, replicaRowBounds(hit.box, hit.index)[1], this.width);
  }

  private announce(): void {
    const r = this.resolve(this.focus);
    const row = r?.lane.rows[r.index];
    this.el.live.textContent = r && row ? recordDetails(r.lane.key, row, this.text.language).sentence : '';
  }

  // ------------------------------------------------------------------ input

  protected hitAt(x: number, y: number): RecordRef | null {
    const box = boxAtY(this.layout, y);
    if (!box) return null;
    const lane = this.lanes[box.lane];
    if (!lane) return null;
    const row = replicaRowAt(box, y);
    const replica = row >= 0 ? lane.replication?.replicas[row] : undefined;
    if (replica && lane.replication) {
      const scale = this.scaleOf(lane);
      const o = Math.floor(scale.invert(x));
      const cut = truncatedAt(lane.replication.truncations, replica.broker, o);
      return { lane: lane.key, offset: cut ? o : -1, replica: replica.broker };
    }
    if (y < box.cellTop - 6 || y > box.cellBottom + 6) return null;
    const i = recordAt(lane.offsets, linearMapOf(this.scaleOf(lane)), x, HIT_TOLERANCE_PX);
    return i < 0 ? null : { lane: lane.key, offset: lane.offsets[i] as number };
  }

  protected override sameMark(a: RecordRef | null, b: RecordRef | null): boolean {
    return a?.lane === b?.lane && a?.offset === b?.offset && a?.replica === b?.replica;
  }

  protected clickMark(ref: RecordRef): void {
    // a replica's row shows its details on hover; only the leader's records are selectable
    if (ref.replica !== undefined) return;
    this.focus = ref;
    this.selectRef(ref);
  }

  protected selectFocused(): void {
    if (this.focus && this.resolve(this.focus)) this.selectRef(this.focus);
  }

  private selectRef(ref: RecordRef): void {
    const lane = this.laneByKey.get(ref.lane);
    if (!lane) return;
    this.options.onSelect({ kind: 'record', topic: lane.topic, partition: lane.partition, offset: ref.offset });
  }

  protected override onBlur(): void {
    this.refreshTooltip();
    this.scheduler.request();
  }

  protected onFocus(): void {
    if (!this.resolve(this.focus)) {
      const fromSel = this.selectedRef();
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
    this.keepInView(this.scaleOf(lane)(offset + 0.5), () => {
      const e = this.extents.get(lane.key) ?? { start: lane.logStartOffset };
      return baseScale(e.start, this.span, this.width)(offset + 0.5);
    });
    this.announce();
    this.scheduler.request();
  }

  protected navigate(e: KeyboardEvent): boolean {
    const f = this.resolve(this.focus);
    switch (e.key) {
      case 'ArrowRight':
        if (f) this.moveFocus(f.lane.key, f.index + (e.shiftKey ? 10 : 1));
        else this.onFocus();
        return true;
      case 'ArrowLeft':
        if (f) this.moveFocus(f.lane.key, f.index - (e.shiftKey ? 10 : 1));
        else this.onFocus();
        return true;
      case 'ArrowUp':
      case 'ArrowDown': {
        if (!f) {
          this.onFocus();
          return true;
        }
        const boxes = this.layout.boxes.filter((b) => (this.lanes[b.lane]?.offsets.length ?? 0) > 0);
        const at = boxes.findIndex((b) => b.key === f.lane.key);
        const next = boxes[at + (e.key === 'ArrowDown' ? 1 : -1)];
        const lane = next ? this.lanes[next.lane] : undefined;
        if (lane) {
          // the record nearest the same offset
          const o = f.lane.offsets[f.index] as number;
          const i = Math.min(lane.offsets.length - 1, Math.max(0, recordAt(lane.offsets, { a: 1, b: 0 }, o, Number.POSITIVE_INFINITY)));
          this.moveFocus(lane.key, i);
        }
        return true;
      }
      case 'Home':
        if (f) this.moveFocus(f.lane.key, 0);
        return true;
      case 'End':
        if (f) this.moveFocus(f.lane.key, f.lane.offsets.length - 1);
        return true;
      default:
        return false;
    }
  }
}
