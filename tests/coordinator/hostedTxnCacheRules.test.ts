/**
 * Three rules of the transaction coordinator's cache and answers (TransactionCoordinator.scala,
 * TransactionStateManager.scala), each failing on the model before it followed them:
 * - a broker's verification (handleVerifyPartitionsInTransaction, "Pending state is not checked") reads
 *   the cache as it is, and with a write in flight Kafka's cache still holds the metadata from before it
 *   (completeTransitionTo applies the new one when the append completes);
 * - a successful write whose partition is loading again is answered getTransactionState's error,
 *   COORDINATOR_LOAD_IN_PROGRESS (appendTransactionToLog's updateCacheCallback), not NOT_COORDINATOR;
 * - an EndTxn error answer carries producer id and epoch −1 (endTransaction:
 *   `responseCallback(err, RecordBatch.NO_PRODUCER_ID, RecordBatch.NO_PRODUCER_EPOCH)`); only NONE carries the producer.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { serveRequest } from '../../src/sim/coordinator/hostedTxnCoordinator.machine';
import { DEFAULT_TXN_COORDINATOR_CONFIG, onAddPartitions, onEndTxn } from '../../src/sim/coordinator/transactionCoordinator.machine';
import type { TxnMetadata } from '../../src/sim/coordinator/transactionMetadata';
import type { HostedState, TxnCoordinatorContext } from '../../src/sim/coordinator/txnCoordinatorContext';
import { cacheErrorAfterWrite, onWriteAnswered } from '../../src/sim/coordinator/txnStateWrites';
import type { Effect } from '../../src/sim/kernel/effects';
import { translateNote } from '../../src/sim/narration/notes';
import { HOSTED_TXN_META, ONGOING_TXN } from '../replication/hostBroker';

const ongoing = ONGOING_TXN;

/** broker-0's coordinator leading and having loaded __transaction_state-0 (or, hosted: false, the one-replica coordinator). */
function coordinator(txn: TxnMetadata = ongoing, options: { hosted?: boolean; transactionVersion?: 1 | 2 } = {}): TxnCoordinatorContext {
  return {
    id: 'broker-0.txn-coordinator',
    meta: {
      ...HOSTED_TXN_META,
      topics: { ...HOSTED_TXN_META.topics, payments: { name: 'payments', partitions: 2, leaders: ['broker-0', 'broker-0'] } },
    },
    config: { ...DEFAULT_TXN_COORDINATOR_CONFIG, transactionVersion: options.transactionVersion ?? 1 },
    nextProducerId: 1001,
    coordinatorEpoch: 0,
    txns: { tx: txn },
    logs: {},
    markers: {},
    nextCorrelationId: 0,
    ...(options.hosted === false
      ? {}
      : { hosted: { host: 'broker-0', owned: { 0: { coordinatorEpoch: 0, loading: null } }, writes: {}, nextWriteId: 0 } }),
  };
}

const request = <P>(type: string, payload: P, envelopeId: number, from = 'app.producer') => ({
  type,
  now: 20,
  from,
  envelopeId,
  inReplyTo: null,
  payload: { ...payload, correlationId: envelopeId },
});

const endTxn = (committed: boolean, producerEpoch = 0) =>
  request('EndTxn', { transactionalId: 'tx', producerId: 1000, producerEpoch, committed }, 42);

/** AddPartitionsToTxn of payments-`partition`: the client's, or broker-0's verification. */
const addPartitions = (partition: number, verifyOnly: boolean, envelopeId: number) =>
  request(
    'AddPartitionsToTxn',
    { transactionalId: 'tx', producerId: 1000, producerEpoch: 0, partitions: [{ topic: 'payments', partition }], verifyOnly },
    envelopeId,
    verifyOnly ? 'broker-0' : 'app.producer',
  );

const serve = (fn: unknown) =>
  serveRequest(fn as never) as unknown as (c: TxnCoordinatorContext, e: unknown, o: Out) => TxnCoordinatorContext;
const serveEndTxn = serve(onEndTxn);
const serveAddPartitions = serve(onAddPartitions);

const replies = (out: Out) =>
  out.effects.filter((e): e is Extract<Effect, { type: 'send' }> => e.type === 'send' && e.inReplyTo !== undefined).map((e) => e.payload);

describe('a broker’s verification during a write in flight reads the cache from before the write', () => {
  it('an EndTxn(COMMIT) write in flight: the transaction is still Ongoing with payments-0, so NONE (not CONCURRENT_TRANSACTIONS)', () => {
    const pending = serveEndTxn(coordinator(), endTxn(true), new Out());
    expect(pending.txns.tx?.state).toBe('PrepareCommit');
    const out = new Out();
    serveAddPartitions(pending, addPartitions(0, true, 51), out);
    expect(replies(out)).toMatchObject([{ error: 'NONE', partitions: [{ topic: 'payments', partition: 0, error: 'NONE' }] }]);
  });

  it('an AddPartitionsToTxn write of payments-1 in flight: payments-1 is not in the transaction yet, TRANSACTION_ABORTABLE', () => {
    const pending = serveAddPartitions(coordinator(), addPartitions(1, false, 50), new Out());
    const out = new Out();
    serveAddPartitions(pending, addPartitions(1, true, 51), out);
    expect(replies(out)).toMatchObject([{ partitions: [{ topic: 'payments', partition: 1, error: 'TRANSACTION_ABORTABLE' }] }]);
    // once the write is answered the new metadata is the cache's
    const done = onWriteAnswered(pending, 0, 'NONE', 30, new Out());
    const after = new Out();
    serveAddPartitions(done, addPartitions(1, true, 52), after);
    expect(replies(after)).toMatchObject([{ partitions: [{ topic: 'payments', partition: 1, error: 'NONE' }] }]);
  });
});

