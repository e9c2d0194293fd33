/**
 * The transaction coordinator on the leader of a replicated __transaction_state, rule by rule
 * (docs/reference/kafka-behaviour.md, "The transaction coordinator on the __transaction_state
 * leader"): the append's error mapping (TransactionStateManager.appendTransactionToLog), the host's
 * acks=-1 append and its min ISR, FindCoordinator (KafkaApis.getCoordinator), onElection /
 * onResignation, the held answer of a request until its write, the load of a partition, the
 * producer's lookup (TransactionManager.lookupCoordinator), the configs' validation; then a
 * failover by scenario: the new leader's coordinator finishes a PrepareCommit.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import { onProduceTimeout } from '../../src/sim/broker/replication';
import { coordinatorHandoffs, onAppendTxnState, onFindCoordinator } from '../../src/sim/broker/txnStateHost';
import { TRANSACTION_STATE_TOPIC } from '../../src/sim/cluster/metadata';
import { resolveClusterConfig } from '../../src/sim/config/clusterConfig';
import {
  onBecomeCoordinator,
  onPartitionLoaded,
  onResignCoordinator,
  onTimeoutCheckUnlessWriting,
  refusal,
  serveRequest,
} from '../../src/sim/coordinator/hostedTxnCoordinator.machine';
import { onMarkersResponse } from '../../src/sim/coordinator/markerChannel';
import { pendingTransitionError } from '../../src/sim/coordinator/pendingTransition';
import {
  DEFAULT_TXN_COORDINATOR_CONFIG,
  onAddPartitions,
  onEndTxn,
  onTimeoutCheck,
} from '../../src/sim/coordinator/transactionCoordinator.machine';
import { encodeTxnRecord, type TxnMetadata } from '../../src/sim/coordinator/transactionMetadata';
import type { TxnCoordinatorContext } from '../../src/sim/coordinator/txnCoordinatorContext';
import { coordinatorErrorFor, onWriteAnswered, withDeferredWrites } from '../../src/sim/coordinator/txnStateWrites';
import type { Effect, RpcEvent, TimerEvent } from '../../src/sim/kernel/effects';
import { forgetCoordinatorOn, onLookupRequestLost } from '../../src/sim/producer/coordinatorLookup';
import { coordinatorPartitionFor } from '../../src/sim/producer/partitioner';
import type { ProducerDraft } from '../../src/sim/producer/sender';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { validateScenario } from '../../src/sim/scenario/validate';
import { runWith } from '../presets/helpers';
import { BROKERS, HOSTED_TXN_CLUSTER, HOSTED_TXN_META, hostBroker, ONGOING_TXN } from './hostBroker';

const KEY = `${TRANSACTION_STATE_TOPIC}-0`;
const meta = HOSTED_TXN_META;

const calls = (out: Out) => out.effects.filter((e): e is Extract<Effect, { type: 'call' }> => e.type === 'call');
const replies = (out: Out) =>
  out.effects.filter((e): e is Extract<Effect, { type: 'send' }> => e.type === 'send' && e.inReplyTo !== undefined);

/** The coordinator epoch of each marker in the first WriteTxnMarkers request sent. */
const markerCoordinatorEpochs = (out: Out) =>
  (
    out.effects.find((e) => e.type === 'send' && e.rpc === 'WriteTxnMarkers') as unknown as {
      payload: { markers: { coordinatorEpoch: number }[] };
    }
  ).payload.markers.map((m) => m.coordinatorEpoch);

/** broker-0 leading __transaction_state-0 with the given ISR and min ISR 2. */
const broker = (isr: readonly string[]): BrokerContext => hostBroker(TRANSACTION_STATE_TOPIC, meta, isr);

const APPEND = { writeId: 7, partition: 0, key: 'tx', value: '{}', timeoutMs: 60000 };

describe('TransactionStateManager.appendTransactionToLog: the append error as a coordinator error', () => {
  it('NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT, UNKNOWN_TOPIC_OR_PARTITION → COORDINATOR_NOT_AVAILABLE', () => {
    for (const e of ['NOT_ENOUGH_REPLICAS', 'NOT_ENOUGH_REPLICAS_AFTER_APPEND', 'REQUEST_TIMED_OUT', 'UNKNOWN_TOPIC_OR_PARTITION'] as const)
      expect(coordinatorErrorFor(e)).toBe('COORDINATOR_NOT_AVAILABLE');
  });
  it('NOT_LEADER_OR_FOLLOWER and KAFKA_STORAGE_ERROR → NOT_COORDINATOR; others as they are', () => {
    expect(coordinatorErrorFor('NOT_LEADER_OR_FOLLOWER')).toBe('NOT_COORDINATOR');
    expect(coordinatorErrorFor('KAFKA_STORAGE_ERROR')).toBe('NOT_COORDINATOR');
    expect(coordinatorErrorFor('INVALID_RECORD')).toBe('INVALID_RECORD');
  });
});

