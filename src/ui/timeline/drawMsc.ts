/**
 * The static layer of the message-sequence view: process rows, the "now" line and one arrow per
 * envelope — delivered (arrowhead), in flight (dashed, open head, as far as it got), lost (ending in
 * a dot), dropped (crossed out, labelled with its fault) — with RPC names where there is room.
 */
import type { ScaleLinear } from 'd3-scale';
import { type LabelBox, type PlacedLabel, placeLabels } from './mscLabels';
import { laneY, rowBandAt } from './mscLayout';
import { type AxisMode, type EnvelopeSpan, envelopeSpan, type MscEnvelope, type MscModel } from './mscModel';
import type { Palette } from './palette';
import { type TimelineStrings, timelineStrings } from './timelineText';

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
  /** Labels stay between these heights (default: anywhere): below the axis, above the plot's bottom. */
  readonly top?: number;
  readonly bottom?: number;
  /** A fault label in the reader's language (default: English). */
  readonly faultText?: (e: MscEnvelope, span: EnvelopeSpan) => string | null;
  /**
   * Filled with the fault labels drawn: each one's box and its arrow's position in `shown`, so that
   * hovering a label (one cut with an ellipsis, say) shows its envelope's tooltip with the whole text.
   */
  readonly faultLabels?: { box: LabelBox; position: number; cut: boolean }[];
  /** Filled with every label drawn, as placeLabels placed it (the message view hands them to tests). */
  readonly placedLabels?: PlacedLabel[];
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
  const e = dc.model.envelopes.at(i) as MscEnvelope;
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

export function faultLabel(e: MscEnvelope, span: EnvelopeSpan): string | null {
  return faultText(timelineStrings('en'), e, span);
}

/** The label of an envelope that met a fault (dropped, lost, a duplicate), in the given words. */
export function faultText(
  text: Pick<TimelineStrings, 'faultDropped' | 'faultLost' | 'duplicateOf'>,
  e: MscEnvelope,
  span: EnvelopeSpan,
  translate: (label: string) => string = (label) => label,
): string | null {
  const why = e.fault === null ? null : translate(e.fault);
  if (span.state === 'dropped') return text.faultDropped(why);
  if (span.state === 'lost') return text.faultLost(why);
  if (e.duplicateOf !== null) return text.duplicateOf(e.duplicateOf);
  return why;
}

/** Draws the arrows of the shown envelopes in [from, to) of `shown`. Returns how many were drawn. */
export function drawArrows(dc: MscDrawContext, shown: Int32Array, from: number, to: number): number {
  const { ctx, palette, width } = dc;
  const detailed = to - from <= DENSE_ARROWS;
  let drawn = 0;
  const labels: { x: number; y: number; text: string; color: string; band: { y0: number; y1: number }; ref?: number }[] = [];
  const rpcLabels: typeof labels = [];
  for (let j = from; j < to; j++) {
    const i = shown[j] as number;
    const e = dc.model.envelopes.at(i) as MscEnvelope;
    const p = arrowPath(dc, i);
    if (Math.max(p.x0, p.x1) < -10 || Math.min(p.x0, p.x1) > width + 10) continue;
    drawn++;
    const faulty = p.span.state === 'dropped' || p.span.state === 'lost' || e.fault !== null;
    const color = faulty ? palette.fault : e.background ? palette.background : palette.arrow;
    strokeArrow(ctx, p, color, faulty ? 1.8 : 1.2, detailed);
    if (!detailed) continue;
    const fault = (dc.faultText ?? faultLabel)(e, p.span);
    const down = p.y1 >= p.y0;
    // each label in the row of the end it names, so it never sits in another process's row than its
    // arrow: a dropped arrow stops short of its receiver, and its note goes beside the cross it ends in
    if (fault)
      labels.push({
        x: p.x1 + (p.span.state === 'dropped' ? 8 : 6),
        y: p.span.state === 'dropped' ? p.y1 + 4 : p.y1 + (down ? 12 : -6),
        text: fault,
        color: palette.fault,
        band: rowBandAt(p.y1),
        ref: j,
      });
    const len = Math.hypot(p.x1 - p.x0, p.y1 - p.y0);
    if (len > 16)
      rpcLabels.push({
        x: p.x0 + 4,
        y: p.y0 + (down ? -5 : 13),
        text: e.rpc,
        color: e.background ? palette.muted : palette.fg,
        band: rowBandAt(p.y0),
      });
  }
  // fault labels first, then RPC names, each where it overlaps no label already placed (mscLabels.ts)
  const requests = [...labels, ...rpcLabels].map((l) => ({ ...l, width: dc.measure(l.text) }));
  const area = { x0: 2, x1: width - 2, y0: dc.top ?? 0, y1: dc.bottom ?? Number.POSITIVE_INFINITY };
  const placed = placeLabels(requests, area, MAX_LABELS, dc.measure);
  if (dc.faultLabels)
    for (const l of placed) if (l.ref !== undefined) dc.faultLabels.push({ box: l.box, position: l.ref, cut: l.cut === true });
  if (dc.placedLabels) dc.placedLabels.push(...placed);
  // a halo of the background under each label, so the arrows it lies across do not cross out its letters
  ctx.save();
  ctx.strokeStyle = palette.bg;
  ctx.lineWidth = LABEL_HALO_PX;
  ctx.lineJoin = 'round';
  for (const l of placed) ctx.strokeText(l.text, l.x, l.y);
  ctx.restore();
  for (const l of placed) {
    ctx.fillStyle = l.color;
    ctx.fillText(l.text, l.x, l.y);
  }
  return drawn;
}

const MAX_LABELS = 300;
const LABEL_HALO_PX = 3;
