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
import type { ConsumerGroup } from './classicGroup';

/** A plain OffsetCommit (or its record replayed): committed at once, written now. */
export function commitPlainOffsets(g: ConsumerGroup, offsets: Readonly<Record<string, number>>): ConsumerGroup {
  const at = g.offsetWrites;
  const committedAt = { ...g.committedAt };
  for (const tp of Object.keys(offsets)) committedAt[tp] = at;
  return { ...g, committed: { ...g.committed, ...offsets }, committedAt, offsetWrites: at + 1 };
}

/** A TxnOffsetCommit (or its record replayed): pending under its producer id until the marker. */
export function addPendingTxnOffsets(g: ConsumerGroup, producerId: number, offsets: Readonly<Record<string, number>>): ConsumerGroup {
  const at = g.offsetWrites;
  const mine = g.pending.find((p) => p.producerId === producerId);
  const others = g.pending.filter((p) => p !== mine);
  const writtenAt = { ...(mine?.writtenAt ?? {}) };
  for (const tp of Object.keys(offsets)) writtenAt[tp] = at;
  const entry = { producerId, offsets: { ...(mine?.offsets ?? {}), ...offsets }, writtenAt };
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
  return { group: { ...g, committed, committedAt, pending: rest }, materialised };
}
