/**
 * The readiness checklist's replication item, evaluated from the scenario (issue [replication]):
 * replication.factor of the user topics, min.insync.replicas against the replication factor and the
 * producers' acks, unclean.leader.election.enable, and the two internal topics, which stay one
 * replica in the simulator and are said to be not modelled. Topic settings are fixtures here: the
 * engine's replicationFactor / min.insync.replicas keys validate once replication is merged.
 */
import { describe, expect, it } from 'vitest';
import {
  REPLICATION_PRESETS,
  replicationItem,
  type TopicReplication,
  topicReplication,
  txnStateReplication,
} from '../src/sim/checks/checklist';
import { findPreset } from '../src/sim/presets';
import { runScenario, type Trace } from '../src/sim/run';

const en = (e: string) => e;
const ko = (_e: string, k: string) => k;
const topic = (name: string, replicationFactor: number, minInsyncReplicas = 2, uncleanLeaderElection = false): TopicReplication => ({
  name,
  replicationFactor,
  minInsyncReplicas,
  uncleanLeaderElection,
});
const allAcks = [{ client: 'orders-service', acks: -1, topics: ['orders'] }];
const statuses = (item: ReturnType<typeof replicationItem>) => Object.fromEntries(item.parts.map((p) => [p.id, p.status]));

describe('replication item', () => {
  it('RF 3, min.insync.replicas 2, acks=all, no unclean election: pass; the internal topics are said to be not modelled', () => {
    const item = replicationItem([topic('orders', 3)], allAcks, en);
    expect(item.status).toBe('pass');
    expect(statuses(item)).toEqual({
      'user-topics': 'pass',
      'min-insync': 'pass',
      unclean: 'pass',
      'transaction-state': 'not-applicable',
      'consumer-offsets': 'not-applicable',
    });
    expect(item.parts.find((p) => p.id === 'transaction-state')?.reason).toMatch(
      /^Not modelled: __transaction_state keeps one replica in the simulator .*transaction\.state\.log\.replication\.factor 3 and transaction\.state\.log\.min\.isr 2/,
    );
    expect(item.parts.find((p) => p.id === 'consumer-offsets')?.reason).toContain('offsets.topic.replication.factor 3');
    expect(item.reason).toContain('orders: min.insync.replicas 2, replication.factor 3; every producer of these topics uses acks=all');
  });

  it('acks=1 on a replicated topic fails: min.insync.replicas does not apply and a failover loses acknowledged records', () => {
    const item = replicationItem([topic('orders', 3)], [{ client: 'orders-service', acks: 1, topics: ['orders'] }], en);
    expect(item.status).toBe('fail');
    expect(statuses(item)['min-insync']).toBe('fail');
    expect(item.reason).toContain('orders-service (acks=1) does not use acks=all');
    // points at the preset that shows it once it ships, else says what it would show
    if (findPreset(REPLICATION_PRESETS.acksOne)) expect(item.preset).toBe(REPLICATION_PRESETS.acksOne);
    else expect(item.wouldShow).toBe('acks=1 and a leader failover: a record the producer saw acknowledged is gone from the new leader.');
  });

  it('min.insync.replicas 1, or equal to the replication factor, fails; a producer of another topic does not count', () => {
    const one = replicationItem([topic('orders', 3, 1)], allAcks, en);
    expect(one.status).toBe('fail');
    expect(one.reason).toContain('min.insync.replicas below 2 (orders: min.insync.replicas 1, replication.factor 3)');
    const all = replicationItem([topic('orders', 3, 3)], allAcks, en);
    expect(all.reason).toContain('min.insync.replicas equals the replication factor');
    expect(all.reason).toContain('NOT_ENOUGH_REPLICAS');
    const elsewhere = replicationItem([topic('orders', 3)], [{ client: 'audit', acks: 1, topics: ['audit-log'] }], en);
    expect(statuses(elsewhere)['min-insync']).toBe('pass');
  });

  it('replication.factor 2 fails the user topics; unclean.leader.election.enable=true fails its part', () => {
    const two = replicationItem([topic('orders', 2, 1)], allAcks, en);
    expect(statuses(two)['user-topics']).toBe('fail');
    expect(two.parts[0]?.reason).toContain('replication.factor below 3 (orders 2)');
    const unclean = replicationItem([topic('orders', 3, 2, true)], allAcks, en);
    expect(statuses(unclean)).toMatchObject({ 'user-topics': 'pass', 'min-insync': 'pass', unclean: 'fail' });
    expect(unclean.reason).toContain('unclean.leader.election.enable=true on orders');
    // the preset that shows it is shipped: the failure links it
    expect(unclean.preset).toBe(REPLICATION_PRESETS.unclean);
    expect(findPreset(REPLICATION_PRESETS.unclean)?.id).toBe('unclean-election-loses-committed');
    // every failure points exactly one way
    for (const item of [two, unclean]) expect([item.preset !== undefined, item.wouldShow !== undefined].filter(Boolean)).toHaveLength(1);
  });

  it('one replica everywhere: not applicable, saying the scenario does not exercise replication, in both languages', () => {
    const item = replicationItem([topic('orders', 1, 1), topic('out', 1, 1)], allAcks, en);
    expect(item.status).toBe('not-applicable');
    expect(item.reason).toMatch(/^Every topic here has one replica \(replication\.factor 1: orders, out\)/);
    expect(item.parts.map((p) => p.id)).toEqual(['transaction-state', 'consumer-offsets']);
    expect(replicationItem([topic('orders', 1, 1)], allAcks, ko).reason).toMatch(/^이 시나리오의 토픽은 모두 복제본이 하나/);
  });
});

