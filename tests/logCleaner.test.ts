/**
 * The log cleaner's rules, tested on cleanLog directly: tombstones (KIP-534: LogCleaner.shouldRetainRecord,
 * MemoryRecords.filterTo) and the batches kept empty (LogCleaner.checkBatchRetention's RETAIN_EMPTY).
 */
import { describe, expect, it } from 'vitest';
import { cleanLog } from '../src/sim/log/logCleaner';
import { appendProducerBatch, createPartitionLog, type PartitionLog } from '../src/sim/log/partitionLog';
import { lastSeq, type ProducerStateEntry } from '../src/sim/log/producerStateEntry';
import { truncateTo } from '../src/sim/log/replicaLog';

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
    expect(r.tombstonesRemoved).toBe(0);
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
    // what went, for the narration: a tombstone past its horizon, nothing superseded or aborted
    expect(r.tombstonesRemoved).toBe(1);
    expect(r.abortedRemoved).toBe(0);
    expect(offsets(r.log)).toEqual([2]);
  });
});

describe('log cleaner: which emptied batches stay as a header (RETAIN_EMPTY)', () => {
  /**
   * Producer 7 (idempotent) writes a=v1 at 0, sequence 0; a producer without an id then writes a=v2
   * at 1 and c=z at 2 at 10 and 20; d at 500 rolls a new segment. Cleaning supersedes a=v1: its batch
   * is producer 7's last data batch.
   */
  function idempotentThenPlain(): PartitionLog {
    let log = createPartitionLog(
      'accounts',
      0,
      0,
      { segmentBytes: 1073741824, segmentMs: 100 },
      { cleanupPolicy: 'compact', deleteRetentionMs: RETENTION },
    );
    const put = (producerId: number, key: string, now: number) => {
      log = appendProducerBatch(
        log,
        {
          producerId,
          producerEpoch: producerId >= 0 ? 0 : -1,
          baseSequence: producerId >= 0 ? 0 : -1,
          isTransactional: false,
          records: [{ key, value: `${key}@${now}`, headers: {}, timestamp: now }],
        },
        now,
      ).log;
    };
    put(7, 'a', 0);
    put(-1, 'a', 10);
    put(-1, 'c', 20);
    put(-1, 'd', 500);
    return log;
  }

  it("an active producer's last data batch loses its records but keeps its header: offsets, producer id, epoch, sequences", () => {
    const r = cleanLog(idempotentThenPlain(), 4600);
    expect(r.removed).toBe(1);
    expect(offsets(r.log)).toEqual([1, 2, 3]);
    const [first] = [...r.log.batches];
    expect(first).toMatchObject({
      baseOffset: 0,
      lastOffset: 0,
      producerId: 7,
      producerEpoch: 0,
      baseSequence: 0,
      lastSequence: 0,
      records: [],
    });
  });

  it('why: a producer state rebuilt from the cleaned log (a truncation replays it) still knows the last sequence, so a retry is a duplicate', () => {
    const cleaned = cleanLog(idempotentThenPlain(), 4600).log;
    const rebuilt = truncateTo(cleaned, 3);
    expect(lastSeq(rebuilt.producers.get(7) as ProducerStateEntry)).toBe(0);
    const retry = appendProducerBatch(
      rebuilt,
      {
        producerId: 7,
        producerEpoch: 0,
        baseSequence: 0,
        isTransactional: false,
        records: [{ key: 'a', value: 'a@0', headers: {}, timestamp: 0 }],
      },
      5000,
    );
    expect(retry.outcome.kind).toBe('duplicate');
  });

  it('a batch of a producer without an id is dropped once empty, unless it ends the cleaning round', () => {
    // a=v1 at 0 goes at the first cleaning; the tombstone at 1, the round's last batch, at the second
    const first = cleanLog(compactedLog(), 4600).log;
    expect([...first.batches].map((b) => b.baseOffset)).toEqual([1, 2]);
    const second = cleanLog(first, 9600).log;
    expect([...second.batches].map((b) => [b.baseOffset, b.records.length])).toEqual([
      [1, 0],
      [2, 1],
    ]);
  });
});
