/**
 * The broker's side of a controlled shutdown, driven on its own (BrokerServer.shutdown,
 * BrokerLifecycleManager's BeginControlledShutdownEvent and heartbeat handling,
 * ReplicaManager.applyLocalFollowersDelta with isInControlledShutdown): it asks in a heartbeat at
 * once and in every heartbeat after; the first answer that is no grant brings the next heartbeat
 * 50 ms later; the grant stops it cleanly (its process exits, restarting later when asked); without
 * the grant it stops after 5 minutes all the same; told that it is out of a partition's ISR, it stops
 * fetching that partition; without replication it stops at once; restarted and not yet registered
 * (not RUNNING: BeginControlledShutdownEvent's "Skipping controlled shutdown"), it stops at once
 * without one, its logs not closed.
 */
import { describe, expect, it } from 'vitest';
import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import { CONTROLLED_SHUTDOWN_TIMEOUT_MS } from '../../src/sim/broker/controlledShutdown';
import type { Effect } from '../../src/sim/kernel/effects';
import { bootedBroker } from '../machines/harness';

const replicated = { version: 1, seed: 1, cluster: { brokers: 3 }, topics: [{ name: 't', replicationFactor: 3 }], clients: [] };
const single = { version: 1, seed: 1, topics: [{ name: 't' }], clients: [] };

const heartbeats = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'send' && e.rpc === 'BrokerHeartbeat' ? [e.payload] : []));
const timer = (fx: readonly Effect[], key: string) =>
  fx.find((e): e is Extract<Effect, { type: 'timer' }> => e.type === 'timer' && e.key === key);
const exitOf = (fx: readonly Effect[]) => fx.find((e) => e.type === 'exit');
const facts = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'fact' ? [e.fact] : []));
const answer = (payload: Record<string, unknown>) => ({
  type: 'BrokerHeartbeatResponse',
  from: 'controller',
  envelopeId: 9,
  inReplyTo: 8,
  payload,
});
const stop = (restartAfterMs?: number) => ({
  type: 'controlledShutdown',
  label: 'controlled shutdown of broker-1 at 100 ms',
  ...(restartAfterMs !== undefined ? { restartAfterMs } : {}),
});

const bootedFollower = () => bootedBroker(replicated, 'broker-1');

/** The controller's record of t-0 (led by broker-0, partition epoch 1) with this ISR, naming the brokers shutting down. */
const record = (isr: string[], shuttingDownBrokers: string[] | null, envelopeId = 3) => ({
  type: 'PartitionChange',
  from: 'controller',
  envelopeId,
  inReplyTo: null,
  payload: {
    topic: 't',
    partition: 0,
    leader: 'broker-0',
    leaderEpoch: 0,
    partitionEpoch: 1,
    replicas: ['broker-0', 'broker-1', 'broker-2'],
    isr,
    election: null,
    fencedBrokers: [],
    ...(shuttingDownBrokers ? { shuttingDownBrokers } : {}),
  },
});

/** broker-1's replica Fetch of t-0 from offset 0, caught up with an empty log. */
const followerFetch = (envelopeId: number) => ({
  type: 'Fetch',
  from: 'broker-1',
  envelopeId,
  inReplyTo: null,
  payload: {
    correlationId: envelopeId,
    replicaId: 'broker-1',
    topic: 't',
    partition: 0,
    fetchOffset: 0,
    currentLeaderEpoch: 0,
    lastFetchedEpoch: -1,
    maxWaitMs: 0,
  },
});

