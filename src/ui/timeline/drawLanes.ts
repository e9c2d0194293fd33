/**
 * The static layer of the partition lanes: cells (or aggregated runs), COMMIT / ABORT markers, the
 * LEO / HW / LSO lines with labels, and the pointers. Redrawn on zoom, pan, resize, theme and step.
 */
import type { ScaleLinear } from 'd3-scale';
import type { BinColors, BinSurface } from './binRaster';
import { CellKind } from './cellKind';
import { cellLabel, fitLabel } from './cellLabels';
import { drawOfflineBanner, drawReplicas, type PlacedReplicaLabel } from './drawReplicas';
import type { LaneBox } from './laneLayout';
import { LANE_GEOMETRY } from './laneLayout';
import type { LaneModel, LanePointer } from './laneModel';
import { groupOffsetLines, type OffsetLineKind, placeLabels } from './lineLabels';
import { MARK_COMMIT } from './lod';
import { layoutMarks, type MarkBuffer, type MarkLayout } from './markLayout';
import { fitText } from './mscLabels';
import { linearMapOf } from './offsetScale';
import type { Palette } from './palette';
import type { Patterns } from './patterns';
import type { ReplicaWords } from './replicaText';

export interface LaneDrawContext {
  readonly ctx: CanvasRenderingContext2D;
  readonly width: number;
  readonly palette: Palette;
  readonly patterns: Patterns;
  readonly marks: MarkLayout;
  /** Device pixel ratio of the target canvas. */
  readonly dpr: number;
  /** Where aggregated (zoomed-out) lanes are painted pixel by pixel. */
  readonly bins: BinSurface;
  readonly binColors: BinColors;
  /** The value an animated quantity shows now, on its way to `target`. */
  readonly animated: (key: string, target: number) => number;
  readonly measure: (text: string) => number;
  /** A pointer's label in the reader's language (default: English). */
  readonly pointerLabel?: (p: LanePointer) => string;
  /** The replica sub-lanes' words in the reader's language (default: English). */
  readonly replicaWords?: ReplicaWords;
  /** Filled with each replica row's label as drawn (drawReplicas). */
  readonly replicaLabels?: PlacedReplicaLabel[];
  /**
   * Zoomed out, draw the aggregated runs as vector rectangles (the exported figure) instead of
   * painting them pixel by pixel into `bins`.
   */
  readonly vectorBins?: boolean;
}

export const LABEL_FONT_PX = 11;

function cellRects(ctx: CanvasRenderingContext2D, runs: MarkBuffer, kind: number, top: number, h: number, inset: number): number {
  ctx.beginPath();
  let n = 0;
  for (let i = 0; i < runs.length; i++) {
    if (runs.kind[i] !== kind) continue;
    const x0 = runs.x0[i] as number;
    const w = Math.max(1, (runs.x1[i] as number) - x0 - 2 * inset);
    ctx.rect(x0 + inset, top, w, h);
    n++;
  }
  return n;
}

/** Paints the cells in the current path: a tint of `colour`, the pattern over it (hatched, crossed), the outline when there is room. */
function paintCells(
  ctx: CanvasRenderingContext2D,
  colour: string,
  alpha: number,
  pattern: CanvasPattern | string | null,
  outline: boolean,
): void {
  ctx.globalAlpha = alpha;
  ctx.fillStyle = colour;
  ctx.fill();
  ctx.globalAlpha = 1;
  if (pattern !== null) {
    ctx.fillStyle = pattern;
    ctx.fill();
  }
  if (outline) {
    ctx.strokeStyle = colour;
    ctx.stroke();
  }
}

