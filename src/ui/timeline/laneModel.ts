/**
 * What the partition lanes draw, read from the view at one step: per partition its records as
 * parallel typed arrays (sorted offsets and a cell kind each), the log end offset, high watermark
 * and LSO, and the pointers of consumers (position) and groups (committed and pending offsets).
 *
 * Pure: no DOM, no d3. The view at step k is the only source, so a record appended at a later step
 * is not in the lane at an earlier one.
 */
import { coordinatorGroups, keyOf, type PartitionRow, type RecordRow, type ReplicationRow } from '../../sim/views';
import { cellKindOf } from './cellKind';
import { duplicateCounts } from './cellLabels';
import { buildLod, type Lod } from './lod';

export type PointerKind = 'position' | 'committed' | 'pending';

/** A consumer's position or a group's committed (or pending transactional) offset on one partition. */
export interface LanePointer {
  readonly kind: PointerKind;
  /** Consumer client id or group id. */
  readonly owner: string;
  readonly offset: number;
}

export interface LaneModel {
  /** "topic-partition", as Kafka names it and as consumer positions are keyed. */
  readonly key: string;
  readonly topic: string;
  readonly partition: number;
  readonly leader: string;
  readonly internal: boolean;
  readonly logStartOffset: number;
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  readonly logEndOffset: number;
  /** Record offsets, ascending. */
  readonly offsets: Float64Array;
  /** CellKind per record, parallel to offsets. */
  readonly kinds: Uint8Array;
  readonly rows: readonly RecordRow[];
  readonly lod: Lod;
  readonly pointers: readonly LanePointer[];
  /** Count per CellKind. */
  readonly counts: readonly number[];
  /** Per record, how many data records of this lane share its event_id; null when none repeats. */
  readonly duplicates: Uint16Array | null;
  /**
   * Replicas, ISR, leader epoch and truncations when the partition has more than one replica
   * (drawn as one sub-lane per replica under the leader's log); null: one replica, drawn as before.
   */
  readonly replication: ReplicationRow | null;
}

const POINTER_ORDER: Record<PointerKind, number> = { position: 0, committed: 1, pending: 2 };

/** Consumer positions first, then group offsets, each by owner. */
export function sortPointers(pointers: readonly LanePointer[]): LanePointer[] {
  return [...pointers].sort(
    (a, b) => POINTER_ORDER[a.kind] - POINTER_ORDER[b.kind] || (a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0),
  );
}

export function buildLane(row: PartitionRow, pointers: readonly LanePointer[] = []): LaneModel {
  let rows = row.records;
  for (let i = 1; i < rows.length; i++) {
    if ((rows[i] as RecordRow).offset < (rows[i - 1] as RecordRow).offset) {
      rows = [...rows].sort((a, b) => a.offset - b.offset);
      break;
    }
  }
  const offsets = new Float64Array(rows.length);
  const kinds = new Uint8Array(rows.length);
  const counts = [0, 0, 0, 0, 0, 0];
  rows.forEach((r, i) => {
    offsets[i] = r.offset;
    const k = cellKindOf(r);
    kinds[i] = k;
    counts[k] = (counts[k] ?? 0) + 1;
  });
  return {
    key: keyOf(row),
    topic: row.topic,
    partition: row.partition,
    leader: row.leader,
    internal: row.internal,
    logStartOffset: row.logStartOffset,
    highWatermark: row.highWatermark,
    lastStableOffset: row.lastStableOffset,
    logEndOffset: row.logEndOffset,
    offsets,
    kinds,
    rows,
    lod: buildLod(kinds),
    pointers: sortPointers(pointers),
    counts,
    duplicates: row.internal ? null : duplicateCounts(rows),
    replication: row.replication ?? null,
  };
}

export function buildLanes(rows: readonly PartitionRow[], pointers: ReadonlyMap<string, readonly LanePointer[]>): LaneModel[] {
  return rows.map((r) => buildLane(r, pointers.get(keyOf(r))));
}

type Actors = ReadonlyMap<string, { value: unknown; context: unknown }>;

interface ConsumerLike {
  readonly client?: unknown;
  readonly positions?: unknown;
}

interface GroupLike {
  readonly groupId?: unknown;
  readonly committed?: unknown;
  readonly pending?: unknown;
}

function numberEntries(x: unknown): [string, number][] {
  if (!x || typeof x !== 'object') return [];
  return Object.entries(x as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number' && e[1] >= 0);
}

/**
 * Pointers per lane key: every consumer client's position (actors "<client>.consumer") and every
 * group's committed offsets and TxnOffsetCommit offsets still pending on their transaction.
 */
export function collectPointers(actors: Actors): Map<string, LanePointer[]> {
  const out = new Map<string, LanePointer[]>();
  const add = (key: string, p: LanePointer) => {
    const list = out.get(key);
    if (list) list.push(p);
    else out.set(key, [p]);
  };
  for (const [id, snap] of actors) {
    if (!id.endsWith('.consumer')) continue;
    const ctx = snap.context as ConsumerLike;
    const owner = typeof ctx.client === 'string' ? ctx.client : id.slice(0, -'.consumer'.length);
    for (const [key, offset] of numberEntries(ctx.positions)) add(key, { kind: 'position', owner, offset });
  }
  // the fixed group-coordinator's groups, or each broker-hosted coordinator's (replicated __consumer_offsets)
  for (const [gid, g] of Object.entries(coordinatorGroups(actors) as Record<string, GroupLike>)) {
    const owner = typeof g.groupId === 'string' ? g.groupId : gid;
    for (const [key, offset] of numberEntries(g.committed)) add(key, { kind: 'committed', owner, offset });
    if (Array.isArray(g.pending))
      for (const p of g.pending as { offsets?: unknown }[])
        for (const [key, offset] of numberEntries(p.offsets)) add(key, { kind: 'pending', owner, offset });
  }
  return out;
}
