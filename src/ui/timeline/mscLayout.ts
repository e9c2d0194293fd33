/**
 * Geometry of the message-sequence view: one row per process, x in axis units (virtual ms or steps),
 * and the window of envelopes that can appear in a frame (found by binary search over start
 * positions, which never decrease: envelopes are numbered in the order they are sent).
 */
import { bisectLeft, bisectRight } from 'd3-array';

export const MSC_GEOMETRY = { axis: 28, row: 38, bottom: 10 } as const;

export function mscHeight(laneCount: number): number {
  return MSC_GEOMETRY.axis + laneCount * MSC_GEOMETRY.row + MSC_GEOMETRY.bottom;
}

export function laneY(lane: number): number {
  return MSC_GEOMETRY.axis + lane * MSC_GEOMETRY.row + MSC_GEOMETRY.row / 2;
}

/** The heights of the process row that height `y` falls in (a label's band: it stays by its arrow). */
export function rowBandAt(y: number): { y0: number; y1: number } {
  const i = Math.floor((y - MSC_GEOMETRY.axis) / MSC_GEOMETRY.row);
  const y0 = MSC_GEOMETRY.axis + i * MSC_GEOMETRY.row;
  return { y0, y1: y0 + MSC_GEOMETRY.row };
}

export function laneAtY(y: number, laneCount: number): number {
  const i = Math.floor((y - MSC_GEOMETRY.axis) / MSC_GEOMETRY.row);
  return i >= 0 && i < laneCount ? i : -1;
}

/** Positions in the shown list whose arrows may meet [lo, hi] (axis units): [from, to). */
export function envelopeWindow(starts: Float64Array, lo: number, hi: number, maxSpan: number): [number, number] {
  return [bisectLeft(starts, lo - maxSpan), bisectRight(starts, hi)];
}

/** Widest zoom: a millisecond or a step gets at most this many pixels. */
export const MSC_MAX_UNIT_PX = { time: 60, step: 90 } as const;