function drawData(dc: LaneDrawContext, runs: MarkBuffer, top: number, h: number, cellW: number): void {
  const { ctx, palette, patterns } = dc;
  const inset = cellW >= 8 ? 1 : cellW >= 5 ? 0.5 : 0;
  const stroke = cellW >= 5;
  ctx.lineWidth = 1;
  // no transaction: a light cell with a full outline (reads as "hollow")
  if (cellRects(ctx, runs, CellKind.plain, top + 0.5, h - 1, inset)) paintCells(ctx, palette.plain, 0.35, null, stroke);
  // committed: solid
  if (cellRects(ctx, runs, CellKind.committed, top, h, inset)) {
    ctx.fillStyle = palette.committed;
    ctx.fill();
  }
  // open: hatched
  if (cellRects(ctx, runs, CellKind.open, top + 0.5, h - 1, inset)) paintCells(ctx, palette.open, 0.25, patterns.hatch, stroke);
  // aborted: cross-hatched, and crossed out when there is room
  if (cellRects(ctx, runs, CellKind.aborted, top + 0.5, h - 1, inset)) {
    paintCells(ctx, palette.aborted, 0.2, patterns.cross, stroke);
    if (cellW >= 10) {
      ctx.beginPath();
      for (let i = 0; i < runs.length; i++) {
        if (runs.kind[i] !== CellKind.aborted) continue;
        const x0 = (runs.x0[i] as number) + inset;
        const x1 = (runs.x1[i] as number) - inset;
        ctx.moveTo(x0 + 2, top + 3);
        ctx.lineTo(x1 - 2, top + h - 3);
        ctx.moveTo(x1 - 2, top + 3);
        ctx.lineTo(x0 + 2, top + h - 3);
      }
      ctx.lineWidth = 1.6;
      ctx.strokeStyle = palette.aborted;
      ctx.stroke();
      ctx.lineWidth = 1;
    }
  }
}

/** A transaction marker's diamond centred on (cx, cy), r from the centre to each corner, as the current path (the canvas and the exported figure). */
export function diamondPath(
  ctx: Pick<CanvasRenderingContext2D, 'beginPath' | 'moveTo' | 'lineTo' | 'closePath'>,
  cx: number,
  cy: number,
  r: number,
): void {
  ctx.beginPath();
  ctx.moveTo(cx, cy - r);
  ctx.lineTo(cx + r, cy);
  ctx.lineTo(cx, cy + r);
  ctx.lineTo(cx - r, cy);
  ctx.closePath();
}

/** COMMIT ✓ and ABORT ✗ markers as diamonds holding their glyph (cells mode). */
function drawMarkerCells(dc: LaneDrawContext, runs: MarkBuffer, top: number, h: number): void {
  const { ctx, palette } = dc;
  for (let i = 0; i < runs.length; i++) {
    const kind = runs.kind[i];
    if (kind !== CellKind.commitMarker && kind !== CellKind.abortMarker) continue;
    const x0 = runs.x0[i] as number;
    const x1 = runs.x1[i] as number;
    const cx = (x0 + x1) / 2;
    const cy = top + h / 2;
    const r = Math.min((x1 - x0) / 2 - 0.5, h / 2 + 2);
    const color = kind === CellKind.commitMarker ? palette.committed : palette.aborted;
    if (r < 3.5) {
      // too narrow for a glyph: a flag pole taller than the cells
      ctx.fillStyle = color;
      ctx.fillRect(cx - 1, top - 5, 2, h + 5);
      continue;
    }
    diamondPath(ctx, cx, cy, r);
    ctx.fillStyle = color;
    ctx.fill();
    ctx.strokeStyle = palette.fg;
    ctx.lineWidth = 1;
    ctx.stroke();
    ctx.beginPath();
    const g = r * 0.45;
    if (kind === CellKind.commitMarker) {
      ctx.moveTo(cx - g, cy);
      ctx.lineTo(cx - g * 0.2, cy + g * 0.75);
      ctx.lineTo(cx + g, cy - g * 0.7);
    } else {
      ctx.moveTo(cx - g * 0.75, cy - g * 0.75);
      ctx.lineTo(cx + g * 0.75, cy + g * 0.75);
      ctx.moveTo(cx + g * 0.75, cy - g * 0.75);
      ctx.lineTo(cx - g * 0.75, cy + g * 0.75);
    }
    ctx.strokeStyle = palette.bg;
    ctx.lineWidth = Math.max(1.5, r / 4);
    ctx.lineCap = 'round';
    ctx.stroke();
    ctx.lineCap = 'butt';
  }
}

