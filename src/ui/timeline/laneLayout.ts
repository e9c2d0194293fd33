/**
 * Vertical layout of the partition lanes: user topics first, then a header row for the internal
 * topics (`__consumer_offsets`, `__transaction_state`) whose lanes follow only when expanded.
 * Each lane: a band for the LEO / HW / LSO labels, the cells, the offset axis, one row per replica
 * when the partition is replicated (none with one replica), then one row per pointer (consumer
 * positions, group offsets).
 */
export const LANE_GEOMETRY = {
  labelBand: 18,
  cell: 26,
  axis: 20,
  pointerRow: 15,
  replicaRow: 18,
  gap: 10,
  groupHeader: 36,
  maxPointerRows: 4,
} as const;

export interface LaneBox {
  /** Index into the lanes the layout was made from. */
  readonly lane: number;
  readonly key: string;
  readonly y: number;
  readonly height: number;
  readonly cellTop: number;
  readonly cellBottom: number;
  readonly axisY: number;
  /** The first replica sub-lane's top; replicaRows is 0 for a partition with one replica. */
  readonly replicaTop: number;
  readonly replicaRows: number;
  readonly pointerTop: number;
  readonly pointerRows: number;
}

export interface LanesLayout {
  readonly boxes: readonly LaneBox[];
  /** The internal topics' header row, when there are internal lanes. */
  readonly group: { readonly y: number; readonly height: number; readonly count: number } | null;
  readonly height: number;
}

export interface LaneShape {
  readonly key: string;
  readonly internal: boolean;
  readonly pointers: { readonly length: number };
  readonly replication?: { readonly replicas: { readonly length: number } } | null;
}

function box(lane: LaneShape, index: number, y: number, maxPointerRows: number): LaneBox {
  const g = LANE_GEOMETRY;
  const pointerRows = Math.min(lane.pointers.length, maxPointerRows);
  const cellTop = y + g.labelBand;
  const cellBottom = cellTop + g.cell;
  const axisY = cellBottom;
  const replicaTop = axisY + g.axis;
  const replicaRows = lane.replication?.replicas.length ?? 0;
  const pointerTop = replicaTop + replicaRows * g.replicaRow;
  const height = g.labelBand + g.cell + g.axis + replicaRows * g.replicaRow + pointerRows * g.pointerRow + g.gap;
  return { lane: index, key: lane.key, y, height, cellTop, cellBottom, axisY, replicaTop, replicaRows, pointerTop, pointerRows };
}

/** `maxPointerRows`: pointers beyond it share rows (the page); the exported figure gives each its own. */
export function layoutLanes(
  lanes: readonly LaneShape[],
  internalExpanded: boolean,
  maxPointerRows: number = LANE_GEOMETRY.maxPointerRows,
): LanesLayout {
  const boxes: LaneBox[] = [];
  let y = 0;
  lanes.forEach((l, i) => {
    if (l.internal) return;
    const b = box(l, i, y, maxPointerRows);
    boxes.push(b);
    y += b.height;
  });
  const internal = lanes.filter((l) => l.internal).length;
  let group: LanesLayout['group'] = null;
  if (internal > 0) {
    group = { y, height: LANE_GEOMETRY.groupHeader, count: internal };
    y += LANE_GEOMETRY.groupHeader;
    if (internalExpanded)
      lanes.forEach((l, i) => {
        if (!l.internal) return;
        const b = box(l, i, y, maxPointerRows);
        boxes.push(b);
        y += b.height;
      });
  }
  return { boxes, group, height: Math.max(y, 1) };
}

/** The lane box at height y, or null (binary search: boxes are in y order). */
export function boxAtY(layout: LanesLayout, y: number): LaneBox | null {
  const boxes = layout.boxes;
  let lo = 0;
  let hi = boxes.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const b = boxes[mid] as LaneBox;
    if (y < b.y) hi = mid - 1;
    else if (y >= b.y + b.height) lo = mid + 1;
    else return b;
  }
  return null;
}
