/**
 * The log cleaner (compaction) for topics with cleanup.policy=compact (Kafka's LogCleaner).
 *
 * - It only cleans below min(LSO, base offset of the active segment): open transactions and the
 *   segment being written are never touched.
 * - The latest value per key survives; older ones are removed. Offsets never change: survivors keep
 *   their offsets and a consumer simply sees gaps.
 * - A tombstone (null value) removes the key's older values. The first cleaning that keeps it stamps
 *   its batch with a delete horizon, that cleaning's time + delete.retention.ms (KIP-534,
 *   MemoryRecords.filterTo); a later cleaning removes it once the horizon has passed
 *   (LogCleaner.shouldRetainRecord).
 * - Records of aborted transactions are removed. A transaction marker goes like a tombstone once its
 *   transaction has left nothing (CleanedTransactionMetadata, cleanedTxns.ts): the first cleaning
 *   that finds no batch of its transaction stamps it with a delete horizon, and a cleaning at or
 *   after the horizon removes it. An ABORT marker whose aborted records were still there in a pass
 *   stays, and only such markers keep their aborted-transaction index entry (cleanedIndex).
 * - A batch whose records all go is dropped, except two that stay as an empty batch, their header
 *   only (LogCleaner's checkBatchRetention → BatchRetention.RETAIN_EMPTY, MemoryRecords.filterTo
 *   writing an empty header): an active producer's last batch — its last data batch, whose producer
 *   id, epoch and last sequence a broker rebuilding its producer state from the log needs (so a retry
 *   of it is still a duplicate, and the next sequence still in order), or, when it has no data batch
 *   cached, a marker of its current epoch (which carries that epoch, for fencing); and the last batch
 *   of the cleaning round, which keeps the cleaned part's last offset.
 * Simplification: cleaning runs when asked (a user action or a scheduled fault), not by
 * min.cleanable.dirty.ratio; min.compaction.lag.ms is not modelled (Kafka's default 0 bounds nothing).
 */
import { AppendLog } from './appendLog';
import { BatchLog } from './batchLog';
import { CleanedTransactions } from './cleanedTxns';
import { lastStableOffset, type PartitionLog, type Segment } from './partitionLog';
import type { LogRecord, RecordBatch } from './recordBatch';
import type { AbortedTxn } from './transactionIndex';

export interface CleanResult {
  readonly log: PartitionLog;
  /** Data records removed (superseded, aborted, tombstones past their horizon). */
  readonly removed: number;
  /** Of those, records of aborted transactions (never readable by read_committed). */
  readonly abortedRemoved: number;
  /** Of those, tombstones whose delete horizon had passed. */
  readonly tombstonesRemoved: number;
  /** Transaction markers removed (their transaction left nothing, their horizon has passed). */
  readonly markersRemoved: number;
  /** Offsets below this were eligible for cleaning. */
  readonly cleanableUpTo: number;
}

/**
 * The batches kept as an empty header when their records all go (LogCleaner.checkBatchRetention):
 * an active producer's last record (UnifiedLog.lastRecordsOfActiveProducers: with a last data offset,
 * ProducerStateEntry.lastDataOffset, the batch holding it; without one, a marker of the producer's
 * current epoch), and the batch ending the cleaning round (its next offset is the round's upper bound).
 */
function emptyBatchesToRetain(log: PartitionLog, upper: number): (b: RecordBatch) => boolean {
  const lastRecord = new Map<number, { lastDataOffset: number | null; producerEpoch: number }>();
  for (const [producerId, entry] of log.producers) {
    const last = entry.batches[entry.batches.length - 1];
    lastRecord.set(producerId, { lastDataOffset: last ? last.lastOffset : null, producerEpoch: entry.producerEpoch });
  }
  const lastOfProducer = (b: RecordBatch) => {
    const last = lastRecord.get(b.producerId);
    if (!last) return false;
    return last.lastDataOffset !== null ? b.lastOffset === last.lastDataOffset : b.isControl && b.producerEpoch === last.producerEpoch;
  };
  return (b) => (b.producerId >= 0 && lastOfProducer(b)) || b.lastOffset + 1 === upper;
}

/** A record whose key has a newer value in the cleaned range. */
function isSuperseded(r: LogRecord, latest: ReadonlyMap<string, number>): boolean {
  return r.key !== null && latest.get(r.key) !== r.offset;
}

/** A tombstone is kept until its batch's delete horizon, which the first cleaning that kept it set. */
function isExpiredTombstone(b: RecordBatch, r: LogRecord, now: number): boolean {
  return r.value === null && b.deleteHorizonMs !== undefined && now >= b.deleteHorizonMs;
}

