/**
 * Zoomed out, a lane's aggregated runs are painted pixel by pixel into a small image (the strip of
 * cells plus the marker ticks above it) and drawn with one drawImage. Patterns are computed per
 * pixel, so open (hatched) and aborted (cross-hatched) still read without colour, and the cost
 * follows the canvas width, whatever the number of records.
 */
import { CellKind } from './cellKind';
import { MARK_ABORT, MARK_COMMIT } from './lod';
import type { MarkBuffer } from './markLayout';
import type { Palette } from './palette';

/** Packed 0xAABBGGRR colours (little-endian ImageData) for each kind of pixel. */
export interface BinColors {
  readonly plainFill: number;
  readonly plainEdge: number;
  readonly committed: number;
  readonly openFill: number;
  readonly openLine: number;
  readonly abortedFill: number;
  readonly abortedLine: number;
  readonly commitMarker: number;
  readonly abortMarker: number;
}

export const MARKER_BAND_PX = 6;
const NO_KIND = 255;
let columnKinds = new Uint8Array(0);

let probe: CanvasRenderingContext2D | null = null;

/** The RGBA a CSS colour paints, read back from a 1×1 canvas (works for any syntax the canvas accepts). */
export function rgbaOf(css: string): [number, number, number, number] {
  if (!probe) {
    const c = document.createElement('canvas');
    c.width = 1;
    c.height = 1;
    probe = c.getContext('2d', { willReadFrequently: true });
  }
  if (!probe) return [0, 0, 0, 255];
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = '#000';
  probe.fillStyle = css;
  probe.fillRect(0, 0, 1, 1);
  const d = probe.getImageData(0, 0, 1, 1).data;
  return [d[0] ?? 0, d[1] ?? 0, d[2] ?? 0, d[3] ?? 255];
}

export function pack([r, g, b, a]: readonly number[], alpha = 1): number {
  return ((Math.round((a ?? 255) * alpha) << 24) | ((b ?? 0) << 16) | ((g ?? 0) << 8) | (r ?? 0)) >>> 0;
}

export function binColors(p: Palette): BinColors {
  const plain = rgbaOf(p.plain);
  const open = rgbaOf(p.open);
  const aborted = rgbaOf(p.aborted);
  const committed = rgbaOf(p.committed);
  return {
    plainFill: pack(plain, 0.35),
    plainEdge: pack(plain),
    committed: pack(committed),
    openFill: pack(open, 0.25),
    openLine: pack(open),
    abortedFill: pack(aborted, 0.2),
    abortedLine: pack(aborted),
    commitMarker: pack(committed),
    abortMarker: pack(aborted),
  };
}

/** Hatching repeats every this many device pixels. */
export function patternPeriod(dpr: number): number {
  return Math.max(4, Math.round(6 * dpr));
}

/**
 * One full-width strip per data kind (kind k at [k·W·H, (k+1)·W·H) of one array), already patterned: rows [0, band) are left empty for marker
 * ticks, rows [band, H) hold the kind's fill, its edges and its hatching. Painting a run is then a
 * copy of a slice of each row. Pattern period and stroke scale with dpr.
 */
export function buildStrips(W: number, H: number, dpr: number, colors: BinColors): Uint32Array {
  const band = Math.round(MARKER_BAND_PX * dpr);
  const period = patternPeriod(dpr);
  const stroke = Math.max(1, Math.round(1.3 * dpr));
  const edge = Math.max(1, Math.round(dpr));
  const all = new Uint32Array(4 * W * H);
  const strips = [0, 1, 2, 3].map((k) => all.subarray(k * W * H, (k + 1) * W * H));
  for (let row = band; row < H; row++) {
    const y = row - band;
    const edgeRow = y < edge || row >= H - edge;
    const base = row * W;
    (strips[CellKind.committed] as Uint32Array).fill(colors.committed, base, base + W);
    (strips[CellKind.plain] as Uint32Array).fill(edgeRow ? colors.plainEdge : colors.plainFill, base, base + W);
    const open = strips[CellKind.open] as Uint32Array;
    const aborted = strips[CellKind.aborted] as Uint32Array;
    for (let c = 0; c < W; c++) {
      const a = (c + y) % period < stroke;
      const b = (((c - y) % period) + period) % period < stroke;
      open[base + c] = edgeRow || a ? colors.openLine : colors.openFill;
      aborted[base + c] = edgeRow || a || b ? colors.abortedLine : colors.abortedFill;
    }
  }
  return all;
}