describe('a broker in controlled shutdown', () => {
  it('asks the controller at once (BrokerHeartbeat with wantShutDown) and arms the 5-minute wait; a second request changes nothing', () => {
    const b = bootedFollower();
    const fx = b.send(stop(3000), 100);
    expect(heartbeats(fx)).toEqual([{ brokerId: 'broker-1', brokerEpoch: 0, wantShutDown: true }]);
    expect(timer(fx, 'controlledShutdownTimeout')).toMatchObject({ delay: CONTROLLED_SHUTDOWN_TIMEOUT_MS });
    expect(CONTROLLED_SHUTDOWN_TIMEOUT_MS).toBe(300_000);
    expect(b.send(stop(3000), 150)).toEqual([]);
    // every later heartbeat asks again
    expect(heartbeats(b.send({ type: 'heartbeatDue' }, 2100))).toEqual([{ brokerId: 'broker-1', brokerEpoch: 0, wantShutDown: true }]);
  });

  it('the first answer that is no grant brings the next heartbeat 50 ms later; the ones after it change nothing', () => {
    const b = bootedFollower();
    b.send(stop(), 100);
    const first = b.send(answer({ isFenced: false, inControlledShutdown: true, shouldShutDown: false }), 102);
    expect(timer(first, 'heartbeat')).toMatchObject({ name: 'heartbeatDue', delay: 50 });
    expect(b.send(answer({ isFenced: false, inControlledShutdown: true, shouldShutDown: false }), 160)).toEqual([]);
  });

  it('the grant stops it cleanly: a brokerStopped fact, its process exits (restarting when asked), its next start recovers nothing', () => {
    const b = bootedFollower();
    b.send(stop(3000), 100);
    const fx = b.send(answer({ isFenced: true, inControlledShutdown: false, shouldShutDown: true }), 160);
    expect(facts(fx)).toEqual([{ kind: 'brokerStopped', broker: 'broker-1', reason: 'granted', restartAfterMs: 3000 }]);
    expect(exitOf(fx)).toEqual({ type: 'exit', restartAfterMs: 3000, label: 'controlled shutdown of broker-1 at 100 ms' });
    expect(fx.some((e) => e.type === 'cancel' && e.key === 'controlledShutdownTimeout')).toBe(true);
    const ctx = b.context<BrokerContext>();
    expect(ctx.cleanShutdown).toBe(true);
    expect(ctx.shutdown).toBeUndefined();
    // the kernel's exit crashes the process: the clean mark survives it, and the restart reads and clears it
    b.send({ type: 'crash' }, 160);
    expect(b.context<BrokerContext>().cleanShutdown).toBe(true);
    b.send({ type: 'restart' }, 3160);
    expect(b.context<BrokerContext>().cleanShutdown).toBeUndefined();
  });

  it('an answer to a heartbeat of no shutdown is read as before: nothing happens', () => {
    const b = bootedFollower();
    expect(b.send(answer({ isFenced: false }), 10)).toEqual([]);
  });

  it('a crash during the controlled shutdown is no clean stop: the next start recovers its logs', () => {
    const b = bootedFollower();
    b.send(stop(), 100);
    b.send({ type: 'crash' }, 120);
    const ctx = b.context<BrokerContext>();
    expect(ctx.shutdown).toBeUndefined();
    expect(ctx.cleanShutdown).toBeUndefined();
  });

  it('restarted and not registered yet (refused DUPLICATE_BROKER_REGISTRATION), it skips the controlled shutdown: it stops at once, asks nothing, and its logs are not closed (the next start recovers them)', () => {
    const b = bootedFollower();
    b.send({ type: 'crash' }, 50);
    b.send({ type: 'restart' }, 1000);
    // the new incarnation's registration is refused while the old one's session is valid
    b.send(answer({ isFenced: true, error: 'DUPLICATE_BROKER_REGISTRATION' }), 1002);
    const fx = b.send(stop(3000), 1100);
    expect(facts(fx)).toEqual([{ kind: 'brokerStopped', broker: 'broker-1', reason: 'notRegistered', restartAfterMs: 3000 }]);
    expect(heartbeats(fx)).toEqual([]);
    expect(timer(fx, 'controlledShutdownTimeout')).toBeUndefined();
    expect(exitOf(fx)).toEqual({ type: 'exit', restartAfterMs: 3000, label: 'controlled shutdown of broker-1 at 100 ms' });
    const ctx = b.context<BrokerContext>();
    expect(ctx.shutdown).toBeUndefined();
    expect(ctx.cleanShutdown).toBeUndefined();
  });

  it('stopped so after a restart that followed a clean stop, its next start recovers its logs all the same (the clean shutdown file was deleted when they were loaded)', () => {
    const b = bootedFollower();
    b.send(stop(1000), 100);
    b.send(answer({ isFenced: true, inControlledShutdown: false, shouldShutDown: true }), 160);
    b.send({ type: 'crash' }, 160);
    b.send({ type: 'restart' }, 1160);
    expect(b.context<BrokerContext>().cleanShutdown).toBeUndefined();
    const fx = b.send(stop(), 1161);
    expect(facts(fx)).toEqual([{ kind: 'brokerStopped', broker: 'broker-1', reason: 'notRegistered', restartAfterMs: null }]);
    expect(b.context<BrokerContext>().cleanShutdown).toBeUndefined();
  });

  it('once an answer without an error has registered the restarted incarnation, a controlled shutdown asks the controller as usual', () => {
    const b = bootedFollower();
    b.send({ type: 'crash' }, 50);
    b.send({ type: 'restart' }, 1000);
    b.send(answer({ isFenced: false }), 1002);
    const fx = b.send(stop(), 1100);
    expect(facts(fx)).toEqual([]);
    expect(heartbeats(fx)).toEqual([{ brokerId: 'broker-1', brokerEpoch: 1, wantShutDown: true }]);
  });

  it('without the grant it stops after the 5-minute wait all the same, still cleanly', () => {
    const b = bootedFollower();
    b.send(stop(), 100);
    const fx = b.send({ type: 'controlledShutdownTimeout' }, 100 + CONTROLLED_SHUTDOWN_TIMEOUT_MS);
    expect(facts(fx)).toEqual([{ kind: 'brokerStopped', broker: 'broker-1', reason: 'timedOut', restartAfterMs: null }]);
    expect(exitOf(fx)).toMatchObject({ restartAfterMs: null });
    expect(b.context<BrokerContext>().cleanShutdown).toBe(true);
  });

  it('told it is out of the ISR, it stops fetching the partition (isInControlledShutdown); a follower not shutting down keeps fetching', () => {
    const b = bootedFollower();
    expect(b.context<BrokerContext>().replication?.following['t-0']).toBeDefined();
    b.send(stop(), 100);
    b.send(record(['broker-0', 'broker-2'], ['broker-1']), 101);
    expect(b.context<BrokerContext>().replication?.following['t-0']).toBeUndefined();
    expect(b.context<BrokerContext>().replication?.shuttingDownBrokers).toEqual(['broker-1']);
    // broker-2 is not shutting down: out of the ISR, it still follows (and fetches to catch up)
    const other = bootedBroker(replicated, 'broker-2');
    other.send(record(['broker-0', 'broker-1'], ['broker-1']), 101);
    expect(other.context<BrokerContext>().replication?.following['t-0']).toBeDefined();
  });

  it('a leader does not count or re-admit a broker in controlled shutdown (Partition.isReplicaIsrEligible)', () => {
    const leader = bootedBroker(replicated, 'broker-0');
    leader.send(record(['broker-0', 'broker-2'], ['broker-1']), 101);
    // broker-1's caught-up fetch does not bring it back into the ISR
    const fx = leader.send(followerFetch(4), 102);
    expect(fx.some((e) => e.type === 'send' && e.rpc === 'AlterPartition')).toBe(false);
    // the same fetch once the record no longer names it shutting down proposes it back
    leader.send(record(['broker-0', 'broker-2'], null, 5), 103);
    const again = leader.send(followerFetch(6), 104);
    expect(again.some((e) => e.type === 'send' && e.rpc === 'AlterPartition')).toBe(true);
  });

  it('without replication (no controller) it stops cleanly at once', () => {
    const b = bootedBroker(single, 'broker-0');
    const fx = b.send(stop(1000), 100);
    expect(heartbeats(fx)).toEqual([]);
    expect(facts(fx)).toEqual([{ kind: 'brokerStopped', broker: 'broker-0', reason: 'unreplicated', restartAfterMs: 1000 }]);
    expect(exitOf(fx)).toMatchObject({ restartAfterMs: 1000 });
  });
});