/** Zoomed out, vector: a COMMIT or ABORT marker is a flag pole taller than the cells. */
function drawBinMarkers(dc: LaneDrawContext, markers: MarkBuffer, top: number, h: number): void {
  const { ctx, palette } = dc;
  for (let i = 0; i < markers.length; i++) {
    ctx.fillStyle = markers.kind[i] === MARK_COMMIT ? palette.committed : palette.aborted;
    ctx.fillRect((markers.x0[i] as number) - 0.5, top - 5, 1.5, h + 5);
  }
}

/** Cells wider than this carry their event_id (or key) as text. */
export const CELL_LABEL_MIN_PX = 30;
const CELL_LABEL_FONT_PX = 10;

/**
 * On single-record cells: a bar along the top of every record whose event_id appears more than once
 * in the partition (with "×n" in its label when there is room), and the event_id or key as text.
 */
function drawCellDecorations(dc: LaneDrawContext, lane: LaneModel, runs: MarkBuffer, top: number, h: number, cellW: number): void {
  const { ctx, palette } = dc;
  const dups = lane.duplicates;
  const labels = cellW >= CELL_LABEL_MIN_PX;
  if (!dups && !labels) return;
  if (dups) {
    ctx.fillStyle = palette.fault;
    for (let i = 0; i < runs.length; i++) {
      const first = runs.first[i] as number;
      if (first !== runs.last[i] || (dups[first] ?? 0) < 2) continue;
      const x0 = runs.x0[i] as number;
      const x1 = runs.x1[i] as number;
      ctx.fillRect(x0 + (cellW >= 8 ? 1 : 0), top - 4, Math.max(1, x1 - x0 - (cellW >= 8 ? 2 : 0)), 4);
    }
  }
  if (!labels) return;
  ctx.save();
  ctx.font = `${CELL_LABEL_FONT_PX}px ${palette.font}`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const measure = (t: string) => ctx.measureText(t).width;
  for (let i = 0; i < runs.length; i++) {
    const first = runs.first[i] as number;
    const kind = runs.kind[i];
    if (first !== runs.last[i] || kind === CellKind.commitMarker || kind === CellKind.abortMarker) continue;
    const row = lane.rows[first];
    if (!row) continue;
    const n = dups?.[first] ?? 0;
    const x0 = runs.x0[i] as number;
    const x1 = runs.x1[i] as number;
    const text = fitLabel(cellLabel(row), n > 1 ? ` ×${n}` : '', x1 - x0 - 6, measure);
    if (!text) continue;
    const cx = (x0 + x1) / 2;
    if (kind === CellKind.committed) {
      // the solid fill is mid-tone in both themes: a chip of background colour keeps the text legible
      const w = measure(text) + 4;
      ctx.globalAlpha = 0.85;
      ctx.fillStyle = palette.bg;
      ctx.fillRect(cx - w / 2, top + h / 2 - CELL_LABEL_FONT_PX / 2 - 2, w, CELL_LABEL_FONT_PX + 4);
      ctx.globalAlpha = 1;
    }
    ctx.fillStyle = palette.fg;
    ctx.fillText(text, cx, top + h / 2);
  }
  ctx.restore();
}

const LINE_STYLE: Record<OffsetLineKind, { color: keyof Palette; width: number; dash: number[] }> = {
  leo: { color: 'leo', width: 1, dash: [] },
  hw: { color: 'hw', width: 2, dash: [] },
  lso: { color: 'lso', width: 2, dash: [4, 3] },
};