/**
 * Paints runs (data kinds, from their strips) and marker ticks into `pixels` (W × H device pixels):
 * rows [0, band) hold the ticks, rows [band, H) the cells.
 */
export function paintBins(
  pixels: Uint32Array,
  W: number,
  H: number,
  dpr: number,
  runs: MarkBuffer,
  markers: MarkBuffer,
  strips: Uint32Array,
  colors: BinColors,
): void {
  pixels.fill(0);
  const band = Math.round(MARKER_BAND_PX * dpr);
  // which kind each device column shows (NO_KIND: none), then rows copied from the strips
  if (columnKinds.length < W) columnKinds = new Uint8Array(W);
  const kinds = columnKinds;
  kinds.fill(NO_KIND, 0, W);
  for (let i = 0; i < runs.length; i++) {
    const c0 = Math.max(0, Math.floor((runs.x0[i] as number) * dpr));
    const c1 = Math.min(W, Math.max(c0 + 1, Math.ceil((runs.x1[i] as number) * dpr)));
    kinds.fill(runs.kind[i] as number, c0, c1);
  }
  const plane = W * H;
  const edge = Math.max(1, Math.round(dpr));
  const period = patternPeriod(dpr);
  const paintRow = (row: number) => {
    const base = row * W;
    for (let c = 0; c < W; c++) {
      const k = kinds[c] as number;
      if (k !== NO_KIND) pixels[base + c] = strips[k * plane + base + c] as number;
    }
  };
  // edge rows and one pattern period of inner rows pixel by pixel; the other inner rows repeat
  // that period (the hatching depends on the row only modulo the period), copied a block at a time
  const innerTop = band + edge;
  const innerEnd = H - edge;
  for (let row = band; row < Math.min(H, innerTop + period); row++) paintRow(row);
  for (let row = Math.max(innerTop + period, innerEnd); row < H; row++) paintRow(row);
  for (let row = innerTop + period; row < innerEnd; row += period) {
    const rows = Math.min(period, innerEnd - row);
    pixels.copyWithin(row * W, (row - period) * W, (row - period + rows) * W);
  }
  const tick = band - Math.max(1, Math.round(dpr));
  for (let i = 0; i < markers.length; i++) {
    const c0 = Math.max(0, Math.floor((markers.x0[i] as number) * dpr));
    const c1 = Math.min(W, c0 + Math.max(1, Math.round(dpr)));
    const color = markers.kind[i] === MARK_ABORT ? colors.abortMarker : markers.kind[i] === MARK_COMMIT ? colors.commitMarker : 0;
    for (let row = 0; row < tick; row++) for (let c = row * W + c0, end = row * W + c1; c < end; c++) pixels[c] = color;
  }
}

/** An offscreen canvas the bins are painted into, reused from frame to frame. */
export class BinSurface {
  private readonly canvas = document.createElement('canvas');
  private readonly ctx = this.canvas.getContext('2d');
  private image: ImageData | null = null;
  private pixels = new Uint32Array(0);
  private strips: Uint32Array = new Uint32Array(0);
  private stripColors: BinColors | null = null;
  private stripDpr = 0;

  /** Paints runs and markers and draws them at `top` (the cells' top, CSS px) of `target`. */
  draw(
    target: CanvasRenderingContext2D,
    dpr: number,
    width: number,
    top: number,
    height: number,
    runs: MarkBuffer,
    markers: MarkBuffer,
    colors: BinColors,
  ): void {
    if (!this.ctx) return;
    const W = Math.max(1, Math.ceil(width * dpr));
    const band = Math.round(MARKER_BAND_PX * dpr);
    const H = band + Math.max(1, Math.round(height * dpr));
    if (!this.image || this.image.width !== W || this.image.height !== H) {
      this.canvas.width = W;
      this.canvas.height = H;
      this.image = this.ctx.createImageData(W, H);
      this.pixels = new Uint32Array(this.image.data.buffer);
      this.stripColors = null;
    }
    if (this.stripColors !== colors || this.stripDpr !== dpr) {
      this.strips = buildStrips(W, H, dpr, colors);
      this.stripColors = colors;
      this.stripDpr = dpr;
    }
    paintBins(this.pixels, W, H, dpr, runs, markers, this.strips, colors);
    this.ctx.putImageData(this.image, 0, 0);
    target.drawImage(this.canvas, 0, 0, W, H, 0, top - band / dpr, W / dpr, H / dpr);
  }
}
