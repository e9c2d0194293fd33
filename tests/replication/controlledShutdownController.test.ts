/**
 * The controller's side of a broker's controlled shutdown, tested on the controller directly
 * (ReplicationControlManager.processBrokerHeartbeat, BrokerHeartbeatManager.calculateNextBrokerState,
 * handleBrokerInControlledShutdown → generateLeaderAndIsrUpdates, clusterControl.isActive; Kafka 4.0
 * without ELR): a heartbeat with wantShutDown from a broker that leads partitions puts it in
 * CONTROLLED_SHUTDOWN — it leaves every ISR and its leaderships move, not yet told to stop; the next
 * one, leading nothing, fences it and says shouldShutDown; a broker in controlled shutdown is neither
 * elected nor let back into an ISR; the stopped broker's next incarnation registers at once.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import {
  alterPartition,
  type ControllerContext,
  fenceBroker,
  hasLeaderships,
  onHeartbeat,
} from '../../src/sim/controller/controller.machine';
import { heartbeat as anyHeartbeat, threeBrokers } from './controllerRequests';

// b0 leads t-0 with everyone in sync, and u-0 alone in its ISR; b1 leads v-0 with b0 in sync
const ctx = threeBrokers({
  'v-0': { topic: 'v', partition: 0, replicas: ['b1', 'b0'], isr: ['b1', 'b0'], leader: 'b1', leaderEpoch: 0, partitionEpoch: 0 },
});

/** A heartbeat asking to shut down, unless told otherwise. */
const heartbeat = (brokerId: string, brokerEpoch: number, wantShutDown = true) => anyHeartbeat(brokerId, brokerEpoch, wantShutDown);

const answerOf = (out: Out) => out.effects.find((e) => e.type === 'send' && e.rpc === 'BrokerHeartbeatResponse');
const records = (out: Out) =>
  out.effects.flatMap((e) => (e.type === 'send' && e.rpc === 'PartitionChange' && e.to === 'b2' ? [e.payload] : []));