describe("the host broker's acks=-1 append of a coordinator write (an in-process call, not a Produce)", () => {
  it('refused NOT_ENOUGH_REPLICAS before the append when the ISR is below transaction.state.log.min.isr', () => {
    const out = new Out();
    const ctx = broker(['broker-0']);
    const next = onAppendTxnState(ctx, 'broker-0.txn-coordinator', APPEND, 10, out);
    expect(next.partitions[KEY]?.logEndOffset).toBe(0);
    expect(calls(out)).toEqual([
      { type: 'call', to: 'broker-0.txn-coordinator', name: 'txnStateAppended', args: { writeId: 7, error: 'NOT_ENOUGH_REPLICAS' } },
    ]);
    expect(out.effects.some((e) => e.type === 'send')).toBe(false);
  });

  it('refused NOT_LEADER_OR_FOLLOWER on a broker that does not lead the partition', () => {
    const out = new Out();
    const ctx = broker(BROKERS);
    onAppendTxnState(
      { ...ctx, replication: { ...(ctx.replication as NonNullable<BrokerContext['replication']>), leading: {} } },
      'x',
      APPEND,
      10,
      out,
    );
    expect(calls(out)[0]?.args).toEqual({ writeId: 7, error: 'NOT_LEADER_OR_FOLLOWER' });
  });

  it('appended and held until the HW passes it; a timeout answers REQUEST_TIMED_OUT by call, never a ProduceResponse', () => {
    const out = new Out();
    const next = onAppendTxnState(broker(BROKERS), 'broker-0.txn-coordinator', APPEND, 10, out);
    expect(next.partitions[KEY]?.logEndOffset).toBe(1);
    expect(calls(out)).toEqual([]);
    const d = next.replication?.delayed[0];
    expect(d?.internal).toEqual({ coordinator: 'broker-0.txn-coordinator', writeId: 7 });
    const timeout = new Out();
    onProduceTimeout(next as never, d?.id as number, timeout);
    expect(calls(timeout)[0]?.args).toEqual({ writeId: 7, error: 'REQUEST_TIMED_OUT' });
    expect(timeout.effects.some((e) => e.type === 'send')).toBe(false);
  });
});

describe('FindCoordinator and the coordinator hand-offs', () => {
  it("answers the leader's hosted coordinator, or COORDINATOR_NOT_AVAILABLE when the partition has no live leader", () => {
    const out = new Out();
    onFindCoordinator(broker(BROKERS), { from: 'p', envelopeId: 1, correlationId: 3 }, 'tx', out);
    expect(replies(out)[0]?.payload).toMatchObject({ error: 'NONE', nodeId: 'broker-0', coordinator: 'broker-0.txn-coordinator' });
    const ctx = broker(BROKERS);
    const rep = ctx.replication as NonNullable<BrokerContext['replication']>;
    const fenced = { ...ctx, replication: { ...rep, fencedBrokers: ['broker-0'] } };
    const out2 = new Out();
    onFindCoordinator(fenced, { from: 'p', envelopeId: 1, correlationId: 3 }, 'tx', out2);
    expect(replies(out2)[0]?.payload).toMatchObject({ error: 'COORDINATOR_NOT_AVAILABLE', coordinator: null });
  });

  it('becoming leader starts the coordinator with the leader epoch and its replica; losing it resigns', () => {
    const leading = broker(BROKERS);
    const rep = leading.replication as NonNullable<BrokerContext['replication']>;
    const idle = { ...leading, replication: { ...rep, leading: {} } };
    const up = new Out();
    coordinatorHandoffs(idle, leading, up);
    expect(calls(up)).toEqual([
      { type: 'call', to: 'broker-0.txn-coordinator', name: 'becomeCoordinator', args: { partition: 0, coordinatorEpoch: 0, records: [] } },
    ]);
    const down = new Out();
    coordinatorHandoffs(leading, idle, down);
    expect(calls(down)).toEqual([{ type: 'call', to: 'broker-0.txn-coordinator', name: 'resignCoordinator', args: { partition: 0 } }]);
  });
});

const ongoing = ONGOING_TXN;

function coordinator(
  owned: TxnCoordinatorContext['hosted'] extends infer H ? (H extends { owned: infer O } ? O : never) : never,
): TxnCoordinatorContext {
  return {
    id: 'broker-0.txn-coordinator',
    meta: { ...meta, topics: { ...meta.topics, payments: { name: 'payments', partitions: 1, leaders: ['broker-0'] } } },
    config: DEFAULT_TXN_COORDINATOR_CONFIG,
    nextProducerId: 1000,
    coordinatorEpoch: 0,
    txns: { tx: ongoing },
    logs: {},
    markers: {},
    nextCorrelationId: 0,
    hosted: { host: 'broker-0', owned, writes: {}, nextWriteId: 0 },
  };
}

