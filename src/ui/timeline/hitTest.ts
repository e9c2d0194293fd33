/**
 * Hit-testing by binary search over sorted offsets (d3-array's bisectors), and by distance to an
 * arrow for envelopes: no scan over every record or envelope.
 */
import { bisectLeft, bisectRight } from 'd3-array';
import type { LinearMap } from './markLayout';

/** The record whose cell holds x, or the nearest one within tolPx; -1 when there is none. */
export function recordAt(offsets: Float64Array, map: LinearMap, x: number, tolPx: number): number {
  const n = offsets.length;
  if (n === 0 || !(map.a > 0)) return -1;
  const o = (x - map.b) / map.a;
  const i = bisectRight(offsets, o) - 1;
  let best = -1;
  let bestD = Number.POSITIVE_INFINITY;
  for (const j of [i, i + 1]) {
    if (j < 0 || j >= n) continue;
    const off = offsets[j] as number;
    const x0 = map.a * off + map.b;
    const x1 = map.a * (off + 1) + map.b;
    const d = x < x0 ? x0 - x : x >= x1 ? x - x1 : 0;
    if (d < bestD) {
      bestD = d;
      best = j;
    }
  }
  return bestD <= tolPx ? best : -1;
}

/** Index of the record at exactly `offset`, or -1. */
export function indexOfOffset(offsets: Float64Array, offset: number): number {
  const i = bisectLeft(offsets, offset);
  return i < offsets.length && offsets[i] === offset ? i : -1;
}

/** How many records have a cell starting in the pixel column [px, px + 1). */
export function recordsInPixel(offsets: Float64Array, map: LinearMap, px: number): number {
  if (!(map.a > 0)) return 0;
  const lo = (px - map.b) / map.a;
  const hi = (px + 1 - map.b) / map.a;
  return bisectLeft(offsets, hi) - bisectLeft(offsets, lo);
}

/** Distance from point (px, py) to the segment (x0, y0)–(x1, y1). */
export function distanceToSegment(px: number, py: number, x0: number, y0: number, x1: number, y1: number): number {
  const dx = x1 - x0;
  const dy = y1 - y0;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - x0) * dx + (py - y0) * dy) / len2));
  const cx = x0 + t * dx;
  const cy = y0 + t * dy;
  return Math.hypot(px - cx, py - cy);
}
