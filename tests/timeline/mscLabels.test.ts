/**
 * The message view's labels: however busy the traffic, no two placed labels overlap and every one
 * stays inside the plot; a label that cannot be placed without overlap is left out, not piled up.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type LabelRequest, placeLabels } from '../../src/ui/timeline/mscLabels';

const SCALE = Number(process.env.PROPERTY_SCALE ?? 1);

const overlap = (a: { x0: number; y0: number; x1: number; y1: number }, b: typeof a) =>
  a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

const request = fc.record({
  x: fc.double({ min: -200, max: 1200, noNaN: true }),
  y: fc.double({ min: 0, max: 300, noNaN: true }),
  width: fc.double({ min: 4, max: 260, noNaN: true }),
  text: fc.string({ maxLength: 12 }),
  color: fc.constant('#000'),
});

describe('message labels', () => {
  it('never overlap and stay inside the area', () => {
    fc.assert(
      fc.property(fc.array(request, { maxLength: 400 }), fc.integer({ min: 1, max: 400 }), (requests: LabelRequest[], max) => {
        const area = { x0: 2, x1: 998, y0: 28, y1: 280 };
        const placed = placeLabels(requests, area, max);
        expect(placed.length).toBeLessThanOrEqual(max);
        for (let i = 0; i < placed.length; i++) {
          const a = placed[i] as (typeof placed)[number];
          expect(a.box.x0 + 1).toBeGreaterThanOrEqual(area.x0);
          expect(a.box.x1 - 1).toBeLessThanOrEqual(area.x1);
          expect(a.box.y0).toBeGreaterThanOrEqual(area.y0);
          expect(a.box.y1).toBeLessThanOrEqual(area.y1);
          for (let j = i + 1; j < placed.length; j++) expect(overlap(a.box, (placed[j] as (typeof placed)[number]).box)).toBe(false);
        }
      }),
      { numRuns: Math.max(20, Math.round(200 * SCALE)) },
    );
  });

  it('moves a label to the line above or below before leaving it out', () => {
    const same = { x: 100, y: 100, width: 80, text: 'Produce', color: '#000' };
    const placed = placeLabels([same, same, same, same], { x0: 0, x1: 500, y0: 0, y1: 300 });
    expect(placed.map((p) => p.y)).toEqual([100, 85, 115]);
  });

  it('keeps the first labels given (faults go first)', () => {
    const fault = { x: 100, y: 100, width: 80, text: 'dropped', color: 'red' };
    const rpc = { x: 110, y: 100, width: 80, text: 'Produce', color: '#000' };
    expect(placeLabels([fault, rpc], { x0: 0, x1: 500, y0: 88, y1: 106 }).map((p) => p.text)).toEqual(['dropped']);
  });
});
