/**
 * InitProducerId on the transaction coordinator (TransactionCoordinator.handleInitProducerId /
 * prepareInitProducerIdTransit, TransactionMetadata.prepareIncrementProducerEpoch and
 * prepareFenceProducerEpoch): a new instance bumps the epoch and clears the last epoch; a producer
 * bumping its own epoch after an error (KIP-360, protocol v1) names its producer id and epoch, and is
 * fenced if another instance or a timeout got there first.
 */
import { describe, expect, it } from 'vitest';
import type { TxnCoordinatorContext } from '../../src/sim/coordinator/transactionCoordinator.machine';
import { incrementProducerEpoch, transactionCoordinatorMachine } from '../../src/sim/coordinator/transactionCoordinator.machine';
import { decodeTxnRecord, encodeTxnRecord } from '../../src/sim/coordinator/transactionMetadata';
import type { Effect } from '../../src/sim/kernel/effects';
import { validateScenario } from '../../src/sim/scenario/validate';
import { drive, inputOf } from '../machines/harness';
import { markersAcked, replyOf, txnRequest, txnScenario } from './txnRequests';

const request = txnRequest;
const scenario = (protocol: 1 | 2) => txnScenario(protocol);
const init = (producerId = -1, producerEpoch = -1) =>
  request('InitProducerId', { transactionalId: 'tx', transactionTimeoutMs: 60000, producerId, producerEpoch });
/** Producer 1000 (epoch 0) adds t-0 to its transaction: it becomes Ongoing. */
const addT0 = () =>
  request('AddPartitionsToTxn', { producerId: 1000, producerEpoch: 0, partitions: [{ topic: 't', partition: 0 }], verifyOnly: false });
const answer = (fx: readonly Effect[]) =>
  replyOf<{ error: string; producerId: number; producerEpoch: number }>(fx, 'InitProducerIdResponse');

function coordinator(protocol: 1 | 2 = 1) {
  const m = drive(transactionCoordinatorMachine, inputOf(scenario(protocol), 'txn-coordinator'));
  m.send(init(), 1); // producer 1000, epoch 0
  return { m, txn: () => m.context<TxnCoordinatorContext>().txns.tx };
}

describe('prepareIncrementProducerEpoch (incrementProducerEpoch)', () => {
  it('without an expected epoch: epoch+1 and the last epoch −1 (a new instance)', () => {
    expect(incrementProducerEpoch({ producerEpoch: 4, lastProducerEpoch: 3 }, null)).toEqual({ producerEpoch: 5, lastProducerEpoch: -1 });
    expect(incrementProducerEpoch({ producerEpoch: -1, lastProducerEpoch: -1 }, null)).toEqual({ producerEpoch: 0, lastProducerEpoch: -1 });
  });
  it('the current epoch expected: epoch+1, the old one becomes the last epoch', () => {
    expect(incrementProducerEpoch({ producerEpoch: 4, lastProducerEpoch: -1 }, 4)).toEqual({ producerEpoch: 5, lastProducerEpoch: 4 });
  });
  it('the last epoch expected: a retry whose answer was lost gets the current epoch, not a second bump', () => {
    expect(incrementProducerEpoch({ producerEpoch: 5, lastProducerEpoch: 4 }, 4)).toEqual({ producerEpoch: 5, lastProducerEpoch: 4 });
  });
  it('any other epoch: fenced (null → PRODUCER_FENCED)', () => {
    expect(incrementProducerEpoch({ producerEpoch: 5, lastProducerEpoch: -1 }, 4)).toBeNull();
    expect(incrementProducerEpoch({ producerEpoch: 5, lastProducerEpoch: 4 }, 3)).toBeNull();
  });
});