const endTxn: RpcEvent<{ transactionalId: string; producerId: number; producerEpoch: number; committed: boolean; correlationId: number }> =
  {
    type: 'EndTxn',
    now: 20,
    from: 'payment-service.producer',
    envelopeId: 42,
    inReplyTo: null,
    payload: { transactionalId: 'tx', producerId: 1000, producerEpoch: 0, committed: true, correlationId: 9 },
  };
/** An idempotent producer's InitProducerId (no transactional.id): any broker serves it. */
const idempotentInit: RpcEvent<{ transactionalId: null }> = { ...endTxn, type: 'InitProducerId', payload: { transactionalId: null } };
const serveEndTxn = serveRequest(onEndTxn as never) as unknown as (
  c: TxnCoordinatorContext,
  e: typeof endTxn,
  o: Out,
) => TxnCoordinatorContext;

/** The hosted coordinator's AddPartitionsToTxn, as the machine serves it. */
const serveAddPartitions = serveRequest(onAddPartitions as never) as unknown as (
  c: TxnCoordinatorContext,
  e: unknown,
  o: Out,
) => TxnCoordinatorContext;

/** AddPartitionsToTxn of payments-`partition` for producer 1000, epoch 0: the client's, or a broker's verification. */
const addPartitionsRequest = (now: number, partition: number, verifyOnly: boolean, envelopeId: number) => ({
  type: 'AddPartitionsToTxn' as const,
  now,
  from: verifyOnly ? 'broker-0' : 'payment-service.producer',
  envelopeId,
  inReplyTo: null,
  payload: {
    transactionalId: 'tx',
    producerId: 1000,
    producerEpoch: 0,
    partitions: [{ topic: 'payments', partition }],
    verifyOnly,
    correlationId: envelopeId,
  },
});

/** A client's AddPartitionsToTxn of payments-0 at `producerEpoch`, as refusal reads it. */
const addPartitions = (producerEpoch: number) => {
  const request = addPartitionsRequest(30, 0, false, 70);
  return { ...request, payload: { ...request.payload, producerEpoch } };
};

/** Every WriteTxnMarkers request of the coordinator answered NONE: the transaction completes. */
function acknowledgeMarkers(ctx: TxnCoordinatorContext, out: Out): TxnCoordinatorContext {
  let next = ctx;
  for (const request of Object.values(ctx.markers).flatMap((w) => w.inFlight))
    next = onMarkersResponse(
      next,
      {
        type: 'WriteTxnMarkersResponse',
        now: 3200,
        from: 'broker-0',
        envelopeId: 100 + request.correlationId,
        inReplyTo: null,
        payload: {
          correlationId: request.correlationId,
          markers: [
            {
              producerId: 1000,
              partitions: request.partitions.map((p) => ({
                topic: p.replace(/-\d+$/, ''),
                partition: Number(p.split('-').pop()),
                error: 'NONE',
              })),
            },
          ],
        },
      } as never,
      out,
    );
  return next;
}

/** The coordinator with a second payments partition, so that a transaction can add payments-1. */
const withTwoPaymentsPartitions = (ctx: TxnCoordinatorContext): TxnCoordinatorContext => ({
  ...ctx,
  meta: {
    ...ctx.meta,
    topics: { ...ctx.meta.topics, payments: { name: 'payments', partitions: 2, leaders: ['broker-0', 'broker-0'] } },
  },
});

