/**
 * Horizontal offset scales. Offsets of different partitions are unrelated, so each lane has its
 * own domain starting at its first offset, but all lanes share one span and one zoom transform:
 * panning moves every lane together and a cell has the same width in each.
 *
 * The span comes from the whole run (the last step's log end offsets), so cells keep their place
 * as the run plays: later records appear where they will stay.
 */
import { type ScaleLinear, scaleLinear } from 'd3-scale';
import type { ZoomTransform } from 'd3-zoom';
import type { LinearMap } from './markLayout';

export const PLOT_PAD = 14;
/** Widest cell when the whole run fits (zoom 1): room for a label such as "evt-789 ×2". */
export const FIT_CELL_PX = 72;
/** Widest cell when zoomed in all the way. */
export const MAX_CELL_PX = 120;

/** The offsets a lane covers over the whole run: [start, end), with one slot for the log end offset. */
export interface LaneExtent {
  readonly start: number;
  readonly end: number;
}

export function plotWidth(width: number): number {
  return Math.max(1, width - 2 * PLOT_PAD);
}

/** Offsets shown across the plot at zoom 1: the longest lane, or more so that cells stay ≤ FIT_CELL_PX. */
export function sharedSpan(extents: Iterable<LaneExtent>, width: number): number {
  let span = 1;
  for (const e of extents) span = Math.max(span, e.end - e.start);
  return Math.max(span, plotWidth(width) / FIT_CELL_PX);
}

export function baseScale(start: number, span: number, width: number): ScaleLinear<number, number> {
  return scaleLinear()
    .domain([start, start + span])
    .range([PLOT_PAD, PLOT_PAD + plotWidth(width)]);
}

export function maxZoom(span: number, width: number): number {
  return Math.max(1, (MAX_CELL_PX * span) / plotWidth(width));
}

/** The zoomed scale of one lane. */
export function laneScale(start: number, span: number, width: number, t: ZoomTransform): ScaleLinear<number, number> {
  return t.rescaleX(baseScale(start, span, width));
}

export function linearMapOf(scale: ScaleLinear<number, number>): LinearMap {
  const [d0, d1] = scale.domain() as [number, number];
  const [r0, r1] = scale.range() as [number, number];
  const a = (r1 - r0) / (d1 - d0);
  return { a, b: r0 - a * d0 };
}

/** A lane's extent grown to include what the view at this step shows. */
export function mergeExtent(e: LaneExtent | undefined, logStartOffset: number, logEndOffset: number): LaneExtent {
  const start = Math.min(e?.start ?? logStartOffset, logStartOffset);
  const end = Math.max(e?.end ?? logEndOffset + 1, logEndOffset + 1);
  return { start, end };
}
