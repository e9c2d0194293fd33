/**
 * The static layer of the message-sequence view: process rows, the "now" line and one arrow per
 * envelope — delivered (arrowhead), in flight (dashed, open head, as far as it got), lost (ending in
 * a dot), dropped (crossed out, labelled with its fault) — with RPC names where there is room.
 */
import type { ScaleLinear } from 'd3-scale';
import type { EnvelopeRecord } from '../../sim/kernel/envelope';
import { laneY } from './mscLayout';
import { type AxisMode, type EnvelopeSpan, envelopeSpan, type MscModel } from './mscModel';
import type { Palette } from './palette';

export interface MscDrawContext {
  readonly ctx: CanvasRenderingContext2D;
  readonly width: number;
  readonly palette: Palette;
  readonly model: MscModel;
  readonly mode: AxisMode;
  readonly step: number;
  readonly now: number;
  readonly scale: ScaleLinear<number, number>;
  readonly measure: (text: string) => number;
}

/** Arrows drawn with heads and labels up to this many in view; beyond it, plain lines. */
export const DENSE_ARROWS = 2500;
const DROPPED_PX = 30;

export interface ArrowPath {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
  readonly span: EnvelopeSpan;
}

/** The arrow of envelope `i` (model index) in pixels. */
export function arrowPath(dc: Omit<MscDrawContext, 'ctx' | 'measure' | 'palette' | 'width'>, i: number): ArrowPath {
  const e = dc.model.envelopes.at(i) as EnvelopeRecord;
  const span = envelopeSpan(dc.model, e, dc.mode, dc.step, dc.now);
  const y0 = laneY(dc.model.fromLane[i] as number);
  const yTo = laneY(dc.model.toLane[i] as number);
  const x0 = dc.scale(span.start);
  if (span.end === null) {
    // dropped: it heads for its receiver and stops, crossed out
    return { x0, y0, x1: x0 + DROPPED_PX, y1: y0 + (yTo - y0) * 0.45, span };
  }
  const x1 = dc.scale(span.end);
  return { x0, y0, x1, y1: y0 + (yTo - y0) * span.progress, span };
}

function head(ctx: CanvasRenderingContext2D, p: ArrowPath, size: number): void {
  const a = Math.atan2(p.y1 - p.y0, p.x1 - p.x0);
  ctx.moveTo(p.x1, p.y1);
  ctx.lineTo(p.x1 - size * Math.cos(a - 0.45), p.y1 - size * Math.sin(a - 0.45));
  ctx.lineTo(p.x1 - size * Math.cos(a + 0.45), p.y1 - size * Math.sin(a + 0.45));
  ctx.closePath();
}

function cross(ctx: CanvasRenderingContext2D, x: number, y: number, r: number): void {
  ctx.moveTo(x - r, y - r);
  ctx.lineTo(x + r, y + r);
  ctx.moveTo(x + r, y - r);
  ctx.lineTo(x - r, y + r);
}

/** Draws one arrow in the given colour and width (also used by the overlay to highlight). */
export function strokeArrow(ctx: CanvasRenderingContext2D, p: ArrowPath, color: string, width: number, detailed: boolean): void {
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = width;
  ctx.beginPath();
  ctx.moveTo(p.x0, p.y0);
  ctx.lineTo(p.x1, p.y1);
  if (p.span.state === 'in-flight') ctx.setLineDash([5, 4]);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.arc(p.x0, p.y0, detailed ? 2.2 : 1.2, 0, Math.PI * 2);
  ctx.fill();
  if (!detailed) return;
  switch (p.span.state) {
    case 'delivered':
      ctx.beginPath();
      head(ctx, p, 7);
      ctx.fill();
      break;
    case 'in-flight':
      ctx.beginPath();
      ctx.arc(p.x1, p.y1, 3.5, 0, Math.PI * 2);
      ctx.lineWidth = 1.5;
      ctx.stroke();
      break;
    case 'lost':
      ctx.beginPath();
      ctx.arc(p.x1, p.y1, 4.5, 0, Math.PI * 2);
      ctx.fill();
      break;
    case 'dropped':
      ctx.beginPath();
      cross(ctx, p.x1, p.y1, 5);
      cross(ctx, (p.x0 + p.x1) / 2, (p.y0 + p.y1) / 2, 3.5);
      ctx.lineWidth = 2;
      ctx.stroke();
      break;
  }
}

export function faultLabel(e: EnvelopeRecord, span: EnvelopeSpan): string | null {
  if (span.state === 'dropped') return `dropped: ${e.fault ?? 'by the network'}`;
  if (span.state === 'lost') return `lost${e.fault ? `: ${e.fault}` : ''}`;
  if (e.duplicateOf !== null) return `duplicate of #${e.duplicateOf}`;
  return e.fault;
}

/** Draws the arrows of the shown envelopes in [from, to) of `shown`. Returns how many were drawn. */
export function drawArrows(dc: MscDrawContext, shown: Int32Array, from: number, to: number): number {
  const { ctx, palette, width } = dc;
  const detailed = to - from <= DENSE_ARROWS;
  let drawn = 0;
  const labels: { x: number; y: number; text: string; color: string }[] = [];
  const rpcLabels: typeof labels = [];
  for (let j = from; j < to; j++) {
    const i = shown[j] as number;
    const e = dc.model.envelopes.at(i) as EnvelopeRecord;
    const p = arrowPath(dc, i);
    if (Math.max(p.x0, p.x1) < -10 || Math.min(p.x0, p.x1) > width + 10) continue;
    drawn++;
    const faulty = p.span.state === 'dropped' || p.span.state === 'lost' || e.fault !== null;
    const color = faulty ? palette.fault : e.background ? palette.background : palette.arrow;
    strokeArrow(ctx, p, color, faulty ? 1.8 : 1.2, detailed);
    if (!detailed) continue;
    const fault = faultLabel(e, p.span);
    const down = p.y1 >= p.y0;
    if (fault) labels.push({ x: p.x1 + 6, y: p.y1 + (down ? 12 : -6), text: fault, color: palette.fault });
    const len = Math.hypot(p.x1 - p.x0, p.y1 - p.y0);
    if (len > 16)
      rpcLabels.push({ x: p.x0 + 4, y: p.y0 + (down ? -5 : 13), text: e.rpc, color: e.background ? palette.muted : palette.fg });
  }
  // fault labels first, then RPC names, each only where it overlaps no label already placed
  const placed: [number, number, number, number][] = [];
  for (const l of [...labels, ...rpcLabels]) {
    if (placed.length >= MAX_LABELS) break;
    const w = dc.measure(l.text);
    // keep labels inside the plot: one that would run off the right edge ends at it
    const x = l.x + w > width - 2 ? Math.max(2, width - 2 - w) : l.x;
    const r: [number, number, number, number] = [x, l.y - 10, x + w, l.y + 2];
    if (r[2] < 0 || r[0] > width) continue;
    if (placed.some((q) => r[0] < q[2] && q[0] < r[2] && r[1] < q[3] && q[1] < r[3])) continue;
    placed.push(r);
    ctx.fillStyle = l.color;
    ctx.fillText(l.text, x, l.y);
  }
  return drawn;
}

const MAX_LABELS = 300;