describe('the hosted coordinator: who it serves, and answers held until the write', () => {
  it('NOT_COORDINATOR for a partition it does not lead, COORDINATOR_LOAD_IN_PROGRESS while loading, CONCURRENT_TRANSACTIONS while a write is in flight', () => {
    expect(refusal(coordinator({}), endTxn)).toBe('NOT_COORDINATOR');
    expect(refusal(coordinator({ 0: { coordinatorEpoch: 0, loading: [] } }), endTxn)).toBe('COORDINATOR_LOAD_IN_PROGRESS');
    expect(refusal(coordinator({ 0: { coordinatorEpoch: 0, loading: null } }), endTxn)).toBeNull();
    expect(refusal(coordinator({}), idempotentInit)).toBeNull();
    const out = new Out();
    const pending = serveEndTxn(coordinator({ 0: { coordinatorEpoch: 0, loading: null } }), endTxn, out);
    expect(refusal(pending, endTxn)).toBe('CONCURRENT_TRANSACTIONS');
  });

  it("a broker's verification (AddPartitionsToTxn verifyOnly) is not refused for a write in flight: it is answered per partition (handleVerifyPartitionsInTransaction)", () => {
    // an AddPartitionsToTxn write of payments-1 waits for its ISR
    const ctx = withTwoPaymentsPartitions(coordinator({ 0: { coordinatorEpoch: 0, loading: null } }));
    const pending = serveAddPartitions(ctx, addPartitionsRequest(30, 1, false, 50), new Out());
    expect(refusal(pending, addPartitionsRequest(30, 0, false, 51))).toBe('CONCURRENT_TRANSACTIONS');
    expect(refusal(pending, addPartitionsRequest(30, 0, true, 51))).toBeNull();
    // payments-0 (already in the transaction) is verified while that write is in flight
    const out = new Out();
    serveAddPartitions(pending, addPartitionsRequest(30, 0, true, 51), out);
    expect(replies(out).map((r) => r.payload)).toMatchObject([
      { error: 'NONE', partitions: [{ topic: 'payments', partition: 0, error: 'NONE' }] },
    ]);
  });

  it('EndTxn: PrepareCommit goes to the host as a call; the answer and the markers wait for it', () => {
    const out = new Out();
    const next = serveEndTxn(coordinator({ 0: { coordinatorEpoch: 0, loading: null } }), endTxn, out);
    expect(out.effects.map((e) => e.type)).toEqual(['call']);
    expect(calls(out)[0]).toMatchObject({ to: 'broker-0', name: 'appendTxnState', args: { writeId: 0, partition: 0, key: 'tx' } });
    const ok = new Out();
    onWriteAnswered(next, 0, 'NONE', 10, ok);
    const sent = ok.effects.filter((e) => e.type === 'send').map((e) => (e as { rpc: string }).rpc);
    expect(sent).toEqual(expect.arrayContaining(['WriteTxnMarkers', 'EndTxnResponse']));
    expect(ok.effects.some((e) => e.type === 'fact' && (e.fact as { to?: string }).to === 'PrepareCommit')).toBe(true);
  });

  it("markers carry the coordinator epoch of the transactional.id's own __transaction_state partition, not the last one this broker came to lead", () => {
    const partition = coordinatorPartitionFor('tx', 2);
    const ctx: TxnCoordinatorContext = {
      ...coordinator({ [partition]: { coordinatorEpoch: 5, loading: null }, [1 - partition]: { coordinatorEpoch: 2, loading: null } }),
      meta: { ...coordinator({}).meta, transactionStatePartitions: 2 },
      coordinatorEpoch: 2,
    };
    const next = serveEndTxn(ctx, endTxn, new Out());
    const ok = new Out();
    onWriteAnswered(next, 0, 'NONE', 10, ok);
    expect(markerCoordinatorEpochs(ok)).toEqual([5]);
  });

  it('a refused write: EndTxn answered COORDINATOR_NOT_AVAILABLE (NOT_ENOUGH_REPLICAS) or NOT_COORDINATOR (NOT_LEADER_OR_FOLLOWER); the transaction stays Ongoing, no marker', () => {
    for (const [appendError, answer] of [
      ['NOT_ENOUGH_REPLICAS', 'COORDINATOR_NOT_AVAILABLE'],
      ['NOT_ENOUGH_REPLICAS_AFTER_APPEND', 'COORDINATOR_NOT_AVAILABLE'],
      ['NOT_LEADER_OR_FOLLOWER', 'NOT_COORDINATOR'],
    ] as const) {
      const next = serveEndTxn(coordinator({ 0: { coordinatorEpoch: 0, loading: null } }), endTxn, new Out());
      const out = new Out();
      const after = onWriteAnswered(next, 0, appendError, 10, out);
      expect(replies(out).map((e) => [e.rpc, e.payload.error])).toEqual([['EndTxnResponse', answer]]);
      expect(out.effects.some((e) => e.type === 'send' && e.rpc === 'WriteTxnMarkers')).toBe(false);
      expect(after.txns.tx?.state).toBe('Ongoing');
      expect(after.markers).toEqual({});
      expect(refusal(after, endTxn)).toBeNull();
    }
  });

  it('onElection loads the partition from the replica and finishes a PrepareCommit; onResignation forgets it', () => {
    const prepared = { ...ongoing, state: 'PrepareCommit' as const, producerEpoch: 0 };
    const out = new Out();
    const loading = onBecomeCoordinator(
      coordinator({}),
      { partition: 0, coordinatorEpoch: 1, records: [{ key: 'tx', value: encodeTxnRecord(prepared) }] },
      out,
    );
    expect(refusal(loading, endTxn)).toBe('COORDINATOR_LOAD_IN_PROGRESS');
    expect(out.effects).toMatchObject([{ type: 'timer', name: 'partitionLoaded' }]);
    const done = new Out();
    const loaded = onPartitionLoaded(loading, { now: 100, data: { partition: 0, coordinatorEpoch: 1 } }, done);
    expect(loaded.txns.tx?.state).toBe('PrepareCommit');
    expect(loaded.coordinatorEpoch).toBe(1);
    expect(markerCoordinatorEpochs(done)).toEqual([1]);
    const gone = onResignCoordinator(loaded, 0, new Out());
    expect(gone.txns).toEqual({});
    expect(refusal(gone, endTxn)).toBe('NOT_COORDINATOR');
  });
});