/** What one batch becomes: kept as it is, rewritten, or dropped (null). */
function cleanBatch(
  b: RecordBatch,
  canDiscard: boolean,
  latest: ReadonlyMap<string, number>,
  retainEmpty: boolean,
  now: number,
  deleteRetentionMs: number,
): RecordBatch | null {
  // a marker's record goes only once its horizon has passed; an aborted batch's records at once
  const discardRecords = b.isControl ? canDiscard && b.deleteHorizonMs !== undefined && b.deleteHorizonMs <= now : canDiscard;
  let kept: readonly LogRecord[];
  if (discardRecords) kept = [];
  else if (b.isControl) kept = b.records;
  else kept = b.records.filter((r) => !isSuperseded(r, latest) && !isExpiredTombstone(b, r, now));
  if (kept.length === 0) return retainEmpty ? { ...b, records: [] } : null;
  // needToSetDeleteHorizon: a tombstone kept, or a marker whose transaction has left nothing
  const hasTombstone = !b.isControl && kept.some((r) => r.value === null);
  const setHorizon = b.deleteHorizonMs === undefined && (hasTombstone || (b.isControl && canDiscard));
  if (kept.length === b.records.length && !setHorizon) return b;
  return { ...b, records: kept, ...(setHorizon ? { deleteHorizonMs: now + deleteRetentionMs } : {}) };
}

/** The aborted-transaction index after a pass: entries past the cleaned range, and those the pass re-indexed. */
function cleanedIndex(log: PartitionLog, upper: number, reindexed: readonly AbortedTxn[]): AppendLog<AbortedTxn> {
  const old = log.abortedTxns.toArray();
  const next = [...reindexed, ...old.filter((t) => t.lastOffset >= upper)].sort((a, b) => a.lastOffset - b.lastOffset);
  return next.length === old.length && next.every((t, i) => t === old[i]) ? log.abortedTxns : AppendLog.of(next);
}

export function cleanLog(log: PartitionLog, now: number): CleanResult {
  const active = log.segments[log.segments.length - 1] as Segment;
  const upper = Math.min(lastStableOffset(log), active.baseOffset);
  if (upper <= log.logStartOffset)
    return { log, removed: 0, abortedRemoved: 0, tombstonesRemoved: 0, markersRemoved: 0, cleanableUpTo: upper };
  // latest offset of each key within the cleanable range (buildOffsetMap: aborted batches and markers add nothing)
  const latest = new Map<string, number>();
  const mapWalk = new CleanedTransactions(log.abortedTxns, upper);
  for (const b of log.batches) {
    if (b.baseOffset >= upper) break;
    if (mapWalk.onBatchRead(b) || b.isControl) continue;
    for (const r of b.records) if (r.key !== null && r.offset < upper) latest.set(r.key, r.offset);
  }
  const retainEmpty = emptyBatchesToRetain(log, upper);
  const walk = new CleanedTransactions(log.abortedTxns, upper);
  let removed = 0;
  let abortedRemoved = 0;
  let tombstonesRemoved = 0;
  let markersRemoved = 0;
  let changed = false;
  const batches: RecordBatch[] = [];
  for (const b of log.batches) {
    if (b.baseOffset >= upper) {
      batches.push(b);
      continue;
    }
    const canDiscard = walk.onBatchRead(b);
    const next = cleanBatch(b, canDiscard, latest, retainEmpty(b), now, log.topicConfig.deleteRetentionMs);
    const gone = b.records.length - (next?.records.length ?? 0);
    if (b.isControl) markersRemoved += gone;
    else removed += gone;
    // why they went, for the narration: an aborted batch's records, else expired tombstones and superseded values
    if (!b.isControl && canDiscard) abortedRemoved += gone;
    else if (!b.isControl) for (const r of b.records) if (!isSuperseded(r, latest) && isExpiredTombstone(b, r, now)) tombstonesRemoved += 1;
    if (next !== b) changed = true;
    if (next) batches.push(next);
  }
  const abortedTxns = cleanedIndex(log, upper, walk.reindexed);
  const cleanerCheckpoint = Math.max(log.cleanerCheckpoint, upper);
  if (!changed && abortedTxns === log.abortedTxns)
    return { log: { ...log, cleanerCheckpoint }, removed, abortedRemoved, tombstonesRemoved, markersRemoved, cleanableUpTo: upper };
  return {
    log: { ...log, batches: changed ? BatchLog.of(batches, log.batches) : log.batches, abortedTxns, cleanerCheckpoint },
    removed,
    abortedRemoved,
    tombstonesRemoved,
    markersRemoved,
    cleanableUpTo: upper,
  };
}
