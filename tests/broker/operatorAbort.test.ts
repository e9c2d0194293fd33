/**
 * An operator's `kafka-transactions.sh abort --start-offset N` at a partition's leader
 * (broker/operatorAbort.ts; TransactionsCommand.AbortTransactionCommand.buildAbortSpec, then
 * AbortTransactionHandler's WriteTxnMarkers): the open transaction starting at N is found in the
 * producer state and its ABORT marker appended with the producer's epoch and coordinator epoch,
 * through the same append as the coordinator's markers (ProducerAppendInfo.appendEndTxnMarker's checks).
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { abortWithSpec, type BrokerContext, brokerMachine } from '../../src/sim/broker/broker.machine';
import { leaderUnreachable, routeAbort } from '../../src/sim/broker/operatorAbort';
import type { Effect } from '../../src/sim/kernel/effects';
import { lastStableOffset } from '../../src/sim/log/partitionLog';
import type { Fact } from '../../src/sim/trace/facts';
import { drive, inputOf, producerRpc } from '../machines/harness';

const scenario = {
  version: 1,
  seed: 1,
  cluster: { 'transaction.version': 1, 'transaction.partition.verification.enable': false },
  topics: [{ name: 't', partitions: 1 }],
  clients: [],
};
const rpc = producerRpc;
/** A transactional batch of producer 7 at `epoch`. */
const produce = (epoch: number, baseSequence: number) =>
  rpc('Produce', {
    acks: -1,
    transactionalId: 'tx',
    partitions: [
      {
        topic: 't',
        partition: 0,
        batch: {
          producerId: 7,
          producerEpoch: epoch,
          baseSequence,
          isTransactional: true,
          records: [{ key: 'k', value: 'v', headers: {}, timestamp: 0 }],
        },
      },
    ],
  });
const markers = (result: 'COMMIT' | 'ABORT', epoch: number, coordinatorEpoch: number) =>
  rpc('WriteTxnMarkers', {
    markers: [{ producerId: 7, producerEpoch: epoch, result, coordinatorEpoch, partitions: [{ topic: 't', partition: 0 }] }],
  });
const abort = (startOffset: number, leader: string | null = 'broker-0') => ({
  type: 'operatorAbortTransaction',
  topic: 't',
  partition: 0,
  startOffset,
  brokers: ['broker-0'],
  leader,
});
const facts = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'fact' ? [e.fact as Fact] : []));
const start = () => drive(brokerMachine, inputOf(scenario, 'broker-0'));
const log = (m: ReturnType<typeof start>) => m.context<BrokerContext>().partitions['t-0'];