describe('TransactionCoordinator.abortTimedOutTransactions runs every cleanup interval: a failed timeout abort is tried again', () => {
  // transaction.timeout.ms 1000 from 200, cleanup every 500: due at the run of 1500
  const timedOut = (): TxnCoordinatorContext => ({
    ...coordinator({ 0: { coordinatorEpoch: 0, loading: null } }),
    config: { ...DEFAULT_TXN_COORDINATOR_CONFIG, cleanupIntervalMs: 500 },
    txns: { tx: { ...ongoing, txnTimeoutMs: 1000, txnStartTimestamp: 200 } },
  });
  type Check = TimerEvent<{ transactionalId: string; txnStartTimestamp: number }>;
  const checkAt = (now: number) =>
    ({ type: 'txnTimeoutCheck', key: 'txnTimeout:tx', now, data: { transactionalId: 'tx', txnStartTimestamp: 200 } }) as Check;
  /** The timeout check as the one-replica coordinator runs it, and as the hosted one does (skipping an id with a write in flight). */
  const check = (ctx: TxnCoordinatorContext, now: number, out: Out) => withDeferredWrites(onTimeoutCheck)(ctx, checkAt(now), out);
  const hostedCheck = (ctx: TxnCoordinatorContext, now: number, out: Out) =>
    withDeferredWrites(onTimeoutCheckUnlessWriting)(ctx, checkAt(now), out);
  const timers = (out: Out) => out.effects.filter((e): e is Extract<Effect, { type: 'timer' }> => e.type === 'timer');
  const transitions = (out: Out) =>
    out.effects.flatMap((e) => {
      if (e.type !== 'fact' || e.fact.kind !== 'txnState') return [];
      const f = e.fact as unknown as { from: string; to: string; producerEpoch: number };
      return [[f.from, f.to, f.producerEpoch]];
    });

  it('the PrepareAbort write times out: back to Ongoing, and the next run (3000) aborts it again', () => {
    const first = new Out();
    const aborting = check(timedOut(), 1500, first);
    expect(calls(first)[0]).toMatchObject({ name: 'appendTxnState', args: { writeId: 0, key: 'tx' } });
    expect(aborting.txns.tx?.state).toBe('PrepareAbort');
    // PrepareEpochFence is a pending state until the write: nothing is told before it
    expect(transitions(first)).toEqual([]);
    const failed = new Out();
    const after = onWriteAnswered(aborting, 0, 'REQUEST_TIMED_OUT', 2500, failed);
    expect(after.txns.tx?.state).toBe('Ongoing');
    expect(transitions(failed)).toEqual([]);
    expect(timers(failed)).toEqual([
      {
        type: 'timer',
        key: 'txnTimeout:tx',
        name: 'txnTimeoutCheck',
        delay: 500,
        data: { transactionalId: 'tx', txnStartTimestamp: 200 },
        background: false,
      },
    ]);
    const again = new Out();
    const retried = check(after, 3000, again);
    expect(retried.txns.tx?.state).toBe('PrepareAbort');
    expect(calls(again)[0]).toMatchObject({ name: 'appendTxnState', args: { writeId: 1, key: 'tx' } });
    const written = new Out();
    onWriteAnswered(retried, 1, 'NONE', 3100, written);
    expect(transitions(written)).toEqual([
      ['Ongoing', 'PrepareEpochFence', 1],
      ['PrepareEpochFence', 'PrepareAbort', 1],
    ]);
    expect(timers(written)).toEqual([]);
  });

  it('a transactional.id with a write in flight is skipped by the scan and looked at again at the next run (timedOutTransactions: pendingTransitionInProgress)', () => {
    // AddPartitionsToTxn(payments-1) at 1400: its write (Ongoing → Ongoing) is in flight at the run of 1500
    const adding = serveAddPartitions(withTwoPaymentsPartitions(timedOut()), addPartitionsRequest(1400, 1, false, 43), new Out());
    expect(Object.keys(adding.hosted?.writes ?? {})).toHaveLength(1);
    const skipped = new Out();
    const scanned = hostedCheck(adding, 1500, skipped);
    expect(scanned.txns.tx?.state).toBe('Ongoing');
    expect(calls(skipped)).toEqual([]);
    expect(timers(skipped)).toMatchObject([{ key: 'txnTimeout:tx', name: 'txnTimeoutCheck', delay: 500 }]);
    // the write lands; the run of 2000 aborts
    const landed = onWriteAnswered(scanned, 0, 'NONE', 1600, new Out());
    const aborts = new Out();
    const aborted = hostedCheck(landed, 2000, aborts);
    expect(aborted.txns.tx?.state).toBe('PrepareAbort');
    expect(calls(aborts)[0]).toMatchObject({ name: 'appendTxnState', args: { key: 'tx' } });
  });

  it('a failed epoch fence keeps its epoch in memory (hasFailedEpochFence): the timed-out producer is fenced, and the next fence does not bump again', () => {
    const aborting = check(timedOut(), 1500, new Out());
    // while the fence's PrepareAbort is in flight the cache holds the fenced epoch 1: protocol v1's
    // EndTxn checks it first (endTransactionWithTV1); AddPartitionsToTxn answers the pending transition
    // first in 4.0 (KAFKA-18660), so that producer retries and meets the fence afterwards
    expect(refusal(aborting, addPartitions(0))).toBe('CONCURRENT_TRANSACTIONS');
    expect(refusal(aborting, endTxn)).toBe('PRODUCER_FENCED');
    const failed = new Out();
    const after = onWriteAnswered(aborting, 0, 'NOT_ENOUGH_REPLICAS', 2500, failed);
    expect(after.txns.tx).toMatchObject({ state: 'Ongoing', producerEpoch: 1, lastProducerEpoch: -1, hasFailedEpochFence: true });
    // the producer of epoch 0 can neither add a partition nor commit, though nothing was written
    const add = new Out();
    serveAddPartitions(withTwoPaymentsPartitions(after), addPartitionsRequest(2600, 1, false, 60), add);
    expect(replies(add).map((r) => r.payload.error)).toEqual(['PRODUCER_FENCED']);
    const commit = new Out();
    serveEndTxn(after, { ...endTxn, now: 2600 }, commit);
    expect(replies(commit).map((r) => r.payload.error)).toEqual(['PRODUCER_FENCED']);
    // the next run fences at epoch 1 again (prepareFenceProducerEpoch: no second bump), and CompleteAbort clears the flag
    const again = new Out();
    const retried = check(after, 3000, again);
    expect(retried.txns.tx).toMatchObject({ state: 'PrepareAbort', producerEpoch: 1 });
    const written = onWriteAnswered(retried, 1, 'NONE', 3100, new Out());
    const markers = new Out();
    const done = acknowledgeMarkers(written, markers);
    expect(done.txns.tx?.state).toBe('CompleteAbort');
    expect(done.txns.tx?.hasFailedEpochFence).toBeUndefined();
  });

  it("a write failing before the deadline arms nothing: the transaction's own timer is still pending", () => {
    const next = serveEndTxn(timedOut(), endTxn, new Out());
    const out = new Out();
    const after = onWriteAnswered(next, 0, 'NOT_ENOUGH_REPLICAS', 400, out);
    expect(after.txns.tx?.state).toBe('Ongoing');
    expect(timers(out)).toEqual([]);
  });
});