describe('topic replication settings read from the scenario', () => {
  const trace = runScenario(findPreset('opening-story')?.scenario);
  it("today's presets: replication.factor 1 (default.replication.factor), min.insync.replicas 1, no unclean election", () => {
    expect(topicReplication(trace)).toEqual(trace.scenario.topics.map((t) => topic(t.name, 1, 1, false)));
  });

  it('reads replicationFactor, else the replica assignment, and the topic then cluster configs', () => {
    const first = trace.scenario.topics[0];
    if (!first) throw new Error('no topic');
    const fake = {
      ...trace,
      scenario: {
        ...trace.scenario,
        topics: [
          { ...first, name: 'a', replicationFactor: 3 },
          {
            ...first,
            name: 'b',
            replicas: [
              [0, 1],
              [1, 2],
            ],
          },
        ],
      },
      resolved: {
        ...trace.resolved,
        cluster: { ...trace.resolved.cluster, 'min.insync.replicas': 2 },
        topics: { a: { 'unclean.leader.election.enable': true }, b: { 'min.insync.replicas': 1 } },
      },
    } as unknown as Trace;
    expect(topicReplication(fake)).toEqual([topic('a', 3, 2, true), topic('b', 2, 1, false)]);
  });
});

describe('replication item: the transaction state topic (transaction.state.log.replication.factor / min.isr set)', () => {
  const part = (rf: number, minIsr: number | null) =>
    replicationItem([topic('orders', 3)], allAcks, en, { replicationFactor: rf, minIsr }).parts.find((p) => p.id === 'transaction-state');
  it('RF 3, min ISR 2: pass, judged from the scenario', () => {
    expect(part(3, 2)).toMatchObject({ status: 'pass' });
    expect(part(3, 2)?.reason).toContain('transaction.state.log.replication.factor 3, transaction.state.log.min.isr 2');
  });
  it('min ISR 1 (a write acknowledged by the leader alone), min ISR = RF, or RF 2: fail, pointing at transaction-state-under-replicated', () => {
    for (const [rf, minIsr] of [
      [3, 1],
      [3, 3],
      [2, 2],
    ] as const) {
      const item = replicationItem([topic('orders', 3)], allAcks, en, { replicationFactor: rf, minIsr });
      expect(statuses(item)['transaction-state']).toBe('fail');
      expect(item.status).toBe('fail');
      expect(item.preset).toBe('transaction-state-under-replicated');
    }
  });
  it('judged even when every user topic has one replica; Korean too', () => {
    const item = replicationItem([topic('orders', 1)], allAcks, ko, { replicationFactor: 3, minIsr: 2 });
    expect(statuses(item)['transaction-state']).toBe('pass');
    expect(item.parts.find((p) => p.id === 'transaction-state')?.reason).toContain('코디네이터');
  });
  it('the preset transaction-state-under-replicated: its settings read from the scenario, and every part but __consumer_offsets passes', () => {
    const preset = findPreset('transaction-state-under-replicated');
    const trace = runScenario(preset?.scenario as never) as Trace;
    expect(txnStateReplication(trace)).toEqual({ replicationFactor: 3, minIsr: 2 });
    const item = replicationItem(
      topicReplication(trace),
      [{ client: 'payment-service', acks: -1, topics: ['payments'] }],
      en,
      txnStateReplication(trace),
    );
    expect(statuses(item)).toEqual({
      'user-topics': 'pass',
      'min-insync': 'pass',
      unclean: 'pass',
      'transaction-state': 'pass',
      'consumer-offsets': 'not-applicable',
    });
  });
});