describe('kafka-transactions.sh abort at the partition leader', () => {
  it('finds the open transaction starting at the offset and writes its ABORT marker with its epoch and coordinator epoch: the LSO moves past it', () => {
    const m = start();
    // a first transaction committed by coordinator epoch 3, then a second one open from offset 2
    m.send(produce(0, 0), 1);
    m.send(markers('COMMIT', 0, 3), 2);
    m.send(produce(0, 1), 3);
    expect(lastStableOffset(log(m) as never)).toBe(2);
    const fx = facts(m.send(abort(2), 4));
    expect(fx).toEqual([
      {
        kind: 'operatorAbort',
        broker: 'broker-0',
        topic: 't',
        partition: 0,
        startOffset: 2,
        spec: { producerId: 7, producerEpoch: 0, coordinatorEpoch: 3 },
        markerOffset: 3,
        printed: null,
        failure: null,
      },
      expect.objectContaining({
        kind: 'append',
        topic: 't',
        partition: 0,
        baseOffset: 3,
        producerId: 7,
        producerEpoch: 0,
        control: 'ABORT',
      }),
    ]);
    const after = log(m);
    expect(after?.batches.last()).toMatchObject({ isControl: true, controlType: 'ABORT', producerEpoch: 0, coordinatorEpoch: 3 });
    expect(lastStableOffset(after as never)).toBe(4);
  });

  it('a producer with no marker yet (coordinator epoch -1) is aborted with coordinator epoch 0, as the tool takes coordinatorEpoch.orElse(0)', () => {
    const m = start();
    m.send(produce(0, 0), 1);
    expect(log(m)?.producers.get(7)?.coordinatorEpoch).toBe(-1);
    expect(facts(m.send(abort(0), 2)).find((f) => f.kind === 'operatorAbort')).toMatchObject({
      spec: { producerId: 7, producerEpoch: 0, coordinatorEpoch: 0 },
      markerOffset: 1,
    });
    expect(log(m)?.producers.get(7)?.currentTxnFirstOffset).toBeNull();
  });

  it('no open transaction starts at the offset: the tool prints its error and nothing is written', () => {
    const m = start();
    m.send(produce(0, 0), 1);
    const before = log(m);
    const fx = facts(m.send(abort(1), 2));
    expect(fx).toEqual([
      expect.objectContaining({
        kind: 'operatorAbort',
        spec: null,
        markerOffset: null,
        failure: 'no-open-transaction',
        printed: 'Could not find any open transactions starting at offset 1 on partition t-0',
      }),
    ]);
    expect(log(m)).toBe(before);
  });

  it('the partition has no leader at the tool’s timeout: the lookup’s call times out pending, the tool writes nothing', () => {
    // Changed (2026-12-07): the text was the model’s own ("the partition has no leader"), said at once
    const m = start();
    m.send(produce(0, 0), 1);
    const before = log(m);
    expect(facts(m.send(abort(0, null), 2))).toEqual([
      expect.objectContaining({
        failure: 'no-leader',
        printed:
          'Failed to validate producer state for partition t-0: Timed out waiting for a node assignment. Call: describeProducers(api=METADATA). Enable debug logging for additional detail.',
      }),
    ]);
    expect(log(m)).toBe(before);
  });

  it('while the tool still waits for a leader (retrying) the broker given the signal does nothing', () => {
    const m = start();
    m.send(produce(0, 0), 1);
    const before = log(m);
    expect(facts(m.send({ ...abort(0, null), retrying: true }, 2))).toEqual([]);
    expect(log(m)).toBe(before);
  });

  it('a spec whose epoch is older than the producer epoch on the partition is refused INVALID_PRODUCER_EPOCH (appendMarker), and the tool fails', () => {
    const m = start();
    // the producer's transaction is open at epoch 1; the spec (read before a bump) says epoch 0
    m.send(produce(1, 0), 1);
    const ctx = m.context<BrokerContext>();
    const out = new Out();
    const next = abortWithSpec(
      ctx,
      { topic: 't', partition: 0, startOffset: 0 },
      { producerId: 7, producerEpoch: 0, coordinatorEpoch: 0 },
      2,
      out,
    );
    expect(next).toBe(ctx);
    const fx = out.effects.flatMap((e) => (e.type === 'fact' ? [e.fact as Fact] : []));
    expect(fx).toEqual([
      expect.objectContaining({
        kind: 'operatorAbort',
        markerOffset: null,
        failure: 'INVALID_PRODUCER_EPOCH',
        printed:
          'Failed to abort transaction AbortTransactionSpec(topicPartition=t-0, producerId=7, producerEpoch=0, coordinatorEpoch=0): WriteTxnMarkers request with AbortTransactionSpec(topicPartition=t-0, producerId=7, producerEpoch=0, coordinatorEpoch=0) failed due an invalid producer epoch. Enable debug logging for additional detail.',
      }),
    ]);
  });

  it('a spec whose coordinator epoch is older than the last marker’s is refused TRANSACTION_COORDINATOR_FENCED', () => {
    const m = start();
    m.send(produce(0, 0), 1);
    m.send(markers('COMMIT', 0, 4), 2);
    m.send(produce(0, 1), 3);
    const out = new Out();
    abortWithSpec(
      m.context<BrokerContext>(),
      { topic: 't', partition: 0, startOffset: 2 },
      { producerId: 7, producerEpoch: 0, coordinatorEpoch: 1 },
      4,
      out,
    );
    expect(out.effects.flatMap((e) => (e.type === 'fact' ? [e.fact as Fact] : []))).toEqual([
      expect.objectContaining({ failure: 'TRANSACTION_COORDINATOR_FENCED', markerOffset: null }),
    ]);
  });
});

/**
 * The tool's leader lookup (routeAbort) when the leader does not accept connections: a broker
 * restarted and still registering (broker/listeners.ts), or one that is down while the metadata
 * still names it. KafkaAdminClient keeps the DescribeProducers call pending for that broker until
 * default.api.timeout.ms; TransactionsCommand prints the TimeoutException.
 */