function drawOffsetLines(dc: LaneDrawContext, lane: LaneModel, box: LaneBox, scale: ScaleLinear<number, number>): void {
  const { ctx, palette } = dc;
  const targets = { lso: lane.lastStableOffset, hw: lane.highWatermark, leo: lane.logEndOffset };
  const now = {
    lso: dc.animated(`${lane.key}:lso`, targets.lso),
    hw: dc.animated(`${lane.key}:hw`, targets.hw),
    leo: dc.animated(`${lane.key}:leo`, targets.leo),
  };
  for (const k of ['leo', 'hw', 'lso'] as const) {
    const x = Math.round(scale(now[k])) + (LINE_STYLE[k].width === 1 ? 0.5 : 0);
    if (x < -2 || x > dc.width + 2) continue;
    const s = LINE_STYLE[k];
    ctx.beginPath();
    ctx.moveTo(x, box.cellTop - 5);
    ctx.lineTo(x, box.cellBottom + 5);
    ctx.setLineDash(s.dash);
    ctx.lineWidth = s.width;
    ctx.strokeStyle = palette[s.color];
    ctx.stroke();
  }
  ctx.setLineDash([]);
  const groups = groupOffsetLines(targets);
  const xs = groups.map((g) => scale(dc.animated(`${lane.key}:${g.kinds[0]}`, g.offset)));
  const widths = groups.map((g) => dc.measure(g.text));
  const lefts = placeLabels(xs, widths, dc.width - 2);
  ctx.textBaseline = 'alphabetic';
  groups.forEach((g, i) => {
    const x = lefts[i] as number;
    if (x > dc.width || x + (widths[i] as number) < 0) return;
    const only = g.kinds.length === 1 ? g.kinds[0] : null;
    ctx.fillStyle = only ? palette[LINE_STYLE[only].color] : palette.fg;
    ctx.fillText(g.text, x, box.y + LANE_GEOMETRY.labelBand - 5);
  });
}

export function pointerText(p: LanePointer): string {
  if (p.kind === 'position') return `${p.owner} position ${p.offset}`;
  return `group ${p.owner} ${p.kind === 'committed' ? 'committed' : 'pending'} ${p.offset}`;
}

/**
 * Where a pointer's label starts: right of the pointer, or left of it near the plot's right edge,
 * and never outside the plot (a narrow plot would cut "billing-reader position 4" at its left).
 */
export function pointerLabelX(x: number, w: number, width: number): number {
  const right = x + 8;
  if (right + w <= width - 2) return right;
  const left = x - 8 - w;
  if (left >= 2) return left;
  return Math.max(2, Math.min(right, width - 2 - w));
}

/** Room a cut pointer label needs at least, right of its pointer, to be worth cutting rather than moved. */
const MIN_CUT_LABEL_PX = 48;

/**
 * A pointer's label and where it starts. When it fits on neither side of the pointer (a phone's
 * plot), it is not laid over its own marker ("◆group billing committed 1" read as one smudge): it
 * starts right of the pointer, cut with an ellipsis. Given the pointer's `owner` (its consumer or
 * group), the cut falls in that name, so what kind of pointer it is and its offset stay whole:
 * "committed-re… position 4", "그룹 commi… 커밋 4" — the words after the name ("position",
 * "committed", 위치, 커밋) were what a plain cut from the end took first ("committed-reade… 4"),
 * down to the name's ellipsis alone, then without the name. Otherwise its words are cut and its
 * offset (the last word) kept.
 */
