/**
 * Where a lane's marks go in one frame: one cell per record when cells are at least CELL_MODE_MIN_PX
 * wide, otherwise records that share a pixel column are aggregated (the most important kind wins,
 * see CellKind) and runs of one kind are merged. Zoomed out, the level-of-detail nodes are walked
 * instead of the records, so the work per frame follows the canvas width, not the record count.
 *
 * Output goes into reusable buffers (no allocation per frame).
 */
import { bisectLeft, bisectRight } from 'd3-array';
import { type Lod, type LodLevel, MARK_ABORT, MARK_COMMIT, NO_DATA } from './lod';

export const CELL_MODE_MIN_PX = 3;

/** x = a * offset + b: an offset scale after zoom, as two numbers. */
export interface LinearMap {
  readonly a: number;
  readonly b: number;
}

/** Parallel arrays of marks: [x0, x1) in CSS pixels, a kind, and the record indices they cover. */
export class MarkBuffer {
  x0: Float64Array;
  x1: Float64Array;
  kind: Uint8Array;
  first: Int32Array;
  last: Int32Array;
  length = 0;

  constructor(capacity = 256) {
    this.x0 = new Float64Array(capacity);
    this.x1 = new Float64Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.first = new Int32Array(capacity);
    this.last = new Int32Array(capacity);
  }

  reset(): void {
    this.length = 0;
  }

  push(x0: number, x1: number, kind: number, first: number, last: number): void {
    if (this.length === this.x0.length) this.grow();
    const i = this.length++;
    this.x0[i] = x0;
    this.x1[i] = x1;
    this.kind[i] = kind;
    this.first[i] = first;
    this.last[i] = last;
  }

  private grow(): void {
    const cap = this.x0.length * 2;
    const copy = <T extends Float64Array | Uint8Array | Int32Array>(a: T, make: (n: number) => T): T => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    this.x0 = copy(this.x0, (n) => new Float64Array(n));
    this.x1 = copy(this.x1, (n) => new Float64Array(n));
    this.kind = copy(this.kind, (n) => new Uint8Array(n));
    this.first = copy(this.first, (n) => new Int32Array(n));
    this.last = copy(this.last, (n) => new Int32Array(n));
  }
}

/** Records whose cell [x(o), x(o+1)) meets [0, width): indices [i0, i1). */
export function visibleIndexRange(offsets: Float64Array, map: LinearMap, width: number): [number, number] {
  const lo = -map.b / map.a - 1;
  const hi = (width - map.b) / map.a;
  return [bisectRight(offsets, lo), bisectLeft(offsets, hi)];
}

export interface MarkLayout {
  mode: 'cells' | 'bins';
  /** Record cells (cells mode; markers included with their own kinds) or merged data runs (bins mode). */
  readonly runs: MarkBuffer;
  /** Bins mode only: one entry per pixel holding a marker, kind MARK_COMMIT or MARK_ABORT. */
  readonly markers: MarkBuffer;
}

export function createMarkLayout(): MarkLayout {
  return { mode: 'cells', runs: new MarkBuffer(), markers: new MarkBuffer(64) };
}

export interface LaneMarks {
  readonly offsets: Float64Array;
  readonly kinds: Uint8Array;
  readonly lod: Lod;
}

export function layoutMarks(lane: LaneMarks, map: LinearMap, width: number, out: MarkLayout): MarkLayout {
  out.runs.reset();
  out.markers.reset();
  const { offsets, kinds, lod } = lane;
  const n = offsets.length;
  if (n === 0 || !(map.a > 0)) return out;
  const [i0, i1] = visibleIndexRange(offsets, map, width);
  const { a, b } = map;
  if (a >= CELL_MODE_MIN_PX) {
    out.mode = 'cells';
    for (let i = i0; i < i1; i++) {
      const o = offsets[i] as number;
      out.runs.push(a * o + b, a * (o + 1) + b, kinds[i] as number, i, i);
    }
    return out;
  }
  out.mode = 'bins';
  const runs = out.runs;
  let binPx = Number.NaN;
  let binData = NO_DATA;
  let binMarks = 0;
  let binX0 = 0;
  let binX1 = 0;
  let binFirst = 0;
  let binLast = 0;
  const flush = () => {
    if (Number.isNaN(binPx)) return;
    if (binData !== NO_DATA) {
      const r = runs.length - 1;
      if (r >= 0 && runs.kind[r] === binData && binX0 - (runs.x1[r] as number) < 1) {
        runs.x1[r] = Math.max(runs.x1[r] as number, binX1);
        runs.last[r] = binLast;
      } else runs.push(binX0, Math.max(binX1, binX0 + 1), binData, binFirst, binLast);
    }
    if (binMarks & MARK_COMMIT) out.markers.push(binPx, binPx + 1, MARK_COMMIT, binFirst, binLast);
    if (binMarks & MARK_ABORT) out.markers.push(binPx, binPx + 1, MARK_ABORT, binFirst, binLast);
  };
  const top = Math.min(lod.length - 1, 30);
  let i = i0;
  while (i < i1) {
    // the largest node starting at i whose records all lie in the pixel column where it starts
    const pxStart = Math.floor(a * (offsets[i] as number) + b);
    let l = 0;
    while (l < top) {
      const size = 1 << (l + 1);
      if ((i & (size - 1)) !== 0) break;
      const last = i + size - 1 < n ? i + size - 1 : n - 1;
      if (a * ((offsets[last] as number) + 1) + b - 1e-9 >= pxStart + 1) break;
      l++;
    }
    const level = lod[l] as LodLevel;
    const node = i >>> l;
    const last = i + (1 << l) - 1 < n ? i + (1 << l) - 1 : n - 1;
    const x0 = a * (offsets[i] as number) + b;
    const x1 = a * ((offsets[last] as number) + 1) + b;
    const px = Math.floor(x0);
    const d = level.data[node] as number;
    const m = level.markers[node] as number;
    if (px === binPx) {
      if (d !== NO_DATA && (binData === NO_DATA || d > binData)) binData = d;
      binMarks |= m;
      if (x1 > binX1) binX1 = x1;
      binLast = last;
    } else {
      flush();
      binPx = px;
      binData = d;
      binMarks = m;
      binX0 = x0;
      binX1 = x1;
      binFirst = i;
      binLast = last;
    }
    i = last + 1;
  }
  flush();
  return out;
}
