import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CellKind } from '../../src/ui/timeline/cellKind';
import { buildLod, MARK_ABORT, MARK_COMMIT } from '../../src/ui/timeline/lod';
import { CELL_MODE_MIN_PX, createMarkLayout, layoutMarks, visibleIndexRange } from '../../src/ui/timeline/markLayout';

function lane(offsets: number[], kinds: number[]) {
  const k = Uint8Array.from(kinds);
  return { offsets: Float64Array.from(offsets), kinds: k, lod: buildLod(k) };
}

/** Random sorted offsets with occasional gaps (as compaction leaves) and random kinds. */
const laneArb = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 5 })), { minLength: 1, maxLength: 3000 })
  .map((steps) => {
    let o = 0;
    const offsets: number[] = [];
    const kinds: number[] = [];
    for (const [gap, kind] of steps) {
      o += gap === 3 ? 1 + (kind % 4) * 7 : 1;
      offsets.push(o);
      kinds.push(kind);
    }
    return { offsets, kinds };
  });

describe('mark layout', () => {
  it('finds the visible records by binary search', () => {
    const offsets = Float64Array.from([0, 1, 2, 3, 10, 11]);
    // x = 10 * offset - 15: offset 1 spans [-5, 5), offset 3 spans [15, 25)
    expect(visibleIndexRange(offsets, { a: 10, b: -15 }, 30)).toEqual([1, 4]);
  });

  it('draws one cell per visible record, at its offset, when cells are wide enough', () => {
    const l = lane([5, 6, 7, 9], [CellKind.plain, CellKind.committed, CellKind.commitMarker, CellKind.open]);
    const out = layoutMarks(l, { a: 20, b: -100 }, 1000, createMarkLayout());
    expect(out.mode).toBe('cells');
    expect(out.runs.length).toBe(4);
    expect(Array.from(out.runs.x0.slice(0, 4))).toEqual([0, 20, 40, 80]);
    expect(Array.from(out.runs.x1.slice(0, 4))).toEqual([20, 40, 60, 100]);
    expect(Array.from(out.runs.kind.slice(0, 4))).toEqual([0, 1, 4, 2]);
  });

  it('zoomed out, merges records sharing a pixel and lets the most important kind win', () => {
    // 10 records per pixel: 0–9 committed except an aborted one at 15, a commit marker at 25
    const offsets = Array.from({ length: 40 }, (_, i) => i);
    const kinds = offsets.map((o) => (o === 15 ? CellKind.aborted : o === 25 ? CellKind.commitMarker : CellKind.committed));
    const out = layoutMarks(lane(offsets, kinds), { a: 0.1, b: 0 }, 100, createMarkLayout());
    expect(out.mode).toBe('bins');
    const runs = Array.from({ length: out.runs.length }, (_, i) => [out.runs.x0[i], out.runs.x1[i], out.runs.kind[i]]);
    expect(runs).toEqual([
      [0, 1, CellKind.committed],
      [1, 2, CellKind.aborted],
      [2, 4, CellKind.committed],
    ]);
    expect(out.markers.length).toBe(1);
    expect([out.markers.x0[0], out.markers.kind[0]]).toEqual([2, MARK_COMMIT]);
  });

  it('zoomed out, never hides a record behind a less important kind, and keeps every marker (property)', () => {
    fc.assert(
      fc.property(
        laneArb,
        fc.double({ min: 0.001, max: CELL_MODE_MIN_PX * 0.99, noNaN: true }),
        fc.integer({ min: -500, max: 200 }),
        (l, a, b) => {
          const width = 800;
          const m = lane(l.offsets, l.kinds);
          const out = layoutMarks(m, { a, b }, width, createMarkLayout());
          expect(out.mode).toBe('bins');
          const { runs, markers } = out;
          expect(runs.length).toBeLessThanOrEqual(width + 2);
          for (let i = 1; i < runs.length; i++) expect(runs.x0[i] as number).toBeGreaterThanOrEqual((runs.x0[i - 1] as number) - 1e-9);
          const [i0, i1] = visibleIndexRange(m.offsets, { a, b }, width);
          for (let i = i0; i < i1; i++) {
            const x = a * (m.offsets[i] as number) + b;
            const kind = m.kinds[i] as number;
            if (kind === CellKind.commitMarker || kind === CellKind.abortMarker) {
              const bit = kind === CellKind.commitMarker ? MARK_COMMIT : MARK_ABORT;
              let found = false;
              for (let j = 0; j < markers.length; j++) if (markers.kind[j] === bit && markers.x0[j] === Math.floor(x)) found = true;
              expect(found).toBe(true);
              continue;
            }
            // the run holding the record's first pixel shows a kind at least as important
            const px = Math.floor(x);
            let best = -1;
            for (let j = 0; j < runs.length; j++)
              if (Math.floor(runs.x0[j] as number) <= px && (runs.x1[j] as number) > px) best = Math.max(best, runs.kind[j] as number);
            expect(best).toBeGreaterThanOrEqual(kind);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('walks level-of-detail nodes, so a zoomed-out frame touches far fewer nodes than records', () => {
    const n = 1 << 17;
    const offsets = Array.from({ length: n }, (_, i) => i);
    const kinds = offsets.map((o) => (o % 10 === 9 ? CellKind.commitMarker : CellKind.committed));
    const out = layoutMarks(lane(offsets, kinds), { a: 1000 / n, b: 0 }, 1000, createMarkLayout());
    // one committed run across the whole width, and one marker tick per pixel
    expect(out.runs.length).toBe(1);
    expect(out.runs.x1[0]).toBeCloseTo(1000, 6);
    expect(out.markers.length).toBe(1000);
  });

  it('builds level-of-detail nodes holding the highest data kind and the markers below them', () => {
    const lod = buildLod(Uint8Array.from([CellKind.plain, CellKind.abortMarker, CellKind.open, CellKind.committed, CellKind.commitMarker]));
    expect(Array.from(lod[1]?.data ?? [])).toEqual([CellKind.plain, CellKind.open, 255]);
    expect(Array.from(lod[1]?.markers ?? [])).toEqual([MARK_ABORT, 0, MARK_COMMIT]);
    expect(Array.from(lod[3]?.data ?? [])).toEqual([CellKind.open]);
    expect(Array.from(lod[3]?.markers ?? [])).toEqual([MARK_ABORT | MARK_COMMIT]);
  });
});