describe('a heartbeat with wantShutDown, at the controller', () => {
  it('from an unfenced broker that leads partitions: CONTROLLED_SHUTDOWN — out of every ISR, its leaderships moved or offline, not yet told to stop', () => {
    const out = new Out();
    const next = onHeartbeat(ctx, heartbeat('b0', 0), out);
    expect(next.brokers.b0).toEqual({ epoch: 0, fenced: false, inControlledShutdown: true });
    expect(answerOf(out)).toMatchObject({ payload: { isFenced: false, inControlledShutdown: true, shouldShutDown: false } });
    // t-0: b1, the first other ISR member in assignment order, leads; u-0 keeps its last ISR member and has no leader
    expect(next.partitions['t-0']).toMatchObject({ leader: 'b1', isr: ['b1', 'b2'], leaderEpoch: 1, partitionEpoch: 1 });
    expect(next.partitions['u-0']).toMatchObject({ leader: null, isr: ['b0'], leaderEpoch: 1, partitionEpoch: 3 });
    // v-0, which b0 only followed, loses it from its ISR; its leader stays
    expect(next.partitions['v-0']).toMatchObject({ leader: 'b1', isr: ['b1'], leaderEpoch: 0, partitionEpoch: 1 });
    expect(hasLeaderships(next, 'b0')).toBe(false);
    // every record names the broker shutting down (no leader adds it to an ISR: isReplicaIsrEligible)
    expect(records(out).map((r) => [r.topic, r.shuttingDownBrokers])).toEqual([
      ['t', ['b0']],
      ['u', ['b0']],
      ['v', ['b0']],
    ]);
    // the session deadline moves on, as at any heartbeat
    expect(out.effects.some((e) => e.type === 'timer' && e.key === 'session:b0')).toBe(true);
  });

  it('with unclean.leader.election.enable, the last ISR member’s partition goes to an out-of-sync replica, uncleanly (electAnyLeader)', () => {
    const out = new Out();
    const next = onHeartbeat({ ...ctx, unclean: { u: true } }, heartbeat('b0', 0), out);
    expect(next.partitions['u-0']).toMatchObject({ leader: 'b1', isr: ['b1'], leaderEpoch: 1, partitionEpoch: 3 });
    expect(out.effects.flatMap((e) => (e.type === 'fact' && e.fact.kind === 'leaderChange' ? [e.fact] : []))).toContainEqual(
      expect.objectContaining({ topic: 'u', leader: 'b1', election: 'unclean' }),
    );
  });

  it('fenced by its session during the controlled shutdown (heartbeats late), its next heartbeat is granted: shouldShutDown', () => {
    const pending = onHeartbeat(ctx, heartbeat('b0', 0), new Out());
    const expired = fenceBroker(pending, 'b0', new Out());
    const out = new Out();
    const next = onHeartbeat(expired, heartbeat('b0', 0), out);
    expect(next.brokers.b0).toEqual({ epoch: 0, fenced: true });
    expect(answerOf(out)).toMatchObject({ payload: { isFenced: true, shouldShutDown: true } });
  });

  it('the next one, leading nothing: SHUTDOWN_NOW — fenced (handleBrokerFenced), shouldShutDown', () => {
    const pending = onHeartbeat(ctx, heartbeat('b0', 0), new Out());
    const out = new Out();
    const next = onHeartbeat(pending, heartbeat('b0', 0), out);
    expect(next.brokers.b0).toEqual({ epoch: 0, fenced: true });
    expect(answerOf(out)).toMatchObject({ payload: { isFenced: true, inControlledShutdown: false, shouldShutDown: true } });
    // nothing left to move: every record goes out again with the fencing, and without the shutdown
    expect(next.partitions).toEqual(pending.partitions);
    expect(records(out).map((r) => [r.topic, r.fencedBrokers, r.shuttingDownBrokers])).toEqual([
      ['t', ['b0'], undefined],
      ['u', ['b0'], undefined],
      ['v', ['b0'], undefined],
    ]);
  });

  it('from an unfenced broker that leads nothing: SHUTDOWN_NOW at once', () => {
    const out = new Out();
    const next = onHeartbeat(ctx, heartbeat('b2', 0), out);
    expect(next.brokers.b2).toEqual({ epoch: 0, fenced: true });
    expect(answerOf(out)).toMatchObject({ payload: { shouldShutDown: true } });
    expect(next.partitions['t-0']).toMatchObject({ leader: 'b0', isr: ['b0', 'b1'] });
  });

  it('from a fenced broker: SHUTDOWN_NOW, and it is not unfenced as a plain heartbeat of its incarnation would be', () => {
    const fenced = fenceBroker(ctx, 'b2', new Out());
    const out = new Out();
    const next = onHeartbeat(fenced, heartbeat('b2', 0), out);
    expect(next.brokers.b2).toEqual({ epoch: 0, fenced: true });
    expect(answerOf(out)).toMatchObject({ payload: { shouldShutDown: true } });
    const plain = onHeartbeat(fenced, heartbeat('b2', 0, false), new Out());
    expect(plain.brokers.b2).toEqual({ epoch: 0, fenced: false });
  });

  it('a broker in controlled shutdown is not elected when another broker is fenced (not isActive)', () => {
    const pending = onHeartbeat(ctx, heartbeat('b0', 0), new Out());
    // b1 leads v-0 with ISR [b1] now; were b0 still in the ISR it would not be acceptable either
    const both: ControllerContext = {
      ...pending,
      partitions: {
        ...pending.partitions,
        'w-0': { topic: 'w', partition: 0, replicas: ['b1', 'b0'], isr: ['b1', 'b0'], leader: 'b1', leaderEpoch: 0, partitionEpoch: 0 },
      },
    };
    const next = fenceBroker(both, 'b1', new Out());
    expect(next.partitions['w-0']).toMatchObject({ leader: null, isr: ['b0'] });
  });

  it('an AlterPartition adding a broker in controlled shutdown to an ISR is refused INELIGIBLE_REPLICA', () => {
    const pending = onHeartbeat(ctx, heartbeat('b0', 0), new Out());
    const reg = pending.partitions['t-0'];
    if (!reg) throw new Error('no t-0');
    const r = alterPartition(pending, {
      topic: 't',
      partition: 0,
      leaderId: 'b1',
      leaderEpoch: reg.leaderEpoch,
      partitionEpoch: reg.partitionEpoch,
      newIsr: ['b1', 'b2', 'b0'],
    });
    expect(r.error).toBe('INELIGIBLE_REPLICA');
  });

  it('the stopped broker’s next incarnation registers at once: the old one was fenced at SHUTDOWN_NOW (no DUPLICATE_BROKER_REGISTRATION)', () => {
    const stopped = onHeartbeat(onHeartbeat(ctx, heartbeat('b0', 0), new Out()), heartbeat('b0', 0), new Out());
    const out = new Out();
    const next = onHeartbeat(stopped, heartbeat('b0', 1, false), out);
    expect(answerOf(out)).toMatchObject({ payload: { isFenced: false } });
    expect(next.brokers.b0).toEqual({ epoch: 1, fenced: false });
    // u-0's only ISR member is back: elected again, cleanly
    expect(next.partitions['u-0']).toMatchObject({ leader: 'b0', isr: ['b0'] });
  });
});
