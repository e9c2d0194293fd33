/**
 * A broker fenced while it is in no ISR: handleBrokerFenced changes no partition, but it always
 * writes a BrokerRegistrationChangeRecord, which every broker applies — so a leader no longer takes
 * the fenced broker as ISR-eligible (Partition.isReplicaIsrEligible reads `isBrokerFenced`): it
 * proposes no ISR expansion for it and does not wait for it in maybeIncrementLeaderHW. In the model
 * partition records carry the fencing; when the fencing changed none, every partition's record,
 * unchanged, carries it. On the old code no record went out, and the leader proposed broker-2 to the
 * ISR at each of its fetches from 11.5 s to 17.5 s, refused INELIGIBLE_REPLICA 13 times.
 *
 * broker-2's replication is slow from 1.5 s (it leaves the ISR at 4 s, replica.lag.time.max.ms 2 s)
 * and its heartbeats from the second on are dropped: fenced at 9 s, unfenced when they come back.
 */
import { describe, expect, it } from 'vitest';
import { runScenario, stateAt } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { EnvelopeRecord } from '../../src/sim/views';

const scenario = {
  version: 1,
  id: 'fenced-out-of-isr',
  seed: 1,
  cluster: { brokers: 3, 'min.insync.replicas': 2, 'replica.lag.time.max.ms': 2000 },
  topics: [{ name: 'orders', replicationFactor: 3 }],
  clients: [
    {
      id: 'p',
      type: 'producer',
      config: { acks: 'all' },
      script: [
        { op: 'send', at: 1000, topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'e{i}' }, count: 1 },
        { op: 'send', at: 2000, topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'f{i}' }, count: 1 },
        { op: 'send', at: 3000, topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'g{i}' }, count: 1 },
        { op: 'send', at: 4000, topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'h{i}' }, count: 1 },
        { op: 'send', at: 5000, topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'i{i}' }, count: 1 },
        { op: 'send', at: 6000, topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'j{i}' }, count: 1 },
        { op: 'send', at: 7000, topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'k{i}' }, count: 1 },
        { op: 'send', at: 8000, topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'l{i}' }, count: 1 },
        { op: 'send', at: 9000, topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'm{i}' }, count: 1 },
        { op: 'send', at: 9500, topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'n{i}' }, count: 1 },
      ],
    },
  ],
  faults: [
    { type: 'slowReplication', target: 'broker-2', at: 1500, durationMs: 9000, delayMs: 2500 },
    { type: 'drop', rpc: 'BrokerHeartbeat', from: 'broker-2', nth: 2, count: 8 },
  ],
} as unknown as Scenario;

describe('a broker fenced outside every ISR', () => {
  const trace = runScenario(scenario);
  const all = [...Array(trace.envelopes.length).keys()].map((i) => trace.envelopes.at(i) as EnvelopeRecord);
  const fencedAt = trace.steps.find((s) => s.actor === 'controller' && s.label === 'sessionExpired') as { i: number; t: number };
  const unfencedAt = all.find(
    (e) =>
      e.rpc === 'BrokerHeartbeatResponse' && e.to === 'broker-2' && e.sentAt > fencedAt.t && !(e.payload as { isFenced: boolean }).isFenced,
  ) as EnvelopeRecord;

  it('every broker learns the fencing, though no partition changed', () => {
    expect(fencedAt.t).toBeGreaterThan(8000);
    const view = stateAt(trace, fencedAt.i + 10);
    for (const b of ['broker-0', 'broker-1']) {
      const rep = (view.actors.get(b)?.context as { replication: { fencedBrokers: string[] } }).replication;
      expect(rep.fencedBrokers).toEqual(['broker-2']);
    }
  });

  it('the leader proposes broker-2 to the ISR only once it is unfenced', () => {
    const proposals = all.filter((e) => e.rpc === 'AlterPartition' && (e.payload as { newIsr: string[] }).newIsr.includes('broker-2'));
    expect(proposals.length).toBe(1);
    expect(proposals[0]?.sentAt).toBeGreaterThan(unfencedAt.sentAt);
    const refused = all.filter(
      (e) => e.rpc === 'AlterPartitionResponse' && (e.payload as { error: string }).error === 'INELIGIBLE_REPLICA',
    );
    expect(refused).toEqual([]);
  });
});
