import { describe, expect, it } from 'vitest';
import { boxAtY, LANE_GEOMETRY, layoutLanes } from '../../src/ui/timeline/laneLayout';
import { groupOffsetLines, placeLabels } from '../../src/ui/timeline/lineLabels';

const lanes = [
  { key: 'orders-0', internal: false, pointers: { length: 2 } },
  { key: 'orders-1', internal: false, pointers: { length: 0 } },
  { key: '__consumer_offsets-0', internal: true, pointers: { length: 0 } },
  { key: '__transaction_state-0', internal: true, pointers: { length: 0 } },
];

describe('lane layout', () => {
  it('stacks user topics, then a header for the collapsed internal topics', () => {
    const layout = layoutLanes(lanes, false);
    expect(layout.boxes.map((b) => b.key)).toEqual(['orders-0', 'orders-1']);
    expect(layout.group?.count).toBe(2);
    const first = layout.boxes[0];
    const second = layout.boxes[1];
    expect(first?.pointerRows).toBe(2);
    expect(second?.y).toBe(first?.height);
    expect(layout.group?.y).toBe((second?.y ?? 0) + (second?.height ?? 0));
    expect(layout.height).toBe((layout.group?.y ?? 0) + LANE_GEOMETRY.groupHeader);
  });

  it('shows the internal lanes below their header when expanded', () => {
    const layout = layoutLanes(lanes, true);
    expect(layout.boxes.map((b) => b.key)).toEqual(['orders-0', 'orders-1', '__consumer_offsets-0', '__transaction_state-0']);
    expect(layout.boxes[2]?.y).toBe((layout.group?.y ?? 0) + LANE_GEOMETRY.groupHeader);
    expect(layout.boxes.map((b) => b.lane)).toEqual([0, 1, 2, 3]);
  });

  it('finds the lane at a height', () => {
    const layout = layoutLanes(lanes, true);
    for (const b of layout.boxes) {
      expect(boxAtY(layout, b.y)?.key).toBe(b.key);
      expect(boxAtY(layout, b.y + b.height - 0.5)?.key).toBe(b.key);
    }
    expect(boxAtY(layout, (layout.group?.y ?? 0) + 1)).toBeNull();
    expect(boxAtY(layout, -1)).toBeNull();
  });
});

describe('LEO / HW / LSO labels', () => {
  it('share one label where lines coincide', () => {
    expect(groupOffsetLines({ lso: 102, hw: 102, leo: 102 }).map((g) => g.text)).toEqual(['LSO = HW = LEO 102']);
    expect(groupOffsetLines({ lso: 3, hw: 7, leo: 7 }).map((g) => g.text)).toEqual(['LSO 3', 'HW = LEO 7']);
    expect(groupOffsetLines({ lso: 3, hw: 5, leo: 7 }).map((g) => g.kinds)).toEqual([['lso'], ['hw'], ['leo']]);
  });

  it('are pushed apart so they never overlap, and kept inside the plot', () => {
    const lefts = placeLabels([10, 12, 14], [40, 40, 40], 1000, 3, 8);
    expect(lefts).toEqual([13, 61, 109]);
    const clamped = placeLabels([950, 990], [60, 60], 1000, 3, 8);
    expect(clamped[1]).toBe(940);
    expect((clamped[0] ?? 0) + 60 + 8).toBeLessThanOrEqual(clamped[1] ?? 0);
  });
});
