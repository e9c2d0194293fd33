/**
 * A replicated partition's sub-lanes, one per replica under the leader's log: a bar from the log
 * start to the replica's log end offset (solid while in the ISR, dashed and hollow out of it, grey
 * with a dotted edge when its broker is down), a LEO tick, its own high watermark (▼), the records
 * truncation cut from it as struck-through dashed ghost cells at their offsets, and a label that
 * says all of it in words (★ leader · leader epoch N, in/out of ISR, broker down, truncated by
 * leader epoch N), shortened in whole words where the lane is narrow (a phone). An offline
 * partition's log is greyed with a LEADER_NOT_AVAILABLE banner.
 * Drawn only for lanes with a replication row: one-replica lanes pay nothing.
 */
import type { ScaleLinear } from 'd3-scale';
import type { ReplicaRow, ReplicationRow, TruncationRow } from '../../sim/views';
import { fitLabel } from './cellLabels';
import type { LaneBox } from './laneLayout';
import { LANE_GEOMETRY } from './laneLayout';
import type { LaneModel } from './laneModel';
import type { Palette } from './palette';
import { type ReplicaWords, replicaLabelForms, replicaWords } from './replicaText';

export interface ReplicaDrawContext {
  readonly ctx: CanvasRenderingContext2D;
  readonly width: number;
  readonly palette: Palette;
  readonly animated: (key: string, target: number) => number;
  readonly replicaWords?: ReplicaWords;
  /** Filled with each replica row's label as drawn (the lanes hand them to the browser tests). */
  readonly replicaLabels?: PlacedReplicaLabel[];
}

/** A replica row's label as drawn: its text (a form of `full`, whole words) and where, in the plot's pixels. */
export interface PlacedReplicaLabel {
  readonly lane: string;
  readonly broker: string;
  readonly full: string;
  readonly text: string;
  readonly x: number;
  readonly width: number;
}

const FONT_PX = 10;

/** The tween key of a replica's log end offset / high watermark. */
export const replicaTweenKey = (lane: string, broker: string, what: 'leo' | 'hw') => `${lane}:r:${broker}:${what}`;

/** The vertical extent [top, bottom) of replica row i in a lane box. */
export function replicaRowBounds(box: LaneBox, i: number): [number, number] {
  const top = box.replicaTop + i * LANE_GEOMETRY.replicaRow;
  return [top, top + LANE_GEOMETRY.replicaRow];
}

/** A row's label, whole and then shorter (replicaLabelForms): the replica in words, and what truncation cut from it. */
export function replicaRowForms(r: ReplicaRow, repl: ReplicationRow, w: ReplicaWords): string[] {
  const cuts = repl.truncations.filter((t) => t.broker === r.broker);
  return replicaLabelForms(r, repl, w, cuts.at(-1));
}

/** Text of a row's label, whole: the replica in words, and what truncation cut from it. */
export function replicaRowText(r: ReplicaRow, repl: ReplicationRow, w: ReplicaWords): string {
  return replicaRowForms(r, repl, w)[0] as string;
}

function drawGhosts(
  dc: ReplicaDrawContext,
  cuts: readonly TruncationRow[],
  scale: ScaleLinear<number, number>,
  top: number,
  h: number,
): number {
  const { ctx, palette } = dc;
  let right = Number.NEGATIVE_INFINITY;
  ctx.save();
  ctx.strokeStyle = palette.fault;
  ctx.lineWidth = 1;
  for (const t of cuts)
    for (const rec of t.records) {
      const x0 = scale(rec.offset);
      const x1 = scale(rec.offset + 1);
      if (x1 < 0 || x0 > dc.width) continue;
      right = Math.max(right, x1);
      const w = Math.max(1, x1 - x0 - 2);
      ctx.setLineDash(w >= 6 ? [2, 2] : []);
      ctx.globalAlpha = 0.8;
      ctx.strokeRect(x0 + 1, top + 0.5, w, h - 1);
      // struck through: the record is no longer in this replica's log
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.moveTo(x0 + 1, top + h - 1);
      ctx.lineTo(x0 + 1 + w, top + 1);
      ctx.stroke();
    }
  ctx.restore();
  return right;
}

function drawBar(dc: ReplicaDrawContext, r: ReplicaRow, x0: number, x1: number, top: number, h: number): void {
  const { ctx, palette } = dc;
  if (x1 <= x0) return;
  ctx.save();
  if (!r.online) {
    ctx.globalAlpha = 0.5;
    ctx.fillStyle = palette.grid;
    ctx.fillRect(x0, top, x1 - x0, h);
    ctx.globalAlpha = 1;
    ctx.setLineDash([1, 2]);
    ctx.strokeStyle = palette.muted;
    ctx.strokeRect(x0 + 0.5, top + 0.5, x1 - x0 - 1, h - 1);
  } else if (r.inIsr) {
    ctx.globalAlpha = 0.6;
    ctx.fillStyle = palette.leo;
    ctx.fillRect(x0, top, x1 - x0, h);
  } else {
    ctx.setLineDash([4, 3]);
    ctx.strokeStyle = palette.leo;
    ctx.strokeRect(x0 + 0.5, top + 0.5, x1 - x0 - 1, h - 1);
  }
  ctx.restore();
}

