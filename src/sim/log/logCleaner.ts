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
 * - Records of aborted transactions are removed.
 * - A batch whose records all go is dropped, except two that stay as an empty batch, their header
 *   only (LogCleaner's checkBatchRetention → BatchRetention.RETAIN_EMPTY, MemoryRecords.filterTo
 *   writing an empty header): an active producer's last data batch, whose producer id, epoch and
 *   last sequence a broker rebuilding its producer state from the log needs (so a retry of it is
 *   still a duplicate, and the next sequence still in order); and the last batch of the cleaning
 *   round, which keeps the cleaned part's last offset.
 * Simplifications: markers are kept; cleaning runs when asked (a user action or a scheduled fault),
 * not by min.cleanable.dirty.ratio.
 */
import { BatchLog } from './batchLog';
import { lastStableOffset, type PartitionLog, type Segment } from './partitionLog';
import type { LogRecord, RecordBatch } from './recordBatch';

export interface CleanResult {
  readonly log: PartitionLog;
  readonly removed: number;
  /** Offsets below this were eligible for cleaning. */
  readonly cleanableUpTo: number;
}

function isAborted(log: PartitionLog, batch: RecordBatch): boolean {
  if (!batch.isTransactional || batch.isControl) return false;
  for (const t of log.abortedTxns)
    if (t.producerId === batch.producerId && t.firstOffset <= batch.baseOffset && batch.lastOffset < t.lastOffset) return true;
  return false;
}

/**
 * The batches kept as an empty header when their records all go (LogCleaner.checkBatchRetention):
 * the one holding an active producer's last data offset (UnifiedLog.lastRecordsOfActiveProducers:
 * ProducerStateEntry.lastDataOffset, the last cached batch's last offset), and the one ending the
 * cleaning round (its next offset is the round's upper bound).
 */
function emptyBatchesToRetain(log: PartitionLog, upper: number): (b: RecordBatch) => boolean {
  const lastDataOffset = new Map<number, number>();
  for (const [producerId, entry] of log.producers) {
    const last = entry.batches[entry.batches.length - 1];
    if (last) lastDataOffset.set(producerId, last.lastOffset);
  }
  return (b) => (b.producerId >= 0 && lastDataOffset.get(b.producerId) === b.lastOffset) || b.lastOffset + 1 === upper;
}

export function cleanLog(log: PartitionLog, now: number): CleanResult {
  const active = log.segments[log.segments.length - 1] as Segment;
  const upper = Math.min(lastStableOffset(log), active.baseOffset);
  if (upper <= log.logStartOffset) return { log, removed: 0, cleanableUpTo: upper };
  // latest offset of each key within the cleanable range
  const latest = new Map<string, number>();
  for (const b of log.batches) {
    if (b.baseOffset >= upper) break;
    if (b.isControl || isAborted(log, b)) continue;
    for (const r of b.records) if (r.key !== null && r.offset < upper) latest.set(r.key, r.offset);
  }
  const retainEmpty = emptyBatchesToRetain(log, upper);
  let removed = 0;
  let stamped = false;
  const batches: RecordBatch[] = [];
  for (const b of log.batches) {
    if (b.baseOffset >= upper || b.isControl) {
      batches.push(b);
      continue;
    }
    const aborted = isAborted(log, b);
    const kept: LogRecord[] = [];
    for (const r of b.records) {
      const superseded = r.key !== null && latest.get(r.key) !== r.offset;
      // a tombstone is kept until its batch's delete horizon, which the first cleaning that kept it set
      const expiredTombstone = r.value === null && b.deleteHorizonMs !== undefined && now >= b.deleteHorizonMs;
      if (aborted || superseded || expiredTombstone) removed++;
      else kept.push(r);
    }
    if (kept.length === 0) {
      if (retainEmpty(b)) batches.push({ ...b, records: [] });
      continue;
    }
    const setHorizon = b.deleteHorizonMs === undefined && kept.some((r) => r.value === null);
    if (setHorizon) stamped = true;
    if (kept.length === b.records.length && !setHorizon) batches.push(b);
    else batches.push({ ...b, records: kept, ...(setHorizon ? { deleteHorizonMs: now + log.topicConfig.deleteRetentionMs } : {}) });
  }
  if (removed === 0 && !stamped)
    return { log: { ...log, cleanerCheckpoint: Math.max(log.cleanerCheckpoint, upper) }, removed, cleanableUpTo: upper };
  return {
    log: { ...log, batches: BatchLog.of(batches, log.batches), cleanerCheckpoint: Math.max(log.cleanerCheckpoint, upper) },
    removed,
    cleanableUpTo: upper,
  };
}
