/** The log cleaner's tombstone rule (KIP-534: LogCleaner.shouldRetainRecord, MemoryRecords.filterTo), tested on cleanLog directly. */
import { describe, expect, it } from 'vitest';
import { cleanLog } from '../src/sim/log/logCleaner';
import { appendProducerBatch, createPartitionLog, type PartitionLog } from '../src/sim/log/partitionLog';

const RETENTION = 5000;

/** A compacted partition: a=v1 at 0, the tombstone a=null at 10 (offset 1), then b=x at 500 in a new segment. */
function compactedLog(): PartitionLog {
  let log = createPartitionLog(
    'accounts',
    0,
    0,
    { segmentBytes: 1073741824, segmentMs: 100 },
    { cleanupPolicy: 'compact', deleteRetentionMs: RETENTION },
  );
  const put = (key: string, value: string | null, now: number) => {
    log = appendProducerBatch(
      log,
      {
        producerId: -1,
        producerEpoch: -1,
        baseSequence: -1,
        isTransactional: false,
        records: [{ key, value, headers: {}, timestamp: now }],
      },
      now,
    ).log;
  };
  put('a', 'v1', 0);
  put('a', null, 10);
  put('b', 'x', 500);
  return log;
}

const offsets = (log: PartitionLog) => [...log.batches].flatMap((b) => b.records.map((r) => r.offset));

describe('log cleaner: tombstones and the delete horizon', () => {
  it('the first cleaning that keeps a tombstone stamps its batch with now + delete.retention.ms', () => {
    const r = cleanLog(compactedLog(), 4600);
    expect(r.removed).toBe(1); // a=v1, superseded
    expect(offsets(r.log)).toEqual([1, 2]);
    expect([...r.log.batches][0]).toMatchObject({ deleteHorizonMs: 4600 + RETENTION });
  });

  it('a later cleaning keeps the tombstone until that horizon — not delete.retention.ms after it was appended', () => {
    const first = cleanLog(compactedLog(), 4600).log;
    const second = cleanLog(first, 5100);
    expect(second.removed).toBe(0);
    expect(offsets(second.log)).toEqual([1, 2]);
    // the horizon is not moved by later cleanings
    expect([...second.log.batches][0]?.deleteHorizonMs).toBe(9600);
    expect(offsets(cleanLog(second.log, 9599).log)).toEqual([1, 2]);
  });

  it('a cleaning at or after the horizon removes the tombstone; offsets of the survivors never change', () => {
    const first = cleanLog(compactedLog(), 4600).log;
    const r = cleanLog(first, 9600);
    expect(r.removed).toBe(1);
    expect(offsets(r.log)).toEqual([2]);
  });
});
