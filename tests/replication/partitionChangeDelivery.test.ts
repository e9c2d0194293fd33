/**
 * PartitionChange delivery tested directly: the controller resends an unanswered record (the
 * partition's current registration) to a live broker, and a broker applies a record of the same
 * partition epoch as a fencing change only (KRaft's BrokerRegistrationChangeRecord); a leader sends
 * a disconnected AlterPartition again as it was (NodeToControllerRequestThread re-queues it).
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { initialReplication, onPartitionChange, onReplicationRequestLost } from '../../src/sim/broker/replication';
import { type ControllerContext, onPartitionChangeLost } from '../../src/sim/controller/controller.machine';
import type { DisconnectedEvent } from '../../src/sim/kernel/effects';
import type { PartitionChange } from '../../src/sim/protocol/replicationMessages';

const reg = {
  topic: 't',
  partition: 0,
  replicas: ['b0', 'b1', 'b2'],
  isr: ['b1', 'b2'],
  leader: 'b1',
  leaderEpoch: 1,
  partitionEpoch: 1,
};
const ctx: ControllerContext = {
  id: 'controller',
  brokers: { b0: { epoch: 0, fenced: true }, b1: { epoch: 0, fenced: false }, b2: { epoch: 0, fenced: false } },
  partitions: { 't-0': reg },
  unclean: {},
  sessionTimeoutMs: 9000,
};
const lost = (to: string, payload: object, timedOut = true): DisconnectedEvent => ({
  type: 'disconnected',
  now: 30001,
  envelopeId: 7,
  to,
  rpc: 'PartitionChange',
  payload: payload as Record<string, unknown>,
  timedOut,
  reason: timedOut ? 'timeout' : 'peer-down',
});

describe('the controller resends an unanswered PartitionChange', () => {
  it('a timed-out record to a live broker is sent again as the current registration', () => {
    const out = new Out();
    onPartitionChangeLost(ctx, lost('b2', { topic: 't', partition: 0, partitionEpoch: 0, election: null }), out);
    expect(out.effects).toMatchObject([
      { type: 'send', to: 'b2', rpc: 'PartitionChange', payload: { leader: 'b1', leaderEpoch: 1, partitionEpoch: 1, isr: ['b1', 'b2'] } },
    ]);
    expect(out.effects[0]).not.toHaveProperty('expectResponse');
  });

  it('a fenced broker, or one that went down (not a timeout), is not chased: it gets every record when it registers again', () => {
    const out = new Out();
    onPartitionChangeLost(ctx, lost('b0', { topic: 't', partition: 0, partitionEpoch: 1 }), out);
    onPartitionChangeLost(ctx, lost('b2', { topic: 't', partition: 0, partitionEpoch: 1 }, false), out);
    expect(out.effects).toEqual([]);
  });
});

describe('a broker applies a PartitionChange of the same partition epoch as a fencing change only', () => {
  it('the fenced brokers are updated, nothing else happens', () => {
    const change: PartitionChange & { fencedBrokers: string[] } = { ...reg, election: null, fencedBrokers: ['b0'] };
    const broker = {
      id: 'b1',
      partitions: {},
      replication: { ...initialReplication({} as never), registrations: { 't-0': change }, fencedBrokers: ['b0'] },
    };
    const out = new Out();
    const next = onPartitionChange(broker as never, { ...change, fencedBrokers: [] }, 21001, out) as unknown as typeof broker;
    expect(next.replication.fencedBrokers).toEqual([]);
    expect(next.replication.registrations).toBe(broker.replication.registrations);
    expect(out.effects).toEqual([]);
  });
});

describe('a disconnected AlterPartition is sent again as it was', () => {
  const request = {
    correlationId: 4,
    topic: 't',
    partition: 0,
    leaderId: 'b1',
    leaderEpoch: 1,
    partitionEpoch: 1,
    newIsr: ['b1', 'b2', 'b0'],
  };
  const leader = (leaderEpoch: number) => ({
    id: 'b1',
    partitions: {},
    replication: {
      ...initialReplication({ controller: 'controller' } as never),
      nextId: 9,
      alterInFlight: { 4: 't-0' },
      leading: { 't-0': { topic: 't', partition: 0, leaderEpoch, proposedIsr: ['b1', 'b2', 'b0'] } },
    },
  });

  it('with a new correlation id, the proposal kept pending', () => {
    const out = new Out();
    const next = onReplicationRequestLost(leader(1) as never, 4, out, request) as unknown as ReturnType<typeof leader>;
    expect(out.effects).toMatchObject([
      { type: 'send', to: 'controller', rpc: 'AlterPartition', payload: { ...request, correlationId: 9 } },
    ]);
    expect(next.replication.alterInFlight).toEqual({ 9: 't-0' });
    expect(next.replication.leading['t-0']?.proposedIsr).toEqual(['b1', 'b2', 'b0']);
  });

  it('not by a leader of a newer epoch: the request is forgotten', () => {
    const out = new Out();
    const next = onReplicationRequestLost(leader(2) as never, 4, out, request) as unknown as ReturnType<typeof leader>;
    expect(out.effects).toEqual([]);
    expect(next.replication.alterInFlight).toEqual({});
  });
});
