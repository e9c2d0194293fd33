/**
 * The log operations replication adds (UnifiedLog): a leader's epoch start, a follower's append of
 * the leader's batches, truncation when a replica follows a new leader, and the high watermark a
 * replication layer sets. Pure functions over PartitionLog.
 */
import type { BatchLog } from './batchLog';
import { assignEpoch, type EpochEntry, endOffsetFor, latestEpoch, truncateEpochsFromEnd } from './leaderEpochCache';
import {
  appendBatchAsIs,
  applyControlBatch,
  applyDataBatch,
  batchBytes,
  dropReplicatedTxns,
  type PartitionLog,
  type Segment,
  withUnreplicatedTxns,
} from './partitionLog';
import { forgotten, rebuildProducerState } from './producerSnapshot';
import type { ProducerStateEntry } from './producerStateEntry';
import type { RecordBatch } from './recordBatch';

/** Makes a log replicated (an empty leader epoch cache): its HW no longer follows its LEO by itself. */
export function asReplicatedLog(log: PartitionLog): PartitionLog {
  return log.epochs !== undefined ? log : { ...log, epochs: [] };
}

/** UnifiedLog.maybeAssignEpochStartOffset: a new leader's epoch starts at its log end offset. */
export function assignEpochStartOffset(log: PartitionLog, leaderEpoch: number): PartitionLog {
  const epochs = assignEpoch(log.epochs ?? [], leaderEpoch, log.logEndOffset);
  return epochs === log.epochs ? log : { ...log, epochs };
}

/** The latest epoch in the log (lastFetchedEpoch of a follower's Fetch), −1 for none. */
export function lastFetchedEpoch(log: PartitionLog): number {
  return latestEpoch(log.epochs ?? []) ?? -1;
}

/** UnifiedLog.endOffsetForEpoch over this log's cache and LEO. */
export function logEndOffsetForEpoch(log: PartitionLog, epoch: number): { epoch: number; endOffset: number } {
  return endOffsetFor(log.epochs ?? [], epoch, log.logEndOffset);
}

/**
 * UnifiedLog.appendAsFollower (origin REPLICATION): the leader's batches as they are — its offsets
 * and leader epochs — with the epoch cache updated from them and the producer state updated
 * without sequence or epoch checks. A batch that does not start at the LEO is skipped (the
 * fetcher asked from the LEO; an overlapping answer after a retry carries nothing new).
 */
export function appendAsFollower(log: PartitionLog, batches: readonly RecordBatch[]): PartitionLog {
  let next = asReplicatedLog(log);
  for (const b of batches) {
    if (b.baseOffset !== next.logEndOffset) continue;
    if (b.partitionLeaderEpoch !== undefined)
      next = { ...next, epochs: assignEpoch(next.epochs ?? [], b.partitionLeaderEpoch, b.baseOffset) };
    next = appendBatchAsIs(next, b);
    next = b.isControl ? applyControlBatch(next, b) : applyDataBatch(next, b);
  }
  return next;
}

/** Sets the high watermark, never above the LEO (UnifiedLog.updateHighWatermark). */
export function withHighWatermark(log: PartitionLog, highWatermark: number): PartitionLog {
  const hw = Math.max(log.logStartOffset, Math.min(highWatermark, log.logEndOffset));
  return hw === log.highWatermark ? log : dropReplicatedTxns({ ...log, highWatermark: hw });
}

/** The batches a truncation to `offset` removes, oldest first. */
export function batchesFrom(log: PartitionLog, offset: number): RecordBatch[] {
  const out: RecordBatch[] = [];
  for (let i = log.batches.indexAtOrAfter(offset); i < log.batches.length; i++) out.push(log.batches.at(i) as RecordBatch);
  return out;
}

/**
 * LocalLog.truncateTo: the segments whose base offset is past the new end go
 * (`segment.baseOffset() > targetOffset`), and the last one left — now the active segment — is cut
 * at the end (LogSegment.truncateTo), so it keeps its base offset even when nothing of it is left,
 * and its size is what it still holds.
 */