describe('kafka-transactions.sh abort when the partition’s leader accepts no connection', () => {
  const TIMED_OUT =
    'Failed to validate producer state for partition t-0: Timed out waiting for a node assignment. Call: describeProducers(api=DESCRIBE_PRODUCERS). Enable debug logging for additional detail.';
  const meta = (leader: string) => ({ topics: { t: { leaders: [leader] } } });
  const broker = (opts: { leads: boolean; registering?: boolean; leader: string }) => ({
    partitions: { 't-0': {} },
    replication: { leading: opts.leads ? { 't-0': {} } : {}, ...(opts.registering ? { registering: true } : {}) },
    meta: meta(opts.leader),
  });
  const event = {
    type: 'operatorAbortTransaction' as const,
    topic: 't',
    partition: 0,
    startOffset: 0,
    brokers: ['broker-0', 'broker-1', 'broker-2'],
  };
  const contexts = (byId: Record<string, unknown>) => (id: string) => byId[id];

  it('the broker leading the partition is registering after a restart: unreachable, and a listening broker reports the failure', () => {
    const routed = routeAbort(
      event,
      contexts({
        'broker-0': broker({ leads: true, registering: true, leader: 'broker-0' }),
        'broker-1': broker({ leads: false, leader: 'broker-0' }),
        'broker-2': broker({ leads: false, leader: 'broker-0' }),
      }),
    );
    expect(routed).toMatchObject({ leader: null, unreachable: 'broker-0', deliverTo: 'broker-1' });
  });

  it('no broker leads it yet, and the metadata still names the restarted broker (its old incarnation not fenced): unreachable', () => {
    const routed = routeAbort(
      event,
      contexts({
        'broker-0': broker({ leads: false, registering: true, leader: 'broker-0' }),
        'broker-1': broker({ leads: false, leader: 'broker-0' }),
        'broker-2': broker({ leads: false, leader: 'broker-0' }),
      }),
    );
    expect(routed).toMatchObject({ leader: null, unreachable: 'broker-0', deliverTo: 'broker-1' });
  });

  it('the metadata names a broker that is down: unreachable too', () => {
    const routed = routeAbort(
      event,
      contexts({ 'broker-1': broker({ leads: false, leader: 'broker-0' }), 'broker-2': broker({ leads: false, leader: 'broker-0' }) }),
    );
    expect(routed).toMatchObject({ leader: null, unreachable: 'broker-0', deliverTo: 'broker-1' });
  });

  it('without a reachable leader the admin client tries again every 100 ms until default.api.timeout.ms after its start, then fails', () => {
    const down = contexts({ 'broker-1': broker({ leads: false, leader: 'broker-0' }) });
    expect(routeAbort({ ...event, startedAt: 1000 }, down, 1000)).toMatchObject({
      retrying: true,
      tryAgainInMs: 100,
      deliverTo: 'broker-1',
    });
    expect(routeAbort({ ...event, startedAt: 1000 }, down, 60950)).toMatchObject({ retrying: true, tryAgainInMs: 50 });
    const last = routeAbort({ ...event, startedAt: 1000 }, down, 61000);
    expect(last).toMatchObject({ leader: null, unreachable: 'broker-0' });
    expect(last.retrying).toBeUndefined();
    expect(last.tryAgainInMs).toBeUndefined();
    const led = contexts({ 'broker-1': broker({ leads: true, leader: 'broker-1' }) });
    expect(routeAbort({ ...event, startedAt: 1000 }, led, 1000).retrying).toBeUndefined();
  });

  it('a replicated cluster’s broker names the leader of its controller records: none after the controller left the partition leaderless', () => {
    const routed = routeAbort(
      { ...event, startedAt: 0 },
      contexts({
        'broker-2': { partitions: {}, replication: { leading: {}, registrations: { 't-0': { leader: null } } }, meta: meta('broker-0') },
      }),
      60000,
    );
    expect(routed).toMatchObject({ leader: null, deliverTo: 'broker-2' });
    expect(routed.unreachable).toBeUndefined();
  });

  it('a listening leader is reached as before; a partition nobody leads or names has no leader', () => {
    const led = routeAbort(
      event,
      contexts({
        'broker-0': broker({ leads: false, registering: true, leader: 'broker-1' }),
        'broker-1': broker({ leads: true, leader: 'broker-1' }),
      }),
    );
    expect(led).toMatchObject({ leader: 'broker-1', deliverTo: 'broker-1' });
    expect(led.unreachable).toBeUndefined();
    const none = routeAbort(
      event,
      contexts({ 'broker-1': { partitions: {}, replication: { leading: {} }, meta: { topics: { t: { leaders: [null] } } } } }),
    );
    expect(none).toMatchObject({ leader: null, deliverTo: 'broker-1' });
    expect(none.unreachable).toBeUndefined();
  });

  it('the broker given the signal prints the admin client’s timeout and writes nothing', () => {
    const m = start();
    m.send(produce(0, 0), 1);
    const before = log(m);
    expect(facts(m.send({ ...abort(0, null), unreachable: 'broker-1' }, 2))).toEqual([
      {
        kind: 'operatorAbort',
        broker: 'broker-0',
        topic: 't',
        partition: 0,
        startOffset: 0,
        spec: null,
        markerOffset: null,
        printed: TIMED_OUT,
        failure: 'leader-unreachable',
        unreachable: 'broker-1',
      },
    ]);
    expect(log(m)).toBe(before);
    expect(leaderUnreachable({ topic: 't', partition: 0, startOffset: 0 })).toBe(TIMED_OUT);
  });
});
