import { describe, expect, it } from 'vitest';
import { type BinColors, buildStrips, MARKER_BAND_PX, pack, paintBins, patternPeriod } from '../../src/ui/timeline/binRaster';
import { CellKind } from '../../src/ui/timeline/cellKind';
import { MARK_ABORT, MARK_COMMIT } from '../../src/ui/timeline/lod';
import { MarkBuffer } from '../../src/ui/timeline/markLayout';

const colors: BinColors = {
  plainFill: 1,
  plainEdge: 2,
  committed: 3,
  openFill: 4,
  openLine: 5,
  abortedFill: 6,
  abortedLine: 7,
  commitMarker: 8,
  abortMarker: 9,
};

describe('bin raster', () => {
  for (const dpr of [1, 2]) {
    it(`paints runs from their patterned strips and marker ticks above them (dpr ${dpr})`, () => {
      const W = 60 * dpr;
      const band = Math.round(MARKER_BAND_PX * dpr);
      const H = band + 26 * dpr;
      const runs = new MarkBuffer(2);
      runs.push(0, 10, CellKind.committed, 0, 0);
      runs.push(10, 25.5, CellKind.aborted, 0, 0);
      runs.push(30, 40, CellKind.open, 0, 0);
      runs.push(40, 50, CellKind.plain, 0, 0);
      const markers = new MarkBuffer(2);
      markers.push(12, 13, MARK_COMMIT, 0, 0);
      markers.push(33, 34, MARK_ABORT, 0, 0);
      const strips = buildStrips(W, H, dpr, colors);
      const pixels = new Uint32Array(W * H);
      paintBins(pixels, W, H, dpr, runs, markers, strips, colors);
      // reference: every pixel looked up on its own
      const plane = W * H;
      const kindAt = (c: number) => {
        for (let i = runs.length - 1; i >= 0; i--)
          if (c >= Math.floor((runs.x0[i] as number) * dpr) && c < Math.ceil((runs.x1[i] as number) * dpr)) return runs.kind[i] as number;
        return -1;
      };
      for (let row = band; row < H; row++)
        for (let c = 0; c < W; c++) {
          const k = kindAt(c);
          expect(pixels[row * W + c]).toBe(k < 0 ? 0 : strips[k * plane + row * W + c]);
        }
      expect(pixels[0 * W + 12 * dpr]).toBe(colors.commitMarker);
      expect(pixels[0 * W + 33 * dpr]).toBe(colors.abortMarker);
      expect(pixels[0 * W + 20 * dpr]).toBe(0);
    });
  }

  it('hatches open cells and cross-hatches aborted ones, with solid edges', () => {
    const W = 24;
    const H = 6 + 26;
    const strips = buildStrips(W, H, 1, colors);
    const plane = W * H;
    const row = (kind: number, r: number) => Array.from(strips.subarray(kind * plane + r * W, kind * plane + (r + 1) * W));
    expect(new Set(row(CellKind.committed, 10))).toEqual(new Set([colors.committed]));
    expect(new Set(row(CellKind.open, 6))).toEqual(new Set([colors.openLine]));
    const inner = row(CellKind.open, 10);
    expect(inner.filter((p) => p === colors.openLine).length).toBe(W / patternPeriod(1));
    const crossed = row(CellKind.aborted, 10);
    expect(crossed.filter((p) => p === colors.abortedLine).length).toBe((2 * W) / patternPeriod(1));
    expect(row(CellKind.open, 0).every((p) => p === 0)).toBe(true);
  });

  it('packs colours for little-endian ImageData', () => {
    expect(pack([0x11, 0x22, 0x33, 0xff]).toString(16)).toBe('ff332211');
    expect(pack([0x11, 0x22, 0x33, 0xff], 0.5) >>> 24).toBe(128);
  });
});
