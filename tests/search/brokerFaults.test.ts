/**
 * Broker failures in the fault space (issue 16, after [replication]): brokers crash and restart at
 * each instant they handle something, a follower's replication link is slowed (slowReplication, a
 * `delay`) from each instant its leader appends, the KRaft controller is not faulted, and a
 * scenario's own slowReplication is taken out of the configuration like every scripted failure.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import type { Scenario } from '../../src/sim/scenario/schema';
import { enumerateFaults, SLOW_REPLICATION_DELAY_MS } from '../../src/sim/search/faultSpace';
import { prepareBase, runSchedule } from '../../src/sim/search/runner';
import { searchAll } from '../../src/sim/search/search';

describe('the fault space of a replicated scenario', () => {
  const base = prepareBase(findPreset('acks-1-leader-failover-loss')?.scenario);
  const space = enumerateFaults(runSchedule(base, []));

  it('acks-1-leader-failover-loss with its own faults removed (its slowReplication and crash) includes a broker crash', () => {
    expect(findPreset('acks-1-leader-failover-loss')?.scenario.faults?.map((f) => f.type)).toEqual([
      'slowReplication',
      'slowReplication',
      'crash',
    ]);
    expect(base.fixedFaults).toEqual([]);
    const crashed = new Set(space.filter((c) => c.kind === 'crash').map((c) => c.process));
    expect([...crashed].filter((p) => p.startsWith('broker-')).sort()).toEqual(['broker-0', 'broker-1', 'broker-2']);
    expect(crashed.has('controller')).toBe(false);
    expect(space.some((c) => c.kind === 'pause' && c.process === 'controller')).toBe(false);
  });

  it('slows each follower link from each instant its leader appends, once per follower and instant', () => {
    const slow = space.filter((c) => c.fault.type === 'slowReplication');
    // two appends (a and b) on broker-0, each with two followers
    expect(slow.map((c) => `${c.process}@${c.time}`)).toEqual(['broker-1@8', 'broker-2@8', 'broker-1@3006', 'broker-2@3006']);
    expect(slow[0]?.fault).toMatchObject({ type: 'slowReplication', target: 'broker-1', at: 8, delayMs: SLOW_REPLICATION_DELAY_MS });
    expect(slow.every((c) => c.kind === 'delay')).toBe(true);
    expect(enumerateFaults(runSchedule(base, []), -1, { kinds: ['crash'] }).some((c) => c.fault.type === 'slowReplication')).toBe(false);
  });
});

/** acks and min.insync.replicas on three replicas; the followers are 20 ms from the leader. */
const replicated = (acks: '1' | 'all', minIsr: number): Scenario =>
  ({
    version: 1,
    seed: 1,
    cluster: { brokers: 3, 'min.insync.replicas': minIsr },
    network: {
      links: [
        { from: 'broker-0', to: 'broker-1', latencyMs: 20 },
        { from: 'broker-0', to: 'broker-2', latencyMs: 20 },
      ],
    },
    topics: [{ name: 'orders', replicationFactor: 3 }],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        config: { acks, 'enable.idempotence': acks === 'all', 'linger.ms': 0 },
        script: [
          { op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
          { op: 'send', at: 3000, topic: 'orders', key: 'k', value: 'b', headers: { event_id: 'e2' } },
          { op: 'send', at: 3010, topic: 'orders', key: 'k', value: 'c', headers: { event_id: 'e3' } },
        ],
      },
    ],
  }) as Scenario;

describe('Break it with broker failures: "nothing acknowledged is lost"', () => {
  it('acks=1 on three replicas: the leader crashing before its followers have a record loses it', () => {
    const r = searchAll(prepareBase(replicated('1', 1)), {
      property: { id: 'nothing-lost' },
      maxFaults: 1,
      space: { kinds: ['crash', 'delay'] },
    });
    const ce = r.counterexample;
    expect(ce?.k).toBe(1);
    expect(ce?.faults[0]).toMatchObject({ type: 'crash', target: 'broker-0' });
    expect(ce?.violation).toMatchObject({ layer: 'log', subject: 'orders', status: 'lost' });
    expect(ce?.violation.sentence).toContain('acknowledged to orders-service, then lost from the log');
  }, 120_000);

  it('acks=all with min.insync.replicas=2: no counterexample among all schedules with ≤ 1 fault', () => {
    const r = searchAll(prepareBase(replicated('all', 2)), {
      property: { id: 'nothing-lost' },
      maxFaults: 1,
      space: { kinds: ['crash', 'delay'] },
    });
    expect(r.counterexample).toBeNull();
    expect(r.completeUpTo).toBe(1);
    expect(r.tried).toBeGreaterThan(50);
  }, 120_000);
});
