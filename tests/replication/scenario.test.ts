/**
 * Replication in the scenario format: replicationFactor, the replica assignment, the topic and
 * cluster settings, and the slowReplication fault (issue [replication], step 1).
 */
import { describe, expect, it } from 'vitest';
import { slowLinkDelay } from '../../src/sim/kernel/faults';
import { buildScenario } from '../../src/sim/scenario/build';
import { replicaAssignment } from '../../src/sim/scenario/replicaAssignment';
import type { Scenario } from '../../src/sim/scenario/schema';
import { validateScenario } from '../../src/sim/scenario/validate';

function scenario(over: Partial<Scenario> = {}): Scenario {
  return { version: 1, seed: 1, cluster: { brokers: 3 }, topics: [{ name: 'orders', partitions: 2 }], clients: [], ...over };
}

function errorsOf(s: unknown): string[] {
  const v = validateScenario(s);
  return v.ok ? [] : v.errors.map((e) => `${e.path}: ${e.message}`);
}

describe('replicationFactor and the replica assignment', () => {
  it("stripes replicas from the partition's old leader: partition p of topic ti on brokers (ti+p+j) mod n", () => {
    expect(replicaAssignment({ name: 'a', partitions: 3, replicationFactor: 3 }, 0, 3)).toEqual([
      [0, 1, 2],
      [1, 2, 0],
      [2, 0, 1],
    ]);
    expect(replicaAssignment({ name: 'b', partitions: 2, replicationFactor: 2 }, 1, 3)).toEqual([
      [1, 2],
      [2, 0],
    ]);
    // the leaders override stays the first replica
    expect(replicaAssignment({ name: 'c', partitions: 1, replicationFactor: 2, leaders: [2] }, 0, 3)).toEqual([[2, 0]]);
  });

  it("a replication factor above the brokers is INVALID_REPLICATION_FACTOR with Kafka's message", () => {
    const errors = errorsOf(scenario({ topics: [{ name: 'orders', replicationFactor: 4 }] }));
    expect(errors).toEqual([
      'topics[0].replicationFactor: INVALID_REPLICATION_FACTOR: The target replication factor of 4 cannot be reached because only 3 broker(s) are registered.',
    ]);
  });

  it('an explicit assignment is checked: one list per partition, distinct existing brokers, the leader first', () => {
    expect(errorsOf(scenario({ topics: [{ name: 'o', partitions: 2, replicas: [[0, 1]] }] }))).toEqual([
      'topics[0].replicas: must list one replica list per partition (2)',
    ]);
    expect(errorsOf(scenario({ topics: [{ name: 'o', replicas: [[1, 1]] }] }))).toEqual([
      'topics[0].replicas[0]: a broker holds at most one replica of a partition',
    ]);
    expect(errorsOf(scenario({ topics: [{ name: 'o', replicas: [[0, 5]] }] }))).toEqual([
      'topics[0].replicas[0]: broker 5 does not exist (the cluster has 3)',
    ]);
    expect(errorsOf(scenario({ topics: [{ name: 'o', replicas: [[0, 1]], leaders: [1] }] }))).toEqual([
      'topics[0].leaders[0]: the leader must be the first replica of the partition',
    ]);
    expect(errorsOf(scenario({ topics: [{ name: 'o', replicationFactor: 3, replicas: [[0, 1]] }] }))).toEqual([
      'topics[0].replicas[0]: INVALID_REPLICATION_FACTOR: every partition needs 3 replicas, not 2',
    ]);
  });

  it("min.insync.replicas of a topic defaults to the brokers' setting; unclean election is off", () => {
    const v = validateScenario(
      scenario({
        cluster: { brokers: 3, 'min.insync.replicas': 2 },
        topics: [{ name: 'o' }, { name: 'p', config: { 'min.insync.replicas': 3 } }],
      }),
    );
    if (!v.ok) throw new Error(JSON.stringify(v.errors));
    expect(v.resolved.topics.o?.['min.insync.replicas']).toBe(2);
    expect(v.resolved.topics.p?.['min.insync.replicas']).toBe(3);
    expect(v.resolved.topics.o?.['unclean.leader.election.enable']).toBe(false);
    expect(v.resolved.cluster['replica.lag.time.max.ms']).toBe(30000);
    expect(v.resolved.cluster['replica.fetch.wait.max.ms']).toBe(500);
    expect(v.resolved.cluster['broker.heartbeat.interval.ms']).toBe(2000);
    expect(v.resolved.cluster['broker.session.timeout.ms']).toBe(9000);
  });

  it('replica.fetch.wait.max.ms above replica.lag.time.max.ms is refused as KafkaConfig does', () => {
    // KafkaConfig.validateValues: Scala's require, so "requirement failed: " before the text
    expect(errorsOf(scenario({ cluster: { brokers: 3, 'replica.fetch.wait.max.ms': 40000 } }))).toEqual([
      'cluster["replica.fetch.wait.max.ms"]: IllegalArgumentException: requirement failed: replica.fetch.wait.max.ms should always be less than or equal to replica.lag.time.max.ms to prevent frequent changes in ISR',
    ]);
  });

  it('the cluster metadata carries replica lists only for a topic with more than one replica', () => {
    const v = validateScenario(scenario({ topics: [{ name: 'one' }, { name: 'three', replicationFactor: 3 }] }));
    if (!v.ok) throw new Error(JSON.stringify(v.errors));
    const meta = buildScenario(v.resolved).meta;
    expect(meta.topics.one).toEqual({ name: 'one', partitions: 1, leaders: ['broker-0'] });
    expect(meta.topics.three?.replicas).toEqual([['broker-1', 'broker-2', 'broker-0']]);
    expect(meta.topics.three?.leaders).toEqual(['broker-1']);
  });
});

