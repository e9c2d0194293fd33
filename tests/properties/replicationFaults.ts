/**
 * Random scenarios with replicated topics (issue [replication]) for the property tests and the
 * fuzzer: the shapes of arbitraries.ts (producers with acks 0/1/all, consumers in every mode, the
 * existing faults) on 2–3 brokers, every topic with replication.factor 2–3, min.insync.replicas 1–2
 * and unclean.leader.election.enable on or off, plus faults aimed at brokers — crash (and restart
 * after a while), restart, pause, a controlled shutdown (restarting after a while, or not) — and
 * slow replication links (`slowReplication`), with short
 * replica.lag.time.max.ms and broker.session.timeout.ms so that ISR shrinks, fencing and elections
 * happen within a run; in about half the cases the internal topics are replicated too, so the
 * transaction and group coordinators live on their partitions' leaders and move with them.
 *
 * The replication part is drawn beside the base shape, so the other families' draws do not change.
 */
import fc from 'fast-check';
import type { FaultSpec, Scenario } from '../../src/sim/scenario/schema';
import { type ShapeOptions, scenarioFromShape, shapeArbWith } from './arbitraries';

const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

const brokerFaultArb = fc.record({
  type: fc.constantFrom('crash', 'crash', 'crash', 'restart', 'pause'),
  broker: fc.nat(2),
  at: fc.integer({ min: 0, max: 30000 }),
  // crash: restart this long after; pause: resume this long after (absent: down or paused to the end)
  durationMs: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 100, max: 30000 }) }, { weight: 1, arbitrary: fc.constant(undefined) }),
});

const slowArb = fc.record({
  broker: fc.nat(2),
  at: fc.integer({ min: 0, max: 20000 }),
  durationMs: opt(fc.integer({ min: 500, max: 30000 })),
  delayMs: fc.integer({ min: 100, max: 20000 }),
});

const replicationArb = fc.record({
  brokers: fc.integer({ min: 2, max: 3 }),
  /** Per topic (taken modulo): replication factor, min.insync.replicas, unclean election. */
  topics: fc.array(
    fc.record({
      replicationFactor: fc.integer({ min: 2, max: 3 }),
      minIsr: fc.integer({ min: 1, max: 2 }),
      unclean: fc.boolean(),
    }),
    { minLength: 1, maxLength: 3 },
  ),
  replicaLagTimeMaxMs: fc.constantFrom(undefined, 2000, 5000, 10000),
  sessionTimeoutMs: fc.constantFrom(undefined, 3000, 6000),
  brokerFaults: fc.array(brokerFaultArb, { minLength: 1, maxLength: 3 }),
  /** Aim every broker fault at one broker (the single failure acks-all-survives is about). */
  oneBroker: fc.boolean(),
  slow: fc.array(slowArb, { minLength: 0, maxLength: 3 }),
  /**
   * The internal topics: `__transaction_state` and `__consumer_offsets` replicated too (their
   * coordinators then live on the partitions' leaders and move with them), or one replica each.
   */
  internal: fc.option(fc.record({ replicationFactor: fc.integer({ min: 2, max: 3 }), minIsr: fc.integer({ min: 1, max: 2 }) }), {
    nil: undefined,
  }),
  /** Controlled shutdowns (an operator's stop, a rolling restart's step); drawn last, so the draws above stay as they were. */
  shutdowns: fc.array(
    fc.record({ broker: fc.nat(2), at: fc.integer({ min: 0, max: 30000 }), durationMs: opt(fc.integer({ min: 100, max: 30000 })) }),
    { minLength: 0, maxLength: 2 },
  ),
});

export type ReplicationShape = typeof replicationArb extends fc.Arbitrary<infer T> ? T : never;

/** Makes a scenario's topics replicated and adds the broker faults and slow links of the shape. */
export function withReplication(scenario: Scenario, r: ReplicationShape): Scenario {
  const brokers = Math.max(r.brokers, Number(scenario.cluster?.brokers ?? 1));
  const topics = scenario.topics.map((t, i) => {
    const spec = r.topics[i % r.topics.length] as ReplicationShape['topics'][number];
    return {
      ...t,
      replicationFactor: Math.min(spec.replicationFactor, brokers),
      config: { ...t.config, 'min.insync.replicas': spec.minIsr, 'unclean.leader.election.enable': spec.unclean },
    };
  });
  const faults: FaultSpec[] = [...(scenario.faults ?? [])];
  const victim = r.brokerFaults[0]?.broker ?? 0;
  for (const f of r.brokerFaults)
    faults.push({
      type: f.type,
      target: `broker-${(r.oneBroker ? victim : f.broker) % brokers}`,
      at: f.at,
      ...(f.durationMs !== undefined && f.type !== 'restart' ? { durationMs: f.durationMs } : {}),
    });
  for (const d of r.shutdowns)
    faults.push({
      type: 'controlledShutdown',
      target: `broker-${(r.oneBroker ? victim : d.broker) % brokers}`,
      at: d.at,
      ...(d.durationMs !== undefined ? { durationMs: d.durationMs } : {}),
    });
  for (const s of r.slow)
    faults.push({
      type: 'slowReplication',
      target: `broker-${s.broker % brokers}`,
      at: s.at,
      delayMs: s.delayMs,
      ...(s.durationMs !== undefined ? { durationMs: s.durationMs } : {}),
    });
  return {
    ...scenario,
    cluster: {
      ...scenario.cluster,
      brokers,
      ...(r.replicaLagTimeMaxMs !== undefined ? { 'replica.lag.time.max.ms': r.replicaLagTimeMaxMs } : {}),
      ...(r.sessionTimeoutMs !== undefined ? { 'broker.session.timeout.ms': r.sessionTimeoutMs } : {}),
      ...internalTopics(r.internal, brokers),
    },
    topics,
    faults,
  };
}

/** Cluster settings that replicate both internal topics over at most `brokers` replicas. */
function internalTopics(internal: ReplicationShape['internal'], brokers: number): Record<string, number> {
  if (!internal) return {};
  const replicationFactor = Math.min(internal.replicationFactor, brokers);
  return {
    'transaction.state.log.replication.factor': replicationFactor,
    'transaction.state.log.min.isr': Math.min(internal.minIsr, replicationFactor),
    'offsets.topic.replication.factor': replicationFactor,
  };
}

/** Random valid scenarios of a family (ShapeOptions) with every topic replicated, under broker failures and slow replication. */
export function replicatedScenarioArb(o: ShapeOptions): fc.Arbitrary<Scenario> {
  return fc.tuple(shapeArbWith(o), replicationArb).map(([shape, r]) => withReplication(scenarioFromShape(shape), r));
}