describe('a request while a write of its transactional.id is in flight: the pending transition first (4.0: KAFKA-18660, KAFKA-18464)', () => {
  // an AddPartitionsToTxn write of payments-1 (producer 1000, epoch 0) waits for its ISR
  const pending = () =>
    serveAddPartitions(
      withTwoPaymentsPartitions(coordinator({ 0: { coordinatorEpoch: 0, loading: null } })),
      addPartitionsRequest(30, 1, false, 50),
      new Out(),
    );

  it('AddPartitionsToTxn and AddOffsetsToTxn are CONCURRENT_TRANSACTIONS whatever their producer; a protocol v1 EndTxn checks its producer first', () => {
    const ctx = pending();
    expect(refusal(ctx, addPartitions(0))).toBe('CONCURRENT_TRANSACTIONS');
    expect(refusal(ctx, endTxn)).toBe('CONCURRENT_TRANSACTIONS');
    expect(refusal(ctx, addPartitions(1))).toBe('CONCURRENT_TRANSACTIONS');
    expect(refusal(ctx, { ...endTxn, payload: { ...endTxn.payload, producerEpoch: 1 } })).toBe('PRODUCER_FENCED');
    expect(refusal(ctx, { ...endTxn, type: 'AddOffsetsToTxn', payload: { ...endTxn.payload, producerEpoch: 1 } })).toBe(
      'CONCURRENT_TRANSACTIONS',
    );
    expect(refusal(ctx, { ...endTxn, type: 'AddOffsetsToTxn', payload: { ...endTxn.payload, producerId: 999 } })).toBe(
      'CONCURRENT_TRANSACTIONS',
    );
    expect(refusal(ctx, { ...endTxn, payload: { ...endTxn.payload, producerId: 999 } })).toBe('INVALID_PRODUCER_ID_MAPPING');
    // the answer goes out at once, with that error, and no write starts
    const out = new Out();
    const next = serveAddPartitions(ctx, addPartitions(1), out);
    expect(replies(out).map((r) => [r.rpc, r.payload.error])).toEqual([['AddPartitionsToTxnResponse', 'CONCURRENT_TRANSACTIONS']]);
    expect(Object.keys(next.hosted?.writes ?? {})).toHaveLength(1);
  });

  it('InitProducerId checks the pending transition first (prepareInitProducerIdTransit): CONCURRENT_TRANSACTIONS whatever its epoch', () => {
    const ctx = pending();
    expect(
      refusal(ctx, { ...endTxn, type: 'InitProducerId', payload: { transactionalId: 'tx', transactionTimeoutMs: 60000 } as never }),
    ).toBe('CONCURRENT_TRANSACTIONS');
  });

  it('EndTxn: protocol v2 checks the producer id, then the pending transition (KAFKA-18464); v1 the producer id and epoch first (endTransactionWithTV1)', () => {
    const at = (state: TxnMetadata['state'], epoch: number, version: 1 | 2 = 2) =>
      pendingTransitionError({ ...ongoing, state, producerEpoch: 3 }, { type: 'EndTxn', producerId: 1000, producerEpoch: epoch }, version);
    expect([at('PrepareCommit', 2), at('PrepareCommit', 3), at('CompleteAbort', 1), at('Ongoing', 2)]).toEqual([
      'CONCURRENT_TRANSACTIONS',
      'CONCURRENT_TRANSACTIONS',
      'CONCURRENT_TRANSACTIONS',
      'CONCURRENT_TRANSACTIONS',
    ]);
    expect(pendingTransitionError({ ...ongoing, producerEpoch: 3 }, { type: 'EndTxn', producerId: 999, producerEpoch: 3 }, 2)).toBe(
      'INVALID_PRODUCER_ID_MAPPING',
    );
    // v1: strict equality
    expect([at('CompleteAbort', 2, 1), at('CompleteAbort', 3, 1)]).toEqual(['PRODUCER_FENCED', 'CONCURRENT_TRANSACTIONS']);
    // a transactional.id being created (its InitProducerId write in flight): Kafka put its metadata in the
    // cache before the append (putTransactionStateIfNotExists), so an AddPartitionsToTxn meets the pending transition
    expect(pendingTransitionError(null, { type: 'AddPartitionsToTxn', producerId: 1000, producerEpoch: 0 }, 1)).toBe(
      'CONCURRENT_TRANSACTIONS',
    );
    expect(pendingTransitionError(null, { type: 'EndTxn', producerId: 1000, producerEpoch: 0 }, 2)).toBe('INVALID_PRODUCER_ID_MAPPING');
  });
});

