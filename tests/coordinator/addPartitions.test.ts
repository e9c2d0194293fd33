/**
 * AddPartitionsToTxn on the transaction coordinator (TransactionCoordinator
 * .handleAddPartitionsToTransaction / handleVerifyPartitionsInTransaction, TransactionMetadata
 * .prepareAddPartitions, 4.0 line), checks in Kafka's order: a transition pending (in the model, a
 * transaction completing: KAFKA-18660 put it first), producer id, epoch, partitions already included;
 * and the verify-only variant's answer per partition.
 */
import { describe, expect, it } from 'vitest';
import type { TxnCoordinatorContext } from '../../src/sim/coordinator/transactionCoordinator.machine';
import { transactionCoordinatorMachine } from '../../src/sim/coordinator/transactionCoordinator.machine';
import type { Effect } from '../../src/sim/kernel/effects';
import { drive, inputOf } from '../machines/harness';
import { markersAcked, replyOf, txnRequest, txnScenario } from './txnRequests';

const request = txnRequest;
const scenario = txnScenario(1, 2);

const add = (partitions: number[], o: { producerId?: number; producerEpoch?: number; verifyOnly?: boolean } = {}) =>
  request('AddPartitionsToTxn', {
    producerId: o.producerId ?? 1000,
    producerEpoch: o.producerEpoch ?? 0,
    partitions: partitions.map((partition) => ({ topic: 't', partition })),
    verifyOnly: o.verifyOnly ?? false,
  });
const reply = (fx: readonly Effect[]) =>
  replyOf<{ error: string; partitions: { partition: number; error: string }[] }>(fx, 'AddPartitionsToTxnResponse');
const writes = (fx: readonly Effect[]) => fx.filter((e) => e.type === 'fact' && (e.fact as { kind: string }).kind === 'txnState').length;

function coordinator() {
  const m = drive(transactionCoordinatorMachine, inputOf(scenario, 'txn-coordinator'));
  m.send(request('InitProducerId', { transactionTimeoutMs: 60000, producerId: -1, producerEpoch: -1 }), 1);
  return { m, txn: () => m.context<TxnCoordinatorContext>().txns.tx };
}

describe('AddPartitionsToTxn', () => {
  it('another producer id → INVALID_PRODUCER_ID_MAPPING; another epoch → PRODUCER_FENCED; nothing written', () => {
    const { m, txn } = coordinator();
    const a = m.send(add([0], { producerId: 999 }), 2);
    expect(reply(a)?.error).toBe('INVALID_PRODUCER_ID_MAPPING');
    const b = m.send(add([0], { producerEpoch: 1 }), 3);
    expect(reply(b)?.error).toBe('PRODUCER_FENCED');
    expect(writes(a) + writes(b)).toBe(0);
    expect(txn()?.state).toBe('Empty');
  });

  it('Empty → Ongoing with txnStartTimestamp = now; a new partition later keeps it; one already included is NONE without a write', () => {
    const { m, txn } = coordinator();
    const first = m.send(add([0]), 5);
    expect(reply(first)?.error).toBe('NONE');
    expect(writes(first)).toBeGreaterThan(0);
    expect(txn()).toMatchObject({ state: 'Ongoing', partitions: ['t-0'], txnStartTimestamp: 5 });
    expect(reply(m.send(add([1]), 8))?.error).toBe('NONE');
    expect(txn()).toMatchObject({ partitions: ['t-0', 't-1'], txnStartTimestamp: 5 });
    const again = m.send(add([0, 1]), 9);
    expect(reply(again)?.error).toBe('NONE');
    expect(writes(again)).toBe(0);
  });

  it('while the transaction completes (PrepareCommit) → CONCURRENT_TRANSACTIONS', () => {
    const { m, txn } = coordinator();
    m.send(add([0]), 2);
    m.send(request('EndTxn', { producerId: 1000, producerEpoch: 0, committed: true }), 3);
    expect(txn()?.state).toBe('PrepareCommit');
    expect(reply(m.send(add([1]), 4))?.error).toBe('CONCURRENT_TRANSACTIONS');
  });

  it('the completion pending through PrepareX comes before the producer checks (KAFKA-18660, 4.0): another epoch or producer id is CONCURRENT_TRANSACTIONS too', () => {
    const { m, txn } = coordinator();
    m.send(add([0]), 2);
    const end = m.send(request('EndTxn', { producerId: 1000, producerEpoch: 0, committed: true }), 3);
    expect(txn()?.state).toBe('PrepareCommit');
    expect(reply(m.send(add([1], { producerEpoch: 1 }), 4))?.error).toBe('CONCURRENT_TRANSACTIONS');
    expect(reply(m.send(add([1], { producerId: 999 }), 5))?.error).toBe('CONCURRENT_TRANSACTIONS');
    // once CompleteCommit is written the producer checks answer again
    m.send(markersAcked(end), 6);
    expect(txn()?.state).toBe('CompleteCommit');
    expect(reply(m.send(add([1], { producerEpoch: 1 }), 7))?.error).toBe('PRODUCER_FENCED');
    expect(reply(m.send(add([1], { producerId: 999 }), 8))?.error).toBe('INVALID_PRODUCER_ID_MAPPING');
  });

  it('verify-only: NONE for a partition in the ongoing transaction, TRANSACTION_ABORTABLE for one that is not; nothing added', () => {
    const { m, txn } = coordinator();
    m.send(add([0]), 2);
    const r = reply(m.send(add([0, 1], { verifyOnly: true }), 3));
    expect(r?.partitions.map((p) => [p.partition, p.error])).toEqual([
      [0, 'NONE'],
      [1, 'TRANSACTION_ABORTABLE'],
    ]);
    expect(txn()?.partitions).toEqual(['t-0']);
  });
});