describe('the slowReplication fault', () => {
  it('is accepted with a broker target and refused with anything else', () => {
    const ok = scenario({ faults: [{ type: 'slowReplication', target: 'broker-2', at: 100, durationMs: 5000, delayMs: 400 }] });
    expect(errorsOf(ok)).toEqual([]);
    expect(errorsOf(scenario({ faults: [{ type: 'slowReplication', target: 'broker-7', delayMs: 400 }] }))[0]).toMatch(
      /^faults\[0\]\.target: broker-7 is not a broker of this scenario/,
    );
  });

  it("slows the follower's replica Fetch and the answers to it, only while active", () => {
    const v = validateScenario(
      scenario({ faults: [{ type: 'slowReplication', target: 'broker-2', at: 100, durationMs: 5000, delayMs: 400 }] }),
    );
    if (!v.ok) throw new Error('invalid');
    const faults = buildScenario(v.resolved).options.faults;
    const isBroker = (p: string) => p.startsWith('broker-');
    const fetch = { rpc: 'Fetch' as const, from: 'broker-2', to: 'broker-0' };
    const answer = { rpc: 'FetchResponse' as const, from: 'broker-0', to: 'broker-2' };
    expect(slowLinkDelay(faults, fetch, 100, isBroker)).toBe(400);
    expect(slowLinkDelay(faults, answer, 5099, isBroker)).toBe(400);
    expect(slowLinkDelay(faults, fetch, 99, isBroker)).toBe(0);
    expect(slowLinkDelay(faults, fetch, 5100, isBroker)).toBe(0);
    // another follower, and a consumer's fetch, are not slowed
    expect(slowLinkDelay(faults, { rpc: 'Fetch', from: 'broker-1', to: 'broker-0' }, 200, isBroker)).toBe(0);
    expect(slowLinkDelay(faults, { rpc: 'FetchResponse', from: 'broker-0', to: 'c1.consumer' }, 200, isBroker)).toBe(0);
  });
});
