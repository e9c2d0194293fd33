/**
 * PartitionChange delivery tested directly: the controller resends an unanswered record (the
 * partition's current registration) to a live broker, and a broker applies a record of the same
 * partition epoch as a fencing change only (KRaft's BrokerRegistrationChangeRecord); a leader sends
 * a disconnected AlterPartition again as it was (NodeToControllerRequestThread re-queues it).
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../../src/sim/actors/out';
import { initialReplication, onPartitionChange, onReplicationRequestLost } from '../../src/sim/broker/replication';
import { type ControllerContext, fenceBroker, onHeartbeat, onPartitionChangeLost } from '../../src/sim/controller/controller.machine';
import type { DisconnectedEvent } from '../../src/sim/kernel/effects';
import type { PartitionChange } from '../../src/sim/protocol/replicationMessages';
import { keyOf } from '../../src/sim/protocol/topicPartition';
import { runScenario } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';

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

  it('a fenced broker is not chased: it gets every record when it registers again', () => {
    const out = new Out();
    expect(onPartitionChangeLost(ctx, lost('b0', { topic: 't', partition: 0, partitionEpoch: 1 }), out)).toBe(ctx);
    expect(out.effects).toEqual([]);
  });

  it('a live broker whose connection broke (not a timeout) gets the record at its next heartbeat, as the registration is then', () => {
    const out = new Out();
    const missed = onPartitionChangeLost(ctx, lost('b2', { topic: 't', partition: 0, partitionEpoch: 1 }, false), out);
    // nothing at once: a broken connection refuses a resend at once too
    expect(out.effects).toEqual([]);
    expect(missed.missed).toEqual({ b2: ['t-0'] });
    const beat = new Out();
    const after = onHeartbeat(
      missed,
      {
        type: 'BrokerHeartbeat',
        from: 'b2',
        envelopeId: 9,
        inReplyTo: null,
        now: 32000,
        payload: { brokerId: 'b2', brokerEpoch: 0 },
      } as never,
      beat,
    );
    expect(beat.effects.filter((e) => e.type === 'send' && e.rpc === 'PartitionChange')).toMatchObject([
      { to: 'b2', payload: { leader: 'b1', leaderEpoch: 1, partitionEpoch: 1 } },
    ]);
    expect(after.missed).toBeUndefined();
    // fenced meanwhile: it will get every record when it registers again
    const fencedOut = new Out();
    expect(fenceBroker(missed, 'b2', fencedOut).missed).toBeUndefined();
  });
});

describe('as a whole run: the record electing a new leader is lost to a reset', () => {
  it('the new leader learns it at its next heartbeat and takes the writes; nothing is lost', () => {
    const trace = runScenario({
      version: 1,
      seed: 1,
      cluster: { brokers: 3 },
      topics: [{ name: 'orders', replicationFactor: 3 }],
      clients: [
        {
          id: 'p',
          type: 'producer',
          config: { acks: 'all' },
          script: [
            { op: 'send', at: 1000, topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
            { op: 'send', at: 12000, topic: 'orders', key: 'k', value: 'b', headers: { event_id: 'e2' } },
          ],
        },
      ],
      faults: [
        { type: 'crash', target: 'broker-0', at: 2000, durationMs: 600000 },
        { type: 'reset', rpc: 'PartitionChange', to: 'broker-1', nth: 1 },
      ],
    });
    const log = summarize(trace).partitions.find((p) => keyOf(p) === 'orders-0');
    expect(log?.records.map((r) => r.value)).toEqual(['a', 'b']);
    // e2 is acknowledged within seconds of its send (a heartbeat), not after delivery.timeout.ms
    const e2 = trace.steps.flatMap((st) =>
      (st.facts as { kind: string; eventId?: string; error?: string | null }[])
        .filter((f) => f.kind === 'sendResult' && f.eventId === 'e2')
        .map((f) => ({ t: st.t, error: f.error })),
    );
    expect(e2).toHaveLength(1);
    expect(e2[0]?.error).toBeNull();
    expect(e2[0]?.t).toBeLessThan(20000);
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