describe('the last producer epoch is not in __transaction_state (TransactionLogValue)', () => {
  it('a record read back has lastProducerEpoch −1 (TransactionLog.readTxnRecordValue)', () => {
    const m = {
      transactionalId: 'tx',
      producerId: 1000,
      producerEpoch: 5,
      lastProducerEpoch: 4,
      txnTimeoutMs: 60000,
      state: 'Empty' as const,
      partitions: [],
      txnStartTimestamp: -1,
      txnLastUpdateTimestamp: 9,
    };
    expect(encodeTxnRecord(m)).not.toContain('lastProducerEpoch');
    expect(decodeTxnRecord('tx', encodeTxnRecord(m))).toEqual({ ...m, lastProducerEpoch: -1 });
  });

  it("a producer's own bump retried after the coordinator restarted and loaded its log is PRODUCER_FENCED", () => {
    const { m, txn } = coordinator();
    expect(answer(m.send(init(1000, 0), 2))).toMatchObject({ error: 'NONE', producerEpoch: 1 });
    // the answer was lost; the coordinator crashes, restarts and loads __transaction_state
    m.send({ type: 'crash' }, 3);
    m.send({ type: 'restart' }, 4);
    m.send({ type: 'loaded', key: 'load', data: {} }, 5);
    expect(txn()).toMatchObject({ producerEpoch: 1, lastProducerEpoch: -1 });
    // the same request again: neither the current epoch (1) nor a known last epoch
    expect(answer(m.send(init(1000, 0), 6))).toMatchObject({ error: 'PRODUCER_FENCED' });
  });
});

describe('InitProducerId with an expected producer id and epoch (KIP-360)', () => {
  it("the producer's own bump: epoch+1, and the same request again returns that epoch without a second bump", () => {
    const { m, txn } = coordinator();
    expect(answer(m.send(init(1000, 0), 2))).toMatchObject({ error: 'NONE', producerId: 1000, producerEpoch: 1 });
    expect(txn()).toMatchObject({ producerEpoch: 1, lastProducerEpoch: 0 });
    expect(answer(m.send(init(1000, 0), 3))).toMatchObject({ error: 'NONE', producerId: 1000, producerEpoch: 1 });
    expect(txn()).toMatchObject({ producerEpoch: 1, lastProducerEpoch: 0 });
  });

  it("after a new instance bumped the epoch, the old instance's bump is PRODUCER_FENCED and changes nothing", () => {
    const { m, txn } = coordinator();
    expect(answer(m.send(init(), 2))).toMatchObject({ error: 'NONE', producerEpoch: 1 });
    expect(txn()).toMatchObject({ producerEpoch: 1, lastProducerEpoch: -1 });
    expect(answer(m.send(init(1000, 0), 3))).toMatchObject({ error: 'PRODUCER_FENCED' });
    expect(txn()).toMatchObject({ state: 'Empty', producerEpoch: 1, lastProducerEpoch: -1 });
  });

  it('a request naming another producer id is PRODUCER_FENCED', () => {
    const { m } = coordinator();
    expect(answer(m.send(init(999, 0), 2))).toMatchObject({ error: 'PRODUCER_FENCED' });
  });

  it("protocol v1: after a timeout fenced and aborted the transaction, the old epoch's bump is PRODUCER_FENCED", () => {
    const { m, txn } = coordinator(1);
    m.send(addT0(), 2);
    // a newer instance fences the Ongoing transaction (as the timeout does): PrepareEpochFence → PrepareAbort
    const fence = m.send(init(), 3);
    expect(txn()).toMatchObject({ state: 'PrepareAbort', producerEpoch: 1, lastProducerEpoch: -1 });
    // while the markers are out, any InitProducerId waits: CONCURRENT_TRANSACTIONS
    expect(answer(m.send(init(1000, 0), 4))).toMatchObject({ error: 'CONCURRENT_TRANSACTIONS' });
    m.send(markersAcked(fence), 5);
    expect(txn()).toMatchObject({ state: 'CompleteAbort', producerEpoch: 1 });
    expect(answer(m.send(init(1000, 0), 6))).toMatchObject({ error: 'PRODUCER_FENCED' });
    expect(txn()).toMatchObject({ state: 'CompleteAbort', producerEpoch: 1 });
  });

  it('while markers are out (PrepareX), a request naming another producer id is CONCURRENT_TRANSACTIONS: the transition in progress is checked first', () => {
    const { m, txn } = coordinator(1);
    m.send(addT0(), 2);
    m.send(init(), 3);
    expect(txn()?.state).toBe('PrepareAbort');
    expect(answer(m.send(init(999, 0), 4))).toMatchObject({ error: 'CONCURRENT_TRANSACTIONS' });
  });

  it('a new epoch starts no transaction: txnStartTimestamp is −1 in the Empty record (prepareIncrementProducerEpoch)', () => {
    const { m, txn } = coordinator(1);
    m.send(addT0(), 2);
    expect(txn()?.txnStartTimestamp).toBe(2);
    const fence = m.send(init(), 3);
    m.send(markersAcked(fence), 5);
    expect(answer(m.send(init(), 6))).toMatchObject({ error: 'NONE' });
    expect(txn()).toMatchObject({ state: 'Empty', txnStartTimestamp: -1 });
  });

  it("protocol v2: the fence records the old epoch as the last (the abort's bump, prepareAbortOrCommit)", () => {
    const { m, txn } = coordinator(2);
    m.send(addT0(), 2);
    m.send(init(), 3);
    expect(txn()).toMatchObject({ state: 'PrepareAbort', producerEpoch: 1, lastProducerEpoch: 0 });
  });
});