function truncatedSegments(segments: readonly Segment[], kept: BatchLog, end: number): Segment[] {
  const left = segments.filter((s, i) => i === 0 || s.baseOffset <= end);
  const active = left[left.length - 1] as Segment;
  let bytes = 0;
  for (let i = kept.indexAtOrAfter(active.baseOffset); i < kept.length; i++) bytes += batchBytes(kept.at(i) as RecordBatch);
  return bytes === active.bytes ? left : [...left.slice(0, -1), { ...active, bytes }];
}

/** What a truncation's reload forgot against a replay of the whole log left (a snapshot's expiry filter, its one batch per producer). */
export interface TruncationReload {
  readonly snapshotOffset: number | null;
  readonly replayedFrom: number;
  readonly dropped: readonly ProducerStateEntry[];
  readonly fewerBatches: readonly ProducerStateEntry[];
}

/**
 * UnifiedLog.truncateTo(targetOffset): removes every batch from the one holding `offset` on,
 * truncates the epoch cache (truncateFromEnd), rebuilds the producer state (rebuildProducerState →
 * truncateAndReload: the snapshots past the new end deleted, the latest left loaded without the
 * producers idle for `expirationMs` at `now`, the batches after it replayed, a snapshot at the end;
 * log/producerSnapshot.ts), drops aborted-transaction entries past the end, and lowers the HW to the
 * new LEO if it was above. At or past the LEO only the epoch cache is truncated (at the LEO).
 */
export function truncateTo(log: PartitionLog, offset: number, now = 0, expirationMs = Number.POSITIVE_INFINITY): PartitionLog {
  return truncateReloading(log, offset, now, expirationMs).log;
}

/** truncateTo, and what its reload forgot (null: nothing was cut). */
export function truncateReloading(
  log: PartitionLog,
  offset: number,
  now: number,
  expirationMs: number,
): { log: PartitionLog; reload: TruncationReload | null } {
  if (offset >= log.logEndOffset) {
    // nothing to cut, but UnifiedLog.truncateTo truncates the epoch cache at the log end all the
    // same: a broker that led an epoch and appended nothing in it keeps that epoch's entry, and
    // would send it as lastFetchedEpoch to the next leader, which would answer DivergingEpoch forever
    const epochs = truncateEpochsFromEnd(log.epochs ?? [], log.logEndOffset);
    return { log: epochs.length === (log.epochs ?? []).length ? log : { ...log, epochs }, reload: null };
  }
  const keep = log.batches.indexAtOrAfter(offset);
  const batches = log.batches.take(keep);
  const end = Math.max(log.logStartOffset, batches.length > 0 ? batches.lastOffsetAt(batches.length - 1) + 1 : log.logStartOffset);
  const epochs: readonly EpochEntry[] = truncateEpochsFromEnd(log.epochs ?? [], end);
  const segments = truncatedSegments(log.segments, batches, end);
  const aborted = log.abortedTxns.take(log.abortedTxns.lowerBound((a) => a.lastOffset >= end));
  // the producer state, unreplicated transactions included, is rebuilt by the replay below
  const cleared: PartitionLog = {
    ...withUnreplicatedTxns(log, []),
    batches,
    logEndOffset: end,
    highWatermark: Math.min(log.highWatermark, end),
    epochs,
    segments,
    producers: new Map(),
    verificationStates: new Map(),
    abortedTxns: aborted,
    cleanerCheckpoint: Math.min(log.cleanerCheckpoint, end),
  };
  // UnifiedLog.rebuildProducerState: `isEmptyBeforeTruncation` — no producer and no unreplicated
  // transaction before — loads the snapshot but replays nothing
  const replay = log.producers.size > 0 || (log.unreplicatedTxns ?? []).length > 0;
  const r = rebuildProducerState(cleared, log.producerSnapshots ?? [], now, expirationMs, replay);
  // from the log start the replay is the whole log: nothing forgotten; from a snapshot, compare with it
  const whole = r.snapshotOffset === null && replay ? r.log : rebuildProducerState(cleared, [], now, expirationMs).log;
  return {
    log: r.log,
    reload: { snapshotOffset: r.snapshotOffset, replayedFrom: r.replayedFrom, ...forgotten(whole.producers, r.log.producers) },
  };
}
