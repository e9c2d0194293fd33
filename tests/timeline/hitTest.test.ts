import { describe, expect, it } from 'vitest';
import { distanceToSegment, indexOfOffset, recordAt, recordsInPixel } from '../../src/ui/timeline/hitTest';

// offsets with a gap (compaction): cells 10 px wide, x = 10 * offset
const offsets = Float64Array.from([0, 1, 2, 5, 6]);
const map = { a: 10, b: 0 };

describe('hit-testing', () => {
  it('finds the record whose cell holds x', () => {
    expect(recordAt(offsets, map, 0, 0)).toBe(0);
    expect(recordAt(offsets, map, 15, 0)).toBe(1);
    expect(recordAt(offsets, map, 29.9, 0)).toBe(2);
    expect(recordAt(offsets, map, 55, 0)).toBe(3);
  });

  it('in a gap, picks the nearest record within the tolerance, or none', () => {
    expect(recordAt(offsets, map, 31, 3)).toBe(2);
    expect(recordAt(offsets, map, 48, 3)).toBe(3);
    expect(recordAt(offsets, map, 40, 3)).toBe(-1);
    expect(recordAt(offsets, map, -2, 3)).toBe(0);
    expect(recordAt(offsets, map, 75, 3)).toBe(-1);
    expect(recordAt(new Float64Array(0), map, 5, 3)).toBe(-1);
  });

  it('finds a record by offset', () => {
    expect(indexOfOffset(offsets, 5)).toBe(3);
    expect(indexOfOffset(offsets, 4)).toBe(-1);
  });

  it('counts the records starting in a pixel when zoomed out', () => {
    const dense = Float64Array.from({ length: 100 }, (_, i) => i);
    expect(recordsInPixel(dense, { a: 0.1, b: 0 }, 3)).toBe(10);
    expect(recordsInPixel(dense, { a: 0.1, b: 0 }, 20)).toBe(0);
  });

  it('measures the distance from a point to an arrow', () => {
    expect(distanceToSegment(5, 5, 0, 0, 10, 0)).toBe(5);
    expect(distanceToSegment(-3, 4, 0, 0, 10, 0)).toBe(5);
    expect(distanceToSegment(5, 5, 0, 0, 10, 10)).toBe(0);
    expect(distanceToSegment(1, 1, 0, 0, 0, 0)).toBeCloseTo(Math.SQRT2);
  });
});
