/**
 * producer.id.expiration.ms on the log (ProducerStateManager.isProducerExpired, removeExpiredProducers):
 * an entry with no transaction open whose lastTimestamp — the last batch's maxTimestamp (its records'
 * CreateTime) or the last marker's timestamp — is at least producer.id.expiration.ms old is dropped,
 * and a retry of a batch already in the log then meets no state and is appended again
 * (ProducerAppendInfo.checkSequence: a producer the broker knows nothing of may start anywhere).
 */
import { describe, expect, it } from 'vitest';
import {
  appendMarker,
  appendProducerBatch,
  createPartitionLog,
  type PartitionLog,
  startTransactionVerification,
} from '../../src/sim/log/partitionLog';
import { earliestProducerExpiry, removeExpiredProducers } from '../../src/sim/log/producerExpiration';
import { isProducerExpired } from '../../src/sim/log/producerStateEntry';

const batch = (producerId: number, baseSequence: number, timestamp: number, isTransactional = false) => ({
  producerId,
  producerEpoch: 0,
  baseSequence,
  isTransactional,
  records: [{ key: 'order-123', value: 'OrderCreated', headers: {}, timestamp }],
});

function append(log: PartitionLog, b: ReturnType<typeof batch>, now: number) {
  return appendProducerBatch(log, b, now);
}

describe('producer state expiration on the log', () => {
  it("keeps the last batch's CreateTime as lastTimestamp, not the append time", () => {
    const { log } = append(createPartitionLog('orders', 0), batch(1000, 0, 2), 8);
    expect(log.producers.get(1000)?.lastTimestamp).toBe(2);
  });

  it("a marker sets lastTimestamp to the marker's time and closes the transaction", () => {
    const open = append(createPartitionLog('orders', 0), batch(7, 0, 5, true), 6).log;
    expect(open.producers.get(7)?.currentTxnFirstOffset).toBe(0);
    const { log } = appendMarker(open, { producerId: 7, producerEpoch: 0, controlType: 'COMMIT', coordinatorEpoch: 0 }, 900);
    expect(log.producers.get(7)?.lastTimestamp).toBe(900);
    expect(log.producers.get(7)?.currentTxnFirstOffset).toBeNull();
  });

  it('expires an idle entry at exactly producer.id.expiration.ms (>=), not before', () => {
    const entry = append(createPartitionLog('orders', 0), batch(1000, 0, 2), 8).log.producers.get(1000);
    if (!entry) throw new Error('no entry');
    expect(isProducerExpired(entry, 10001, 10000)).toBe(false);
    expect(isProducerExpired(entry, 10002, 10000)).toBe(true);
  });

  it('never expires a producer with a transaction open on the partition', () => {
    const log = append(createPartitionLog('orders', 0), batch(7, 0, 5, true), 6).log;
    const entry = log.producers.get(7);
    if (!entry) throw new Error('no entry');
    expect(isProducerExpired(entry, 10_000_000, 10000)).toBe(false);
    expect(removeExpiredProducers(log, 10_000_000, 10000).expired).toEqual([]);
    expect(earliestProducerExpiry(log, 10000)).toBeNull();
  });

  it('drops only the expired producers, and says which', () => {
    let log = append(createPartitionLog('orders', 0), batch(1000, 0, 2), 8).log;
    log = append(log, batch(2000, 0, 9000), 9001).log;
    expect(earliestProducerExpiry(log, 10000)).toBe(10002);
    const r = removeExpiredProducers(log, 15000, 10000);
    expect(r.expired).toEqual([{ producerId: 1000, producerEpoch: 0, lastTimestamp: 2 }]);
    expect([...r.log.producers.keys()]).toEqual([2000]);
    expect(earliestProducerExpiry(r.log, 10000)).toBe(19000);
  });

  it('a retry of a batch in the log is recognised while the producer is remembered, and appended again once it is forgotten', () => {
    const first = append(createPartitionLog('orders', 0), batch(1000, 0, 2), 8).log;
    // remembered: the same producerId, epoch and sequence is answered with the original offset
    expect(append(first, batch(1000, 0, 2), 30108).outcome).toEqual({ kind: 'duplicate', baseOffset: 0, lastOffset: 0 });
    // forgotten at the check at 15 s: the same retry is a new batch at offset 1
    const forgotten = removeExpiredProducers(first, 15000, 10000).log;
    const retry = append(forgotten, batch(1000, 0, 2), 30108);
    expect(retry.outcome).toEqual({ kind: 'appended', baseOffset: 1, lastOffset: 1 });
    // and a later batch of that producer at any sequence too: nothing to continue from
    expect(append(forgotten, batch(1000, 7, 30000), 30108).outcome.kind).toBe('appended');
  });
});

describe('transaction verification entries expire with producer.id.expiration.ms', () => {
  const txn = (baseSequence: number) => ({ ...batch(1000, baseSequence, 5, true) });

  it('an entry keeps its creation time when a later Produce lowers its sequence (VerificationStateEntry.timestamp)', () => {
    const first = startTransactionVerification(createPartitionLog('payments', 0), 1000, 3, 0, 100);
    const lowered = startTransactionVerification(first.log, 1000, 1, 0, 4000);
    expect(lowered.log.verificationStates.get(1000)).toEqual({ guard: first.guard, lowestSequence: 1, epoch: 0, timestamp: 100 });
  });

  it('is dropped once at least producer.id.expiration.ms old (>=), counted from its creation, and says whose', () => {
    const { log } = startTransactionVerification(createPartitionLog('payments', 0), 1000, 0, 2, 100);
    expect(earliestProducerExpiry(log, 10000)).toBe(10100);
    const before = removeExpiredProducers(log, 10099, 10000);
    expect(before.verifications).toEqual([]);
    expect(before.log).toBe(log);
    const at = removeExpiredProducers(log, 10100, 10000);
    expect(at.expired).toEqual([]);
    expect(at.verifications).toEqual([{ producerId: 1000, producerEpoch: 2, createdAt: 100 }]);
    expect(at.log.verificationStates.size).toBe(0);
    expect(earliestProducerExpiry(at.log, 10000)).toBeNull();
  });

  it('a verified Produce whose entry expired meanwhile is refused INVALID_TXN_STATE; verifying again gives a new guard', () => {
    const started = startTransactionVerification(createPartitionLog('payments', 0), 1000, 0, 0, 5);
    const expired = removeExpiredProducers(started.log, 11000, 10000).log;
    const options = { verificationEnabled: true, verificationGuard: started.guard };
    expect(appendProducerBatch(expired, txn(0), 12007, options).outcome).toMatchObject({
      kind: 'rejected',
      error: 'INVALID_TXN_STATE',
      reason: 'Record was not part of an ongoing transaction',
    });
    // before the expiry the same Produce starts the transaction
    expect(appendProducerBatch(started.log, txn(0), 6, options).outcome.kind).toBe('appended');
    const again = startTransactionVerification(expired, 1000, 0, 0, 12010);
    expect(again.guard).not.toBe(started.guard);
    expect(appendProducerBatch(again.log, txn(0), 12012, { verificationEnabled: true, verificationGuard: again.guard }).outcome.kind).toBe(
      'appended',
    );
  });

  it('a producer and a verification entry due at the same run go together', () => {
    const written = append(createPartitionLog('payments', 0), batch(1000, 0, 2), 8).log;
    const { log } = startTransactionVerification(written, 2000, 0, 0, 50);
    const r = removeExpiredProducers(log, 10050, 10000);
    expect(r.expired.map((e) => e.producerId)).toEqual([1000]);
    expect(r.verifications.map((v) => v.producerId)).toEqual([2000]);
  });
});
