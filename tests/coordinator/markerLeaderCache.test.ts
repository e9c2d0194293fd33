/**
 * The coordinator's metadata cache for marker destinations. Kafka's TransactionMarkerChannelManager
 * looks each marker's destination up in its broker's metadata cache
 * (addTxnMarkersToBrokerQueue → metadataCache.getPartitionLeaderEndpoint), which the controller's
 * records reach as they reach every broker; a retriable refusal is queued again at once for the
 * leader the cache names then (TransactionMarkerRequestCompletionHandler → addTxnMarkersToBrokerQueue,
 * no backoff). Here: the broker that applies a record making it the leader tells the one-replica
 * `txn-coordinator` process (broker/txnStateHost.ts coordinatorLeaderUpdates), which keeps it in
 * serving and loading alike; a refusal whose partition the cache already gives another leader is
 * sent there at once, where one from the leader the cache still names waits the model's pause.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { coordinatorLeaderUpdates } from '../../src/sim/broker/txnStateHost';
import { leaderOf, TXN_COORDINATOR_ID } from '../../src/sim/cluster/metadata';
import { onMarkersResponse, onPartitionLeader, startMarkers } from '../../src/sim/coordinator/markerChannel';
import { transactionCoordinatorMachine } from '../../src/sim/coordinator/transactionCoordinator.machine';
import type { TxnCoordinatorContext, TxnDraft } from '../../src/sim/coordinator/txnCoordinatorContext';
import type { Effect } from '../../src/sim/kernel/effects';
import { drive, inputOf } from '../machines/harness';
import { bootedCoordinator, preparedTxn } from './fixture';

type Registration = { topic: string; partition: number; leader: string | null; leaderEpoch: number };

/** A broker context with the controller's registrations (what coordinatorLeaderUpdates reads). */
const brokerWith = (id: string, registrations: Record<string, Registration>) =>
  ({ id, meta: { transactionCoordinator: TXN_COORDINATOR_ID, topics: {} }, replication: { registrations } }) as never;

const calls = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'call' ? [{ to: e.to, name: e.name, args: e.args }] : []));

describe('the one-replica coordinator is told every leader move', () => {
  const before = { 't-0': { topic: 't', partition: 0, leader: 'broker-0', leaderEpoch: 0 } };
  const moved = { 't-0': { topic: 't', partition: 0, leader: 'broker-1', leaderEpoch: 1 } };

  it('by the broker the record makes the leader, as it applies it; not by the others', () => {
    const out = new Out();
    coordinatorLeaderUpdates(brokerWith('broker-1', before), brokerWith('broker-1', moved), out);
    expect(calls(out.effects)).toEqual([
      { to: TXN_COORDINATOR_ID, name: 'partitionLeader', args: { topic: 't', partition: 0, leaderId: 'broker-1', leaderEpoch: 1 } },
    ]);
    for (const other of ['broker-0', 'broker-2']) {
      const o = new Out();
      coordinatorLeaderUpdates(brokerWith(other, before), brokerWith(other, moved), o);
      expect(calls(o.effects)).toEqual([]);
    }
  });

  it('by every broker when the record leaves the partition without a leader; nothing when the epoch did not move', () => {
    const leaderless = { 't-0': { topic: 't', partition: 0, leader: null, leaderEpoch: 1 } };
    for (const b of ['broker-1', 'broker-2']) {
      const o = new Out();
      coordinatorLeaderUpdates(brokerWith(b, before), brokerWith(b, leaderless), o);
      expect(calls(o.effects).map((c) => c.args)).toEqual([{ topic: 't', partition: 0, leaderId: null, leaderEpoch: 1 }]);
    }
    const same = new Out();
    coordinatorLeaderUpdates(brokerWith('broker-1', moved), brokerWith('broker-1', moved), same);
    expect(calls(same.effects)).toEqual([]);
  });

  it('the coordinator takes it while serving and while loading after a restart', () => {
    const scenario = {
      version: 1,
      seed: 1,
      cluster: { brokers: 3 },
      topics: [{ name: 't', partitions: 1, replicationFactor: 3 }],
      clients: [{ id: 'p', type: 'producer', config: { 'transactional.id': 'tx' }, script: [] }],
    };
    const m = drive(transactionCoordinatorMachine, inputOf(scenario, TXN_COORDINATOR_ID));
    m.send({ type: 'boot' }, 0);
    m.send({ type: 'partitionLeader', args: { topic: 't', partition: 0, leaderId: 'broker-1', leaderEpoch: 1 } }, 5);
    expect(leaderOf(m.context<TxnCoordinatorContext>().meta, 't', 0)).toBe('broker-1');
    m.send({ type: 'crash' }, 10);
    m.send({ type: 'restart' }, 20);
    m.send({ type: 'partitionLeader', args: { topic: 't', partition: 0, leaderId: 'broker-2', leaderEpoch: 2 } }, 21);
    expect(leaderOf(m.context<TxnCoordinatorContext>().meta, 't', 0)).toBe('broker-2');
  });
});

describe('a marker refused by a broker the cache no longer names', () => {
  /** tx's COMMIT marker for t-0 sent to broker-0, then refused NOT_LEADER_OR_FOLLOWER by it. */
  function refusedBy(ctx: TxnCoordinatorContext, learnFirst: boolean) {
    const d: TxnDraft = { ...ctx, txns: { tx: preparedTxn(['t-0']) } };
    const first = new Out();
    startMarkers(d, preparedTxn(['t-0']), 'COMMIT', 10, first);
    const sent = first.effects.find((e) => e.type === 'send' && e.rpc === 'WriteTxnMarkers');
    expect(sent?.type === 'send' && sent.to).toBe('broker-0');
    let c = d as TxnCoordinatorContext;
    if (learnFirst) c = onPartitionLeader(c, { topic: 't', partition: 0, leaderId: 'broker-1', leaderEpoch: 5 }, 11, new Out());
    const out = new Out();
    const correlationId = sent?.type === 'send' ? (sent.payload as { correlationId: number }).correlationId : -1;
    onMarkersResponse(
      c,
      {
        type: 'WriteTxnMarkersResponse',
        now: 12,
        from: 'broker-0',
        envelopeId: 1,
        inReplyTo: 0,
        payload: {
          correlationId,
          markers: [{ producerId: 1000, partitions: [{ topic: 't', partition: 0, error: 'NOT_LEADER_OR_FOLLOWER' }] }],
        },
      } as never,
      out,
    );
    return out.effects;
  }

  it('goes at once to the leader the cache names (Kafka queues it for that leader, no pause)', () => {
    const fx = refusedBy(bootedCoordinator(), true);
    expect(fx.flatMap((e) => (e.type === 'send' && e.rpc === 'WriteTxnMarkers' ? [e.to] : []))).toEqual(['broker-1']);
    expect(fx.some((e) => e.type === 'timer' && e.name === 'markerRetry')).toBe(false);
  });

  it('waits the model’s pause while the cache still names the broker that refused it', () => {
    const fx = refusedBy(bootedCoordinator(), false);
    expect(fx.some((e) => e.type === 'send' && e.rpc === 'WriteTxnMarkers')).toBe(false);
    expect(fx.filter((e) => e.type === 'timer' && e.name === 'markerRetry').map((e) => e.type === 'timer' && e.delay)).toEqual([100]);
  });
});