export function pointerLabel(
  x: number,
  text: string,
  width: number,
  measure: (t: string) => number,
  owner?: string,
): { x: number; text: string } {
  const w = measure(text);
  const right = x + 8;
  if (right + w <= width - 2 || x - 8 - w >= 2) return { x: pointerLabelX(x, w, width), text };
  const room = width - 2 - right;
  const at = owner ? text.indexOf(owner) : -1;
  if (owner && at >= 0 && room >= MIN_CUT_LABEL_PX) {
    const before = text.slice(0, at);
    const after = text.slice(at + owner.length);
    const name = fitText(owner, room - measure(before) - measure(after), measure);
    // even the name's ellipsis alone ("group … committed 4") says more than "group committe… 4",
    // which reads as a group of that name
    if (name !== '') return { x: right, text: `${before}${name}${after}` };
    // and with no room for that, the label without the name: "group committed 4", "그룹 커밋 4"
    const bare = `${before}${after.trimStart()}`;
    if (measure(bare) <= room) return { x: right, text: bare };
  }
  const space = text.lastIndexOf(' ');
  const tail = space > 0 ? text.slice(space) : '';
  const head = fitText(space > 0 ? text.slice(0, space) : text, room - measure(tail), measure);
  if (room < MIN_CUT_LABEL_PX || head === '' || head === '…') return { x: pointerLabelX(x, w, width), text };
  return { x: right, text: `${head}${tail}` };
}

function drawPointers(dc: LaneDrawContext, lane: LaneModel, box: LaneBox, scale: ScaleLinear<number, number>): void {
  const { ctx, palette } = dc;
  const rowH = LANE_GEOMETRY.pointerRow;
  lane.pointers.forEach((p, i) => {
    const row = i % Math.max(1, box.pointerRows);
    const y = box.pointerTop + row * rowH + rowH / 2;
    const x = scale(dc.animated(`${lane.key}:${p.kind}:${p.owner}`, p.offset));
    if (x < -200 || x > dc.width + 4) return;
    const color = p.kind === 'position' ? palette.position : palette.groupOffset;
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(Math.round(x) + 0.5, box.cellBottom + 1);
    ctx.lineTo(Math.round(x) + 0.5, y - 4);
    ctx.stroke();
    ctx.beginPath();
    if (p.kind === 'position') {
      // ▲ the next offset this consumer will read
      ctx.moveTo(x, y - 5);
      ctx.lineTo(x + 5, y + 4);
      ctx.lineTo(x - 5, y + 4);
      ctx.closePath();
      ctx.fill();
    } else {
      // ◆ committed, ◇ pending (TxnOffsetCommit waiting for its marker)
      ctx.moveTo(x, y - 5);
      ctx.lineTo(x + 5, y);
      ctx.lineTo(x, y + 5);
      ctx.lineTo(x - 5, y);
      ctx.closePath();
      if (p.kind === 'committed') ctx.fill();
      else {
        ctx.lineWidth = 1.5;
        ctx.stroke();
      }
    }
    // the label goes right of the pointer, or left of it near the plot's right edge
    const label = pointerLabel(x, (dc.pointerLabel ?? pointerText)(p), dc.width, dc.measure, p.owner);
    ctx.fillText(label.text, label.x, y + 4);
  });
}

/** Integer offsets to label under a lane: d3's ticks for the visible domain, whole offsets only. */
export function offsetTicks(scale: ScaleLinear<number, number>, count: number, min: number): number[] {
  const [d0, d1] = scale.domain() as [number, number];
  return scale.ticks(count).filter((t) => Number.isInteger(t) && t >= Math.max(min, Math.ceil(d0 - 0.5)) && t <= d1);
}

/** The offset axis under the cells: a tick at offset o labels the cell of o, so it sits at the cell's centre. */
function drawAxis(dc: LaneDrawContext, lane: LaneModel, box: LaneBox, scale: ScaleLinear<number, number>): void {
  const { ctx, palette } = dc;
  const ticks = offsetTicks(scale, Math.max(2, Math.floor(dc.width / 90)), lane.logStartOffset);
  ctx.fillStyle = palette.grid;
  ctx.fillRect(0, box.axisY, dc.width, 1);
  ctx.beginPath();
  for (const t of ticks) {
    const x = Math.round(scale(t + 0.5)) + 0.5;
    ctx.moveTo(x, box.axisY + 1);
    ctx.lineTo(x, box.axisY + 5);
  }
  ctx.strokeStyle = palette.muted;
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.fillStyle = palette.muted;
  ctx.textAlign = 'center';
  ctx.font = `${AXIS_FONT_PX}px ${palette.font}`;
  for (const t of ticks) {
    // labels near the edges stay whole
    const half = ctx.measureText(String(t)).width / 2;
    ctx.fillText(String(t), Math.max(half, Math.min(dc.width - half, scale(t + 0.5))), box.axisY + 15);
  }
  ctx.textAlign = 'start';
  ctx.font = `${LABEL_FONT_PX}px ${palette.font}`;
}

