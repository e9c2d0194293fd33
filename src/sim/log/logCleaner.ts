/**
 * The log cleaner (compaction) for topics with cleanup.policy=compact (Kafka's LogCleaner).
 *
 * - It only cleans below min(LSO, base offset of the active segment): open transactions and the
 *   segment being written are never touched.
 * - The latest value per key survives; older ones are removed. Offsets never change: survivors keep
 *   their offsets and a consumer simply sees gaps.
 * - A tombstone (null value) removes the key's older values; the tombstone itself is removed once it
 *   has been in the cleaned part for delete.retention.ms.
 * - Records of aborted transactions are removed.
 * Simplifications: markers are kept; cleaning runs when asked (a user action or a scheduled fault),
 * not by min.cleanable.dirty.ratio.
 */
import { AppendLog } from './appendLog';
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
  let removed = 0;
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
      const expiredTombstone =
        r.value === null && r.offset < log.cleanerCheckpoint && b.appendTime + log.topicConfig.deleteRetentionMs <= now;
      if (aborted || superseded || expiredTombstone) removed++;
      else kept.push(r);
    }
    if (kept.length === b.records.length) batches.push(b);
    else if (kept.length > 0) batches.push({ ...b, records: kept });
  }
  if (removed === 0) return { log: { ...log, cleanerCheckpoint: Math.max(log.cleanerCheckpoint, upper) }, removed, cleanableUpTo: upper };
  return {
    log: { ...log, batches: AppendLog.of(batches), cleanerCheckpoint: Math.max(log.cleanerCheckpoint, upper) },
    removed,
    cleanableUpTo: upper,
  };
}
