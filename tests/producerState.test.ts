/** The broker's idempotence rules (ProducerStateEntry, ProducerAppendInfo), one test per rule. */
import { describe, expect, it } from 'vitest';
import {
  appendMarker,
  appendProducerBatch,
  createPartitionLog,
  type PartitionLog,
  startTransactionVerification,
} from '../src/sim/log/partitionLog';
import { checkProducerBatch, emptyEntry } from '../src/sim/log/producerStateEntry';
import type { ProducedBatch } from '../src/sim/log/recordBatch';
import { maybeUpdateLowestSequenceAndEpoch } from '../src/sim/log/verificationState';

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

function txnBatch(producerId: number, producerEpoch: number, baseSequence: number): ProducedBatch {
  return { ...batch(producerId, producerEpoch, baseSequence), isTransactional: true };
}

const verified = { verificationEnabled: true };

describe('broker producer state: sequences after a marker, and transaction verification (KIP-890)', () => {
  it('checkSequence: with the same epoch and no cached batch the next batch must start at 0; only an unknown producer (epoch −1) may start anywhere', () => {
    const afterMarker = { ...emptyEntry(1), producerEpoch: 1 };
    expect(checkProducerBatch(afterMarker, 1, 1)).toMatchObject({ ok: false, error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
    expect(checkProducerBatch(afterMarker, 1, 0)).toEqual({ ok: true });
    expect(checkProducerBatch(emptyEntry(1), 0, 42)).toEqual({ ok: true });
    expect(checkProducerBatch(undefined, 0, 42)).toEqual({ ok: true });
  });

  it('a protocol v2 marker moves the entry to the new epoch with no batch: the next transaction must start at sequence 0', () => {
    let log = appendAll(createPartitionLog('t', 0), [txnBatch(1, 0, 0)]);
    log = appendMarker(log, { producerId: 1, producerEpoch: 1, controlType: 'COMMIT', coordinatorEpoch: 0 }, 0).log;
    expect(appendProducerBatch(log, txnBatch(1, 1, 1), 0).outcome).toMatchObject({
      kind: 'rejected',
      error: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
    });
    expect(appendProducerBatch(log, txnBatch(1, 1, 0), 0).outcome.kind).toBe('appended');
  });

  it("checkCoordinatorEpoch: a marker from an older coordinator than the last one that wrote this producer's marker here is refused TRANSACTION_COORDINATOR_FENCED", () => {
    // transaction 1 committed by the coordinator of epoch 2 (after a failover); transaction 2 is open
    let log = appendAll(createPartitionLog('t', 0), [txnBatch(1, 0, 0)]);
    log = appendMarker(log, { producerId: 1, producerEpoch: 0, controlType: 'COMMIT', coordinatorEpoch: 2 }, 0).log;
    log = appendAll(log, [txnBatch(1, 0, 1)]);
    // the old coordinator's late COMMIT of transaction 1 would commit transaction 2 too: refused, nothing written
    const late = appendMarker(log, { producerId: 1, producerEpoch: 0, controlType: 'COMMIT', coordinatorEpoch: 1 }, 0);
    expect(late.outcome).toMatchObject({ kind: 'rejected', error: 'TRANSACTION_COORDINATOR_FENCED' });
    expect(late.log).toBe(log);
    // the same coordinator epoch, or a newer one, writes its marker
    expect(appendMarker(log, { producerId: 1, producerEpoch: 0, controlType: 'ABORT', coordinatorEpoch: 2 }, 0).outcome.kind).toBe(
      'appended',
    );
    expect(appendMarker(log, { producerId: 1, producerEpoch: 0, controlType: 'ABORT', coordinatorEpoch: 3 }, 0).outcome.kind).toBe(
      'appended',
    );
  });

  it('checkSequence: while a verification is outstanding, a batch above its lowest sequence is refused', () => {
    const verification = { guard: 1, lowestSequence: 0, epoch: 1, timestamp: 0 };
    expect(checkProducerBatch(undefined, 1, 1, verification)).toMatchObject({ ok: false, error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' });
    expect(checkProducerBatch(undefined, 1, 0, verification)).toEqual({ ok: true });
  });

  it('VerificationStateEntry.maybeUpdateLowestSequenceAndEpoch: a lower sequence of the epoch lowers the bound; a higher epoch replaces it', () => {
    const e = { guard: 3, lowestSequence: 4, epoch: 1, timestamp: 7 };
    expect(maybeUpdateLowestSequenceAndEpoch(e, 2, 1)).toEqual({ guard: 3, lowestSequence: 2, epoch: 1, timestamp: 7 });
    expect(maybeUpdateLowestSequenceAndEpoch(e, 6, 1)).toBe(e);
    expect(maybeUpdateLowestSequenceAndEpoch(e, 0, 2)).toEqual({ guard: 3, lowestSequence: 0, epoch: 2, timestamp: 7 });
    expect(maybeUpdateLowestSequenceAndEpoch(e, 0, 0)).toBe(e);
  });

  it('a later batch verified while an earlier one is still being verified cannot overtake it (the issue-11 B/C case)', () => {
    const start = createPartitionLog('t', 0);
    const b = startTransactionVerification(start, 1, 0, 1, 0); // B (seq 0): its verification answer is lost
    const c = startTransactionVerification(b.log, 1, 1, 1, 0); // C (seq 1) verified and answered
    expect(c.guard).toBe(b.guard);
    expect(appendProducerBatch(c.log, txnBatch(1, 1, 1), 0, { ...verified, verificationGuard: c.guard }).outcome).toMatchObject({
      kind: 'rejected',
      error: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
    });
    // B's retry is verified: B is appended and ends the verification; C then follows in order
    const bRetry = startTransactionVerification(c.log, 1, 0, 1, 0);
    const withB = appendProducerBatch(bRetry.log, txnBatch(1, 1, 0), 0, { ...verified, verificationGuard: bRetry.guard });
    expect(withB.outcome.kind).toBe('appended');
    expect(withB.log.verificationStates.size).toBe(0);
    expect(appendProducerBatch(withB.log, txnBatch(1, 1, 1), 0, verified).outcome.kind).toBe('appended');
  });

  it('a transactional batch that starts a transaction must carry the current verification guard (InvalidTxnStateException otherwise)', () => {
    const first = startTransactionVerification(createPartitionLog('t', 0), 1, 0, 0, 0);
    // the transaction ended (a marker) before the verified produce arrived: its guard is stale
    const ended = appendMarker(first.log, { producerId: 1, producerEpoch: 0, controlType: 'ABORT', coordinatorEpoch: 0 }, 0).log;
    expect(ended.verificationStates.size).toBe(0);
    expect(appendProducerBatch(ended, txnBatch(1, 0, 0), 0, { ...verified, verificationGuard: first.guard }).outcome).toMatchObject({
      kind: 'rejected',
      error: 'INVALID_TXN_STATE',
      reason: 'Record was not part of an ongoing transaction',
    });
    // with verification off (protocol v1 without transaction.partition.verification.enable) there is no guard to check
    expect(appendProducerBatch(ended, txnBatch(1, 0, 0), 0).outcome.kind).toBe('appended');
  });
});
