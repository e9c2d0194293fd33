/** The broker's idempotence rules (ProducerStateEntry, ProducerAppendInfo), one test per rule. */
import { describe, expect, it } from 'vitest';
import { appendProducerBatch, createPartitionLog, type PartitionLog } from '../src/sim/log/partitionLog';
import type { ProducedBatch } from '../src/sim/log/recordBatch';

function batch(producerId: number, producerEpoch: number, baseSequence: number, n = 1): ProducedBatch {
  return {
    producerId,
    producerEpoch,
    baseSequence,
    isTransactional: false,
    records: Array.from({ length: n }, (_, i) => ({ key: `k${baseSequence + i}`, value: 'v', headers: {}, timestamp: 0 })),
  };
}

function appendAll(log: PartitionLog, batches: ProducedBatch[]): PartitionLog {
  let l = log;
  for (const b of batches) {
    const r = appendProducerBatch(l, b, 0);
    expect(r.outcome.kind).toBe('appended');
    l = r.log;
  }
  return l;
}

describe('broker producer state', () => {
  it('a retried batch (same epoch, same sequence range) appends nothing and is answered with its original offset', () => {
    const log = appendAll(createPartitionLog('t', 0, 100), [batch(1, 0, 0, 2)]);
    const r = appendProducerBatch(log, batch(1, 0, 0, 2), 5);
    expect(r.outcome).toEqual({ kind: 'duplicate', baseOffset: 100, lastOffset: 101 });
    expect(r.log.logEndOffset).toBe(102);
  });

  it('remembers the last 5 batches: a retry of any of them is a duplicate', () => {
    const log = appendAll(
      createPartitionLog('t', 0),
      [0, 1, 2, 3, 4].map((s) => batch(1, 0, s)),
    );
    for (const s of [0, 1, 2, 3, 4]) expect(appendProducerBatch(log, batch(1, 0, s), 0).outcome.kind).toBe('duplicate');
  });

  it('a batch older than the 5 cached ones is not recognised as a duplicate (OUT_OF_ORDER_SEQUENCE_NUMBER)', () => {
    const log = appendAll(
      createPartitionLog('t', 0),
      [0, 1, 2, 3, 4, 5].map((s) => batch(1, 0, s)),
    );
    const r = appendProducerBatch(log, batch(1, 0, 0), 0);
    expect(r.outcome).toMatchObject({ kind: 'rejected', error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
  });

  it('a gap in the sequence is answered OUT_OF_ORDER_SEQUENCE_NUMBER', () => {
    const log = appendAll(createPartitionLog('t', 0), [batch(1, 0, 0)]);
    const r = appendProducerBatch(log, batch(1, 0, 2), 0);
    expect(r.outcome).toMatchObject({ kind: 'rejected', error: 'OUT_OF_ORDER_SEQUENCE_NUMBER', reason: 'expected sequence 1, got 2' });
    expect(r.log).toBe(log);
  });

  it('a stale epoch is answered INVALID_PRODUCER_EPOCH', () => {
    const log = appendAll(createPartitionLog('t', 0), [batch(1, 3, 0)]);
    expect(appendProducerBatch(log, batch(1, 2, 1), 0).outcome).toMatchObject({ kind: 'rejected', error: 'INVALID_PRODUCER_EPOCH' });
  });

  it('a higher epoch must start at sequence 0, and then clears the cached batches', () => {
    const log = appendAll(createPartitionLog('t', 0), [batch(1, 0, 0)]);
    expect(appendProducerBatch(log, batch(1, 1, 5), 0).outcome).toMatchObject({ error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
    const bumped = appendAll(log, [batch(1, 1, 0)]);
    expect(bumped.producers.get(1)?.batches).toHaveLength(1);
    // the old epoch's batch is no longer a duplicate: it is fenced
    expect(appendProducerBatch(bumped, batch(1, 0, 0), 0).outcome).toMatchObject({ error: 'INVALID_PRODUCER_EPOCH' });
  });

  it('a producer the broker knows nothing about may start at any sequence', () => {
    const r = appendProducerBatch(createPartitionLog('t', 0), batch(9, 0, 42), 0);
    expect(r.outcome.kind).toBe('appended');
  });

  it('batches without a producer id are appended without any check (idempotence off)', () => {
    const plain: ProducedBatch = { ...batch(-1, -1, -1), records: [{ key: 'a', value: 'x', headers: {}, timestamp: 0 }] };
    const log = appendAll(createPartitionLog('t', 0), [plain, plain]);
    expect(log.logEndOffset).toBe(2);
  });

  it('sequences are per producer: two producers do not interfere', () => {
    const log = appendAll(createPartitionLog('t', 0), [batch(1, 0, 0), batch(2, 0, 0), batch(1, 0, 1), batch(2, 0, 1)]);
    expect(log.logEndOffset).toBe(4);
  });

  it('offsets are dense and the high watermark follows the log end offset (one replica)', () => {
    const log = appendAll(createPartitionLog('t', 0, 100), [batch(1, 0, 0, 3), batch(1, 0, 3, 2)]);
    expect([...log.batches].map((b) => [b.baseOffset, b.lastOffset])).toEqual([
      [100, 102],
      [103, 104],
    ]);
    expect(log.highWatermark).toBe(105);
    expect(log.logEndOffset).toBe(105);
  });
});
