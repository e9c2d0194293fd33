/**
 * Builders for logs the cleaner works on (tests of cleanLog and of what a cleaned log shows): a
 * compacted partition whose segments roll after 100 ms, a one-record batch, a transaction marker.
 */
import { appendMarker, appendProducerBatch, createPartitionLog, type PartitionLog } from '../../src/sim/log/partitionLog';
import type { ControlType } from '../../src/sim/log/recordBatch';

export const RETENTION = 5000;

/** An empty compacted partition `state-0`: segment.ms 100, delete.retention.ms RETENTION. */
export function emptyLog(): PartitionLog {
  return createPartitionLog(
    'state',
    0,
    0,
    { segmentBytes: 1073741824, segmentMs: 100 },
    { cleanupPolicy: 'compact', deleteRetentionMs: RETENTION },
  );
}

/** A one-record batch key=value with CreateTime `now`, appended at `now` (transactional unless `txn` is false). */
export function data(
  log: PartitionLog,
  producerId: number,
  producerEpoch: number,
  seq: number,
  key: string,
  value: string,
  now: number,
  txn = true,
): PartitionLog {
  return appendProducerBatch(
    log,
    { producerId, producerEpoch, baseSequence: seq, isTransactional: txn, records: [{ key, value, headers: {}, timestamp: now }] },
    now,
  ).log;
}

/** A transaction marker of the producer, written at `now` (coordinator epoch 0). */
export function marker(log: PartitionLog, producerId: number, producerEpoch: number, controlType: ControlType, now: number): PartitionLog {
  return appendMarker(log, { producerId, producerEpoch, controlType, coordinatorEpoch: 0 }, now).log;
}