describe('a successful write whose partition moved away and back (updateCacheCallback → getTransactionState)', () => {
  const moved = (owned: HostedState['owned']) => {
    const pending = serveEndTxn(coordinator(), endTxn(true), new Out());
    return { ...pending, hosted: { ...(pending.hosted as HostedState), owned } };
  };

  it('loading again: COORDINATOR_LOAD_IN_PROGRESS, with producer −1/−1 and no marker', () => {
    const out = new Out();
    onWriteAnswered(moved({ 0: { coordinatorEpoch: 1, loading: [] } }), 0, 'NONE', 30, out);
    expect(replies(out)).toEqual([{ error: 'COORDINATOR_LOAD_IN_PROGRESS', producerId: -1, producerEpoch: -1, correlationId: 42 }]);
    expect(out.effects.some((e) => e.type === 'send' && e.rpc === 'WriteTxnMarkers')).toBe(false);
    const note = out.effects.find((e) => e.type === 'fact' && e.fact.kind === 'note') as unknown as { fact: { text: string } };
    expect(note.fact.text).toBe(
      'writing PrepareCommit of tx to __transaction_state-0 failed: the partition is loading again → COORDINATOR_LOAD_IN_PROGRESS',
    );
    expect(translateNote(note.fact.text, 'ko')).toContain('파티션을 다시 읽어 들이는 중입니다 → COORDINATOR_LOAD_IN_PROGRESS');
  });

  it('loaded under another coordinator epoch, or not led here: NOT_COORDINATOR', () => {
    const loaded = new Out();
    onWriteAnswered(moved({ 0: { coordinatorEpoch: 1, loading: null } }), 0, 'NONE', 30, loaded);
    expect(replies(loaded)).toMatchObject([{ error: 'NOT_COORDINATOR' }]);
    expect(cacheErrorAfterWrite(undefined, 0)).toBe('NOT_COORDINATOR');
    expect(cacheErrorAfterWrite({ coordinatorEpoch: 0, loading: [] }, 0)).toBe('COORDINATOR_LOAD_IN_PROGRESS');
    expect(cacheErrorAfterWrite({ coordinatorEpoch: 0, loading: null }, 0)).toBe('NONE');
  });
});

describe('EndTxn answers: the producer id and epoch only with NONE', () => {
  const answer = (ctx: TxnCoordinatorContext, ev: unknown) => {
    const out = new Out();
    onEndTxn(ctx, ev as never, out);
    return replies(out);
  };

  it('protocol v1: PRODUCER_FENCED and INVALID_TXN_STATE carry −1/−1; a retried COMMIT after CompleteCommit carries the producer', () => {
    const one = { hosted: false };
    expect(answer(coordinator(ongoing, one), endTxn(true, 3))).toEqual([
      { error: 'PRODUCER_FENCED', producerId: -1, producerEpoch: -1, correlationId: 42 },
    ]);
    const empty = { ...ongoing, state: 'Empty' as const, partitions: [] };
    expect(answer(coordinator(empty, one), endTxn(true))).toMatchObject([
      { error: 'INVALID_TXN_STATE', producerId: -1, producerEpoch: -1 },
    ]);
    const committed = { ...ongoing, state: 'CompleteCommit' as const, partitions: [] };
    expect(answer(coordinator(committed, one), endTxn(true))).toMatchObject([{ error: 'NONE', producerId: 1000, producerEpoch: 0 }]);
  });

  it('protocol v2: CONCURRENT_TRANSACTIONS in PrepareCommit carries −1/−1; a retry after CompleteCommit carries the bumped epoch', () => {
    const two = { hosted: false, transactionVersion: 2 as const };
    const prepared = { ...ongoing, state: 'PrepareCommit' as const, producerEpoch: 1, lastProducerEpoch: 0 };
    expect(answer(coordinator(prepared, two), endTxn(true, 0))).toMatchObject([
      { error: 'CONCURRENT_TRANSACTIONS', producerId: -1, producerEpoch: -1 },
    ]);
    const committed = { ...prepared, state: 'CompleteCommit' as const, partitions: [] };
    expect(answer(coordinator(committed, two), endTxn(true, 0))).toMatchObject([{ error: 'NONE', producerId: 1000, producerEpoch: 1 }]);
  });

  it('a PrepareCommit write that fails: COORDINATOR_NOT_AVAILABLE with −1/−1 (sendTxnMarkersCallback’s error branch)', () => {
    const pending = serveEndTxn(coordinator(), endTxn(true), new Out());
    const out = new Out();
    onWriteAnswered(pending, 0, 'NOT_ENOUGH_REPLICAS', 30, out);
    expect(replies(out)).toEqual([{ error: 'COORDINATOR_NOT_AVAILABLE', producerId: -1, producerEpoch: -1, correlationId: 42 }]);
  });
});
