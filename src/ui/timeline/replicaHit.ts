/** Finding a replica's sub-lane and a truncated record on it (hover and details). */
import type { RecordRow, TruncationRow } from '../../sim/views';
import { LANE_GEOMETRY, type LaneBox } from './laneLayout';

/** The replica row index at height y in a lane box, or -1 outside its replica rows. */
export function replicaRowAt(box: LaneBox, y: number): number {
  if (box.replicaRows === 0 || y < box.replicaTop) return -1;
  const i = Math.floor((y - box.replicaTop) / LANE_GEOMETRY.replicaRow);
  return i < box.replicaRows ? i : -1;
}

/** The record truncation cut from `broker` at `offset` (the latest truncation that did), or null. */
export function truncatedAt(
  truncations: readonly TruncationRow[],
  broker: string,
  offset: number,
): { readonly t: TruncationRow; readonly row: RecordRow } | null {
  for (let i = truncations.length - 1; i >= 0; i--) {
    const t = truncations[i] as TruncationRow;
    if (t.broker !== broker || offset < t.fromOffset || offset >= t.toOffset) continue;
    const row = t.records.find((r) => r.offset === offset);
    if (row) return { t, row };
  }
  return null;
}
