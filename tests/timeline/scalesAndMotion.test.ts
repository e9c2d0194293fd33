import { zoomIdentity } from 'd3-zoom';
import { describe, expect, it } from 'vitest';
import { Tweens } from '../../src/ui/timeline/motion';
import {
  baseScale,
  FIT_CELL_PX,
  laneScale,
  linearMapOf,
  MAX_CELL_PX,
  maxZoom,
  mergeExtent,
  PLOT_PAD,
  plotWidth,
  sharedSpan,
} from '../../src/ui/timeline/offsetScale';

describe('offset scales', () => {
  it('share one span across lanes: the longest run, or enough that cells stay narrow', () => {
    expect(sharedSpan([{ start: 100, end: 103 }], 1000)).toBe(plotWidth(1000) / FIT_CELL_PX);
    expect(
      sharedSpan(
        [
          { start: 0, end: 5000 },
          { start: 100, end: 103 },
        ],
        1000,
      ),
    ).toBe(5000);
  });

  it('start each lane at its own first offset and zoom them together', () => {
    const a = baseScale(100, 50, 1000);
    expect(a(100)).toBe(PLOT_PAD);
    const t = zoomIdentity.translate(-200, 0).scale(4);
    const s1 = laneScale(100, 50, 1000, t);
    const s2 = laneScale(0, 50, 1000, t);
    expect(s1(110) - s1(100)).toBeCloseTo(s2(10) - s2(0));
    const m = linearMapOf(s1);
    expect(m.a * 110 + m.b).toBeCloseTo(s1(110));
  });

  it('zooms in until a cell is MAX_CELL_PX wide', () => {
    const k = maxZoom(100000, 1000);
    expect((plotWidth(1000) / 100000) * k).toBeCloseTo(MAX_CELL_PX);
    expect(maxZoom(1, 1000)).toBe(1);
  });

  it('grows a lane extent to what the view shows', () => {
    expect(mergeExtent(undefined, 100, 102)).toEqual({ start: 100, end: 103 });
    expect(mergeExtent({ start: 100, end: 110 }, 104, 105)).toEqual({ start: 100, end: 110 });
  });
});

describe('tweens', () => {
  it('move eased towards the target, or jump under reduced motion', () => {
    const t = new Tweens(100);
    t.set('hw', 100, 0, true);
    expect(t.value('hw', 0)).toBe(100);
    t.set('hw', 110, 1000, true);
    expect(t.value('hw', 1000)).toBe(100);
    const mid = t.value('hw', 1050) ?? 0;
    expect(mid).toBeGreaterThan(100);
    expect(mid).toBeLessThan(110);
    expect(t.active(1050)).toBe(true);
    expect(t.value('hw', 1100)).toBe(110);
    expect(t.active(1100)).toBe(false);
    t.set('hw', 120, 2000, false);
    expect(t.value('hw', 2000)).toBe(120);
    t.retain(new Set());
    expect(t.value('hw', 2000)).toBeUndefined();
  });
});
