/**
 * The message view's labels: however busy the traffic, no two placed labels overlap (nor come closer
 * than LABEL_GAP across and LABEL_GAP_Y up and down) and every one stays inside the plot; a label that
 * cannot be placed without overlap is left out, not piled up; the same RPC name sent again close by
 * is counted on the label already placed ("ProduceResponse ×2"), not written again a line below.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LABEL_ASCENT, LABEL_DESCENT, LABEL_GAP_Y, LABEL_LINE, type LabelRequest, placeLabels } from '../../src/ui/timeline/mscLabels';

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
    const at = { x: 100, y: 100, width: 80, color: '#000' };
    const texts = ['Produce', 'Fetch', 'JoinGroup', 'SyncGroup'];
    const placed = placeLabels(
      texts.map((text) => ({ ...at, text })),
      { x0: 0, x1: 500, y0: 0, y1: 300 },
    );
    expect(placed.map((p) => [p.text, p.y])).toEqual([
      ['Produce', 100],
      ['Fetch', 100 - LABEL_LINE],
      ['JoinGroup', 100 + LABEL_LINE],
    ]);
    // stacked lines keep 2 × LABEL_GAP_Y between their texts: they do not read as one pile
    expect(LABEL_LINE - LABEL_ASCENT - LABEL_DESCENT).toBe(2 * LABEL_GAP_Y);
    expect(2 * LABEL_GAP_Y).toBeGreaterThanOrEqual(6);
  });

  it('counts the same RPC name sent again close by on the label already placed, instead of stacking it', () => {
    const area = { x0: 0, x1: 500, y0: 0, y1: 300 };
    const width = (t: string) => t.length * 6;
    const label = (x: number, y: number, text = 'ProduceResponse') => ({ x, y, width: width(text), text, color: '#000' });
    // ProduceResponse three times, arrows a few pixels apart (and one a line lower), then AddPartitionsToTxn
    const placed = placeLabels(
      [label(100, 100), label(104, 100), label(110, 100 + LABEL_LINE), label(106, 100, 'AddPartitionsToTxn')],
      area,
      300,
      width,
    );
    expect(placed.map((p) => [p.text, p.count ?? 1])).toEqual([
      ['ProduceResponse ×3', 3],
      ['AddPartitionsToTxn', 1],
    ]);
    const [a, b] = placed as [(typeof placed)[number], (typeof placed)[number]];
    expect(a.box.x1 - a.box.x0).toBeGreaterThan(width('ProduceResponse ×3'));
    expect(b.y).not.toBe(a.y);
    // far apart, the same name is written at each arrow
    expect(placeLabels([label(100, 100), label(300, 100)], area, 300, width).map((p) => p.text)).toEqual([
      'ProduceResponse',
      'ProduceResponse',
    ]);
    // nor from two process rows (two senders): JoinGroup from auditor and from raw-reader, one row apart
    const rowA = { y0: 66, y1: 104 };
    const rowB = { y0: 104, y1: 142 };
    const twoRows = placeLabels(
      [
        { ...label(100, 100, 'JoinGroup'), band: rowA },
        { ...label(100, 110, 'JoinGroup'), band: rowB },
      ],
      area,
      300,
      width,
    );
    expect(twoRows.map((p) => [p.text, p.count ?? 1])).toEqual([
      ['JoinGroup', 1],
      ['JoinGroup', 1],
    ]);
    // fault notes (they carry their arrow) are never counted together
    const fault = { ...label(100, 100, 'dropped: x'), ref: 1 };
    expect(placeLabels([fault, { ...fault, ref: 2 }], area, 300, width)).toHaveLength(2);
  });

  it('keeps a counted label’s plain text when the longer one would meet another label', () => {
    const area = { x0: 0, x1: 500, y0: 0, y1: 300 };
    const width = (t: string) => t.length * 6;
    const at = (x: number, text: string) => ({ x, y: 100, width: width(text), text, color: '#000' });
    // "Produce" at 100–142, "Fetch" from 150 on its line: "Produce ×2" (to 160) would run into it
    const placed = placeLabels([at(100, 'Produce'), at(150, 'Fetch'), at(102, 'Produce')], area, 300, width);
    expect(placed.map((p) => [p.text, p.count ?? 1])).toEqual([
      ['Produce', 2],
      ['Fetch', 1],
    ]);
  });

  it('never overlap once counted, and every request is placed, counted or left out', () => {
    const rpc = fc.record({
      x: fc.integer({ min: 0, max: 600 }),
      y: fc.integer({ min: 30, max: 270 }),
      text: fc.constantFrom('Produce', 'ProduceResponse', 'AddPartitionsToTxn', 'Fetch', 'JoinGroup'),
      color: fc.constant('#000'),
    });
    const width = (t: string) => t.length * 6.2;
    fc.assert(
      fc.property(fc.array(rpc, { maxLength: 200 }), (rs) => {
        const area = { x0: 2, x1: 698, y0: 28, y1: 280 };
        const placed = placeLabels(
          rs.map((r) => ({ ...r, width: width(r.text) })),
          area,
          300,
          width,
        );
        expect(placed.reduce((n, p) => n + (p.count ?? 1), 0)).toBeLessThanOrEqual(rs.length);
        for (let i = 0; i < placed.length; i++) {
          const a = placed[i] as (typeof placed)[number];
          expect(a.box.x1 - 1).toBeLessThanOrEqual(area.x1);
          for (let j = i + 1; j < placed.length; j++) expect(overlap(a.box, (placed[j] as (typeof placed)[number]).box)).toBe(false);
        }
      }),
      { numRuns: Math.max(20, Math.round(200 * SCALE)) },
    );
  });

  it('keeps the first labels given (faults go first)', () => {
    const fault = { x: 100, y: 100, width: 80, text: 'dropped', color: 'red' };
    const rpc = { x: 110, y: 100, width: 80, text: 'Produce', color: '#000' };
    expect(placeLabels([fault, rpc], { x0: 0, x1: 500, y0: 86, y1: 106 }).map((p) => p.text)).toEqual(['dropped']);
  });
});