describe('the transaction timeout (TransactionStateManager.validateTransactionTimeoutMs: 0 < timeout ≤ transaction.max.timeout.ms)', () => {
  const withTimeout = (transactionTimeoutMs: number) =>
    request('InitProducerId', { transactionalId: 'tx2', transactionTimeoutMs, producerId: -1, producerEpoch: -1 });

  it('0, a negative value or one above the cluster maximum is INVALID_TRANSACTION_TIMEOUT; the bounds themselves are accepted', () => {
    const { m } = coordinator();
    for (const bad of [0, -5, 900001]) expect(answer(m.send(withTimeout(bad), 2))?.error).toBe('INVALID_TRANSACTION_TIMEOUT');
    expect(m.context<TxnCoordinatorContext>().txns.tx2).toBeUndefined();
    expect(answer(m.send(withTimeout(900000), 3))?.error).toBe('NONE');
  });

  it('the producer puts no bound on it: a timeout above 900000 is a valid scenario, for a cluster that allows it', () => {
    const scenario = (cluster: Record<string, unknown>) => ({
      version: 1,
      seed: 1,
      cluster,
      topics: [{ name: 'orders' }],
      clients: [{ id: 'svc', type: 'producer', config: { 'transactional.id': 'svc-1', 'transaction.timeout.ms': 1800000 }, script: [] }],
    });
    expect(validateScenario(scenario({ 'transaction.max.timeout.ms': 3600000 })).ok).toBe(true);
    expect(validateScenario(scenario({})).ok).toBe(true);
  });
});

describe('while the coordinator loads its log', () => {
  it("an idempotent producer's InitProducerId (no transactional.id) is answered at once: it needs no transaction log", () => {
    const m = drive(transactionCoordinatorMachine, inputOf(scenario(1), 'txn-coordinator'));
    m.send({ type: 'crash' }, 1);
    m.send({ type: 'restart' }, 2);
    const idempotent = request('InitProducerId', { transactionalId: null, transactionTimeoutMs: 60000, producerId: -1, producerEpoch: -1 });
    expect(answer(m.send(idempotent, 3))).toMatchObject({ error: 'NONE', producerEpoch: 0 });
    expect(answer(m.send(init(), 4))).toMatchObject({ error: 'COORDINATOR_LOAD_IN_PROGRESS' });
  });
});