describe("the producer's coordinator lookup (TransactionManager.lookupCoordinator)", () => {
  const draft = (txnCoordinator: string | null) => ({ meta, txnCoordinator, transactional: true }) as unknown as ProducerDraft;
  it('COORDINATOR_NOT_AVAILABLE and NOT_COORDINATOR forget the coordinator; COORDINATOR_LOAD_IN_PROGRESS keeps it', () => {
    for (const e of ['COORDINATOR_NOT_AVAILABLE', 'NOT_COORDINATOR'] as const) {
      const d = draft('broker-0.txn-coordinator');
      forgetCoordinatorOn(d, e);
      expect(d.txnCoordinator).toBeNull();
    }
    const d = draft('broker-0.txn-coordinator');
    forgetCoordinatorOn(d, 'COORDINATOR_LOAD_IN_PROGRESS');
    expect(d.txnCoordinator).toBe('broker-0.txn-coordinator');
  });
  it('a lost request forgets the coordinator (the next FindCoordinator goes to the least loaded node: tests/network/coordinatorLookup.test.ts)', () => {
    const d = draft('broker-0.txn-coordinator');
    onLookupRequestLost(d);
    expect(d.txnCoordinator).toBeNull();
  });
});

describe('transaction.state.log.replication.factor / min.isr', () => {
  it('unset: null (one replica, the fixed coordinator process)', () => {
    const r = resolveClusterConfig({ brokers: 3 });
    expect(r.config['transaction.state.log.replication.factor']).toBeNull();
    expect(r.config['transaction.state.log.min.isr']).toBeNull();
    expect(r.errors).toEqual([]);
  });
  it('more than the brokers: INVALID_REPLICATION_FACTOR; a min ISR above the replication factor refused', () => {
    const r = resolveClusterConfig({ brokers: 2, 'transaction.state.log.replication.factor': 3 });
    expect(r.errors).toEqual([
      {
        key: 'transaction.state.log.replication.factor',
        message:
          'INVALID_REPLICATION_FACTOR: The target replication factor of 3 cannot be reached because only 2 broker(s) are registered.',
        ko: '__transaction_state의 복제 계수 3에 비해 브로커가 2개뿐이라 토픽을 만들 수 없습니다.',
        quote: 'INVALID_REPLICATION_FACTOR: The target replication factor of 3 cannot be reached because only 2 broker(s) are registered.',
      },
    ]);
    const m = resolveClusterConfig({ brokers: 3, 'transaction.state.log.replication.factor': 2, 'transaction.state.log.min.isr': 3 });
    expect(m.errors[0]?.key).toBe('transaction.state.log.min.isr');
    expect(m.errors[0]?.message).toContain('NOT_ENOUGH_REPLICAS');
    const v = validateScenario({
      version: 1,
      seed: 1,
      cluster: { brokers: 1, 'transaction.state.log.replication.factor': 3 },
      topics: [],
      clients: [],
    });
    expect(v.ok).toBe(false);
  });
});

