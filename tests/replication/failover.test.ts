/**
 * Scenario-level failover in the engine (the client side — producers following the new leader — is
 * repl-clients' work): the leader broker-0 writes a record with acks=1 that no follower fetched (its
 * followers' replication link is slow), then crashes. The controller fences it after
 * broker.session.timeout.ms and elects broker-1 from the ISR (leader epoch 1). When broker-0 returns
 * it re-registers, follows broker-1, gets a DivergingEpoch and truncates the acknowledged record:
 * the acks=1 loss of `acks-1-leader-failover-loss`.
 */
import { describe, expect, it } from 'vitest';
import { stateAt } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { runWith } from '../presets/helpers';

const scenario: Scenario = {
  version: 1,
  seed: 1,
  cluster: { brokers: 3 },
  topics: [{ name: 'orders', replicationFactor: 3 }],
  clients: [
    {
      id: 'p1',
      type: 'producer',
      config: { acks: '1', 'enable.idempotence': false },
      script: [
        { op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
        { op: 'send', at: 3000, topic: 'orders', key: 'k', value: 'b', headers: { event_id: 'e2' } },
      ],
    },
  ],
  faults: [
    { type: 'slowReplication', target: 'broker-1', at: 2000, durationMs: 1500, delayMs: 1000 },
    { type: 'slowReplication', target: 'broker-2', at: 2000, durationMs: 1500, delayMs: 1000 },
    { type: 'crash', target: 'broker-0', at: 3020, durationMs: 20000 },
  ],
};

describe('leader failover with acks=1', () => {
  const r = runWith(scenario);
  const end = stateAt(r.trace, r.trace.steps.length - 1);
  const values = (broker: string) =>
    (
      end.actors.get(broker)?.context as {
        partitions: Record<string, { batches: { toArray(): { records: { value: string | null }[] }[] } }>;
      }
    ).partitions['orders-0']?.batches
      .toArray()
      .flatMap((b) => b.records.map((x) => x.value));

  it('b is acknowledged by broker-0 alone before it crashes (linger.ms 5: the batch leaves at 3005)', () => {
    expect(r.facts('sendResult').map((f) => [f.eventId, f.error, f.offset])).toEqual([
      ['e1', null, 0],
      ['e2', null, 1],
    ]);
  });

  it('the controller fences broker-0 after the session timeout and elects broker-1 from the ISR, leader epoch 1', () => {
    const change = r.facts('leaderChange')[0];
    expect(change).toMatchObject({ leader: 'broker-1', leaderEpoch: 1, election: 'clean', isr: ['broker-1', 'broker-2'] });
    const at = r.trace.steps.find((s) => (s.facts as { kind: string }[]).some((f) => f.kind === 'leaderChange'))?.t;
    expect(at).toBeGreaterThanOrEqual(3020 + 9000 - 2000);
  });

  it('broker-0 returns, follows broker-1 and truncates the acknowledged b; every replica ends with a only', () => {
    const cut = r.facts('truncated');
    expect(cut).toEqual([
      {
        kind: 'truncated',
        broker: 'broker-0',
        topic: 'orders',
        partition: 0,
        fromOffset: 1,
        toOffset: 2,
        leaderEpoch: 1,
        eventIds: ['e2'],
      },
    ]);
    expect(values('broker-0')).toEqual(['a']);
    expect(values('broker-1')).toEqual(['a']);
    expect(values('broker-2')).toEqual(['a']);
    expect(r.partition('orders-0').replication).toMatchObject({ leader: 'broker-1', leaderEpoch: 1 });
  });
});