const AXIS_FONT_PX = 10;

/**
 * Records at or above the high watermark are in the leader's log but not committed: no consumer reads
 * them, and an unclean election could still truncate them. They are faded under a veil of the
 * background and edged with a dashed line, whatever their transaction (the legend says so).
 */
export function drawAboveHw(
  dc: LaneDrawContext,
  lane: LaneModel,
  top: number,
  h: number,
  scale: ScaleLinear<number, number>,
  leoX: number,
): void {
  const { ctx, palette } = dc;
  const hwX = Math.max(0, scale(dc.animated(`${lane.key}:hw`, lane.highWatermark)));
  if (leoX <= hwX + 0.5) return;
  ctx.globalAlpha = ABOVE_HW_VEIL;
  ctx.fillStyle = palette.bg;
  ctx.fillRect(hwX, top, leoX - hwX, h);
  ctx.globalAlpha = 1;
  ctx.beginPath();
  ctx.rect(hwX + 0.5, top + 0.5, leoX - hwX - 1, h - 1);
  ctx.setLineDash([3, 2]);
  ctx.lineWidth = 1;
  ctx.strokeStyle = palette.muted;
  ctx.stroke();
  ctx.setLineDash([]);
}

/** How much of the background the veil over records above the high watermark lets through. */
export const ABOVE_HW_VEIL = 0.5;

/** Draws one lane. Returns the mark layout mode used ('cells' or 'bins'). */
export function drawLane(dc: LaneDrawContext, lane: LaneModel, box: LaneBox, scale: ScaleLinear<number, number>): 'cells' | 'bins' {
  const { ctx, palette } = dc;
  const map = linearMapOf(scale);
  const top = box.cellTop;
  const h = box.cellBottom - box.cellTop;
  // the lane's track, from its first offset to its log end offset
  const x0 = Math.max(0, scale(lane.logStartOffset));
  const x1 = Math.min(dc.width, scale(dc.animated(`${lane.key}:leo`, lane.logEndOffset)));
  ctx.fillStyle = palette.grid;
  ctx.globalAlpha = 0.45;
  ctx.fillRect(0, top + h / 2 - 0.5, dc.width, 1);
  if (x1 > x0) ctx.fillRect(x0, top, x1 - x0, h);
  ctx.globalAlpha = 1;
  const marks = layoutMarks(lane, map, dc.width, dc.marks);
  if (marks.mode === 'cells') {
    drawData(dc, marks.runs, top, h, map.a);
    drawMarkerCells(dc, marks.runs, top, h);
    drawCellDecorations(dc, lane, marks.runs, top, h, map.a);
  } else if (dc.vectorBins) {
    drawData(dc, marks.runs, top, h, 0);
    drawBinMarkers(dc, marks.markers, top, h);
  } else dc.bins.draw(ctx, dc.dpr, dc.width, top, h, marks.runs, marks.markers, dc.binColors);
  drawAboveHw(dc, lane, top, h, scale, x1);
  drawAxis(dc, lane, box, scale);
  drawOffsetLines(dc, lane, box, scale);
  if (lane.replication) {
    drawOfflineBanner(dc, lane, box);
    drawReplicas(dc, lane, box, scale);
  }
  drawPointers(dc, lane, box, scale);
  return marks.mode;
}
