/**
 * A group's committed and pending transactional offsets (Kafka's OffsetMetadataManager): a plain
 * OffsetCommit is committed at once; a TxnOffsetCommit waits, under its producer id, for that
 * producer's marker. COMMIT materialises each pending offset only if it was written after the
 * offset already committed for its partition (replayEndTransactionMarker compares record offsets:
 * "We always keep the most recent committed offset when we have a mix of transactional and regular
 * offset commits"); ABORT drops them.
 *
 * The model stands in for record offsets with `offsetWrites`, a count of the group's offset writes:
 * all of a group's offset records go to its one `__consumer_offsets` partition in the order the
 * coordinator handles them, so the count orders them as their record offsets do.
 */
import type { TopicPartition } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import type { ConsumerGroup } from './classicGroup';

type Epochs = Readonly<Record<string, number>>;

/** An OffsetCommit's or TxnOffsetCommit's offsets by partition, and the committedLeaderEpochs among them. */
export function offsetsOf(offsets: readonly (TopicPartition & { offset: number; committedLeaderEpoch?: number })[]): {
  offsets: Record<string, number>;
  epochs: Record<string, number>;
} {
  const epochs: Record<string, number> = {};
  for (const o of offsets)
    if (o.committedLeaderEpoch !== undefined && o.committedLeaderEpoch >= 0) epochs[keyOf(o)] = o.committedLeaderEpoch;
  return { offsets: Object.fromEntries(offsets.map((o) => [keyOf(o), o.offset])), epochs };
}

/** An offset commit record's value in `__consumer_offsets` (OffsetCommitValue: offset, leaderEpoch): "5", or "5 leaderEpoch=2". */
export function offsetRecordValue(o: { readonly offset: number; readonly committedLeaderEpoch?: number }): string {
  return o.committedLeaderEpoch !== undefined && o.committedLeaderEpoch >= 0
    ? `${o.offset} leaderEpoch=${o.committedLeaderEpoch}`
    : String(o.offset);
}

/** The offset and leader epoch an offset commit record holds (offsetRecordValue). */
export function parseOffsetRecord(value: string): { offset: number; epoch: number | undefined } {
  const m = value.match(/^(-?\d+)(?: leaderEpoch=(\d+))?$/);
  return { offset: Number(m?.[1] ?? value), epoch: m?.[2] !== undefined ? Number(m[2]) : undefined };
}

/** The epochs of `offsets`' partitions replaced by those of `epochs` (an offset committed without one has none). */
function withEpochs(before: Epochs | undefined, offsets: Readonly<Record<string, number>>, epochs: Epochs): Epochs | undefined {
  if (!before && Object.keys(epochs).length === 0) return before;
  const next: Record<string, number> = { ...(before ?? {}) };
  for (const tp of Object.keys(offsets)) delete next[tp];
  return { ...next, ...epochs };
}

/** A plain OffsetCommit (or its record replayed): committed at once, written now. */
export function commitPlainOffsets(g: ConsumerGroup, offsets: Readonly<Record<string, number>>, epochs: Epochs = {}): ConsumerGroup {
  const at = g.offsetWrites;
  const committedAt = { ...g.committedAt };
  for (const tp of Object.keys(offsets)) committedAt[tp] = at;
  const committedEpochs = withEpochs(g.committedEpochs, offsets, epochs);
  return {
    ...g,
    committed: { ...g.committed, ...offsets },
    committedAt,
    offsetWrites: at + 1,
    ...(committedEpochs ? { committedEpochs } : {}),
  };
}

/** A TxnOffsetCommit (or its record replayed): pending under its producer id until the marker. */
export function addPendingTxnOffsets(
  g: ConsumerGroup,
  producerId: number,
  offsets: Readonly<Record<string, number>>,
  epochs: Epochs = {},
): ConsumerGroup {
  const at = g.offsetWrites;
  const mine = g.pending.find((p) => p.producerId === producerId);
  const others = g.pending.filter((p) => p !== mine);
  const writtenAt = { ...(mine?.writtenAt ?? {}) };
  for (const tp of Object.keys(offsets)) writtenAt[tp] = at;
  const pendingEpochs = withEpochs(mine?.epochs, offsets, epochs);
  const entry = {
    producerId,
    offsets: { ...(mine?.offsets ?? {}), ...offsets },
    writtenAt,
    ...(pendingEpochs ? { epochs: pendingEpochs } : {}),
  };
  return { ...g, pending: [...others, entry], offsetWrites: at + 1 };
}

/**
 * The producer's marker reached the group's partition (replayEndTransactionMarker). Returns the
 * group and the offsets COMMIT materialised, or null when the producer has no pending offsets here.
 */
export function completePendingTxnOffsets(
  g: ConsumerGroup,
  producerId: number,
  result: 'COMMIT' | 'ABORT',
): { group: ConsumerGroup; materialised: Record<string, number> } | null {
  const pending = g.pending.find((p) => p.producerId === producerId);
  if (!pending) return null;
  const rest = g.pending.filter((p) => p !== pending);
  const materialised: Record<string, number> = {};
  if (result === 'ABORT') return { group: { ...g, pending: rest }, materialised };
  const committed = { ...g.committed };
  const committedAt = { ...g.committedAt };
  for (const [tp, offset] of Object.entries(pending.offsets)) {
    const at = pending.writtenAt[tp] ?? -1;
    const existing = committedAt[tp];
    if (existing !== undefined && at <= existing) continue;
    committed[tp] = offset;
    committedAt[tp] = at;
    materialised[tp] = offset;
  }
  const epochs = Object.fromEntries(Object.entries(pending.epochs ?? {}).filter(([tp]) => materialised[tp] !== undefined));
  const committedEpochs = withEpochs(g.committedEpochs, materialised, epochs);
  return { group: { ...g, committed, committedAt, pending: rest, ...(committedEpochs ? { committedEpochs } : {}) }, materialised };
}