/**
 * Where a replica row's label goes, and which of its forms (whole, then shorter, in whole words:
 * replicaLabelForms): right of the row's marks (its bar, LEO tick, high watermark and truncated cells
 * end at `anchor`), the longest form that fits there before the lane's edge, as long as it says more
 * than the replica's name — at least its name and role ("broker-0 follower"); only when not even
 * that fits does it move left over the marks, the longest form that fits the lane, on an opaque chip
 * so no mark strikes through its letters. A lane too narrow for even the name gets it cut with an
 * ellipsis. Null when nothing fits.
 */
export function placeReplicaLabel(
  forms: readonly string[],
  anchor: number,
  width: number,
  measure: (t: string) => number,
): { readonly text: string; readonly x: number } | null {
  const right = width - 2;
  for (const form of forms.length > 1 ? forms.slice(0, -1) : forms) if (anchor + measure(form) <= right) return { text: form, x: anchor };
  for (const form of forms) {
    const w = measure(form);
    if (w <= width - 4) return { text: form, x: Math.max(2, right - w) };
  }
  const text = fitLabel(forms.at(-1) ?? '', '', width - 4, measure);
  if (!text) return null;
  return { text, x: Math.max(2, right - measure(text)) };
}

/** The replica sub-lanes of a replicated lane. */
export function drawReplicas(dc: ReplicaDrawContext, lane: LaneModel, box: LaneBox, scale: ScaleLinear<number, number>): void {
  const repl = lane.replication;
  if (!repl) return;
  const { ctx, palette } = dc;
  const w = dc.replicaWords ?? replicaWords('en');
  const start = Math.max(0, scale(lane.logStartOffset));
  ctx.save();
  ctx.font = `${FONT_PX}px ${palette.font}`;
  ctx.textBaseline = 'middle';
  repl.replicas.forEach((r, i) => {
    const [top, bottom] = replicaRowBounds(box, i);
    const mid = (top + bottom) / 2;
    const leader = repl.leader !== null && repl.leader === r.broker;
    ctx.fillStyle = palette.grid;
    ctx.fillRect(0, bottom - 0.5, dc.width, 0.5);
    const ghostRight = drawGhosts(
      dc,
      repl.truncations.filter((t) => t.broker === r.broker),
      scale,
      top + 2,
      bottom - top - 4,
    );
    const leoX = scale(dc.animated(replicaTweenKey(lane.key, r.broker, 'leo'), r.logEndOffset));
    drawBar(dc, r, start, Math.min(dc.width, leoX), mid - 3, 6);
    // LEO tick
    if (leoX >= -2 && leoX <= dc.width + 2) {
      ctx.fillStyle = palette.leo;
      ctx.fillRect(Math.round(leoX) - 0.5, top + 2, leader ? 2 : 1, bottom - top - 4);
    }
    // own high watermark: ▼ over the bar
    const hwX = scale(dc.animated(replicaTweenKey(lane.key, r.broker, 'hw'), r.highWatermark));
    if (hwX >= -5 && hwX <= dc.width + 5) {
      ctx.beginPath();
      ctx.moveTo(hwX - 4, top + 1);
      ctx.lineTo(hwX + 4, top + 1);
      ctx.lineTo(hwX, mid - 2);
      ctx.closePath();
      ctx.fillStyle = palette.hw;
      ctx.fill();
    }
    // the label, on a chip of background; shortened to the form that fits (the replica's hover and
    // tap details say all of it)
    const forms = replicaRowForms(r, repl, w);
    const place = placeReplicaLabel(forms, Math.max(leoX, ghostRight, start) + 8, dc.width, (t) => ctx.measureText(t).width);
    if (!place) return;
    const { text, x } = place;
    const tw = ctx.measureText(text).width;
    dc.replicaLabels?.push({ lane: lane.key, broker: r.broker, full: forms[0] as string, text, x, width: tw });
    ctx.fillStyle = palette.bg;
    ctx.fillRect(x - 2, top + 2, tw + 4, bottom - top - 4);
    ctx.fillStyle = leader ? palette.fg : !r.online ? palette.fault : palette.muted;
    ctx.fillText(text, x, mid);
  });
  ctx.restore();
}

/** An offline partition (no leader): the log greyed, with the LEADER_NOT_AVAILABLE banner over it. */
export function drawOfflineBanner(dc: ReplicaDrawContext, lane: LaneModel, box: LaneBox): void {
  if (!lane.replication || lane.replication.leader !== null) return;
  const { ctx, palette } = dc;
  const w = dc.replicaWords ?? replicaWords('en');
  const h = box.cellBottom - box.cellTop;
  ctx.save();
  ctx.globalAlpha = 0.55;
  ctx.fillStyle = palette.bg;
  ctx.fillRect(0, box.cellTop, dc.width, h);
  ctx.globalAlpha = 1;
  ctx.font = `bold ${FONT_PX + 1}px ${palette.font}`;
  ctx.textBaseline = 'middle';
  const tw = ctx.measureText(w.offline).width;
  ctx.fillStyle = palette.bg;
  ctx.fillRect(6, box.cellTop + h / 2 - 8, tw + 8, 16);
  ctx.strokeStyle = palette.fault;
  ctx.lineWidth = 1.5;
  ctx.strokeRect(6, box.cellTop + h / 2 - 8, tw + 8, 16);
  ctx.fillStyle = palette.fault;
  ctx.fillText(w.offline, 10, box.cellTop + h / 2);
  ctx.restore();
}