describe("a broker's AddPartitionsToTxn (v4+): several transactions, one answer", () => {
  const batch = (transactions: { transactionalId: string; producerEpoch: number; verifyOnly: boolean; partitions: number[] }[]) => ({
    ...request('AddPartitionsToTxn', {}),
    from: 'broker-0',
    payload: {
      correlationId: 42,
      transactions: transactions.map((t) => ({
        transactionalId: t.transactionalId,
        producerId: 1000,
        producerEpoch: t.producerEpoch,
        verifyOnly: t.verifyOnly,
        partitions: t.partitions.map((partition) => ({ topic: 't', partition })),
      })),
    },
  });
  type Batched = { error: string; resultsByTransaction: { transactionalId: string; partitions: { partition: number; error: string }[] }[] };
  const answers = (fx: readonly Effect[]) =>
    fx.flatMap((e) => (e.type === 'send' && e.rpc === 'AddPartitionsToTxnResponse' ? [e.payload as unknown as Batched] : []));

  it('each transaction is handled on its own (KafkaApis.handleAddPartitionsToTxnRequest) and answered in the one response', () => {
    const { m, txn } = coordinator();
    const fx = m.send(
      batch([
        { transactionalId: 'tx', producerEpoch: 0, verifyOnly: false, partitions: [0] },
        { transactionalId: 'tx', producerEpoch: 0, verifyOnly: true, partitions: [0, 1] },
        { transactionalId: 'unknown', producerEpoch: 0, verifyOnly: true, partitions: [1] },
      ]),
      2,
    );
    const all = answers(fx);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ correlationId: 42, error: 'NONE' });
    expect(all[0]?.resultsByTransaction.map((t) => [t.transactionalId, t.partitions.map((p) => [p.partition, p.error])])).toEqual([
      ['tx', [[0, 'NONE']]],
      [
        'tx',
        [
          [0, 'NONE'],
          [1, 'TRANSACTION_ABORTABLE'],
        ],
      ],
      ['unknown', [[1, 'INVALID_PRODUCER_ID_MAPPING']]],
    ]);
    expect(txn()).toMatchObject({ state: 'Ongoing', partitions: ['t-0'] });
    expect(m.context<TxnCoordinatorContext>().addPartitionsBatches).toBeUndefined();
  });
});