/** broker-0 hosts the coordinator; it writes PrepareCommit, answers, then fails before any marker lands. */
const failover: Scenario = {
  version: 1,
  seed: 1,
  cluster: HOSTED_TXN_CLUSTER,
  topics: [{ name: 'payments', leaders: [1] }],
  clients: [
    {
      id: 'payment-service',
      type: 'producer',
      startAt: 100,
      config: { 'transactional.id': 'payment-service-1' },
      script: [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'payments', key: 'pay-1', value: 'debit 100', headers: { event_id: 'evt-debit-1' } },
        { op: 'commitTransaction' },
      ],
    },
    {
      id: 'ledger',
      type: 'consumer',
      config: { 'group.id': 'ledger', 'isolation.level': 'read_committed', 'auto.offset.reset': 'earliest' },
      topics: ['payments'],
      processing: { mode: 'at-least-once' },
    },
  ],
  faults: [
    { type: 'drop', rpc: 'WriteTxnMarkers', from: 'broker-0.txn-coordinator', nth: 1, count: 5 },
    { type: 'crash', target: 'broker-0', at: 500, durationMs: 20000 },
  ],
};

describe('the coordinator moves with the leader of __transaction_state', () => {
  it('broker-0 fails after PrepareCommit; broker-1 is elected, loads PrepareCommit from its replica and sends the markers', () => {
    const r = runWith(failover);
    const states = r.trace.steps.flatMap((s) =>
      (s.facts as { kind: string; to?: string }[]).filter((f) => f.kind === 'txnState').map((f) => [s.actor, f.to]),
    );
    expect(states).toEqual([
      ['broker-0.txn-coordinator', 'Empty'],
      ['broker-0.txn-coordinator', 'Ongoing'],
      ['broker-0.txn-coordinator', 'PrepareCommit'],
      ['broker-1.txn-coordinator', 'CompleteCommit'],
    ]);
    expect(r.facts('leaderChange')[0]).toMatchObject({ topic: TRANSACTION_STATE_TOPIC, leader: 'broker-1', leaderEpoch: 1 });
    expect(r.facts('note').some((n) => n.actor === 'broker-1.txn-coordinator' && n.text.startsWith('loaded 1 transactional id'))).toBe(
      true,
    );
    expect(r.data('payments-0').length).toBe(1);
    expect(r.received('ledger').map((x) => x.headers.event_id)).toEqual(['evt-debit-1']);
    expect(r.errors('payment-service')).toEqual([]);
  });

  it("the coordinator's writes are in-process calls: its only requests on the network are WriteTxnMarkers (Kafka sends those even to its own broker)", () => {
    const t = runScenario(failover);
    const sent = new Set(t.envelopes.filter((e) => e.from.endsWith('.txn-coordinator')).map((e) => e.rpc));
    expect([...sent].filter((rpc) => !rpc.endsWith('Response'))).toEqual(['WriteTxnMarkers']);
    expect(t.envelopes.some((e) => e.rpc === 'Produce' && (e.payload as { topic?: string }).topic === TRANSACTION_STATE_TOPIC)).toBe(false);
    expect(t.steps.some((s) => s.kind === 'call' && s.label === 'appendTxnState')).toBe(true);
  });
});
