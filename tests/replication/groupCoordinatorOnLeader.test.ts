/**
 * The group coordinator moves with the leader of a replicated __consumer_offsets
 * (offsets.topic.replication.factor 3, docs/kafka-model.md "Replication"): scenario-level runs of
 * a failover (the new leader's coordinator loads the group and its committed offsets from its own
 * replica; the consumer rediscovers it and continues), of too few in-sync replicas (OffsetCommit
 * appended but never acknowledged: COORDINATOR_NOT_AVAILABLE after offsets.commit.timeout.ms), and
 * of exactly-once consume-transform-produce across the failover. The rules themselves:
 * groupCoordinatorRules.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { checkInvariants, formatViolations } from '../../src/sim/checks/invariants';
import type { Scenario } from '../../src/sim/scenario/schema';
import { validateScenario } from '../../src/sim/scenario/validate';
import { runWith } from '../presets/helpers';

const cluster = { brokers: 3, 'min.insync.replicas': 2, 'offsets.topic.replication.factor': 3 };
const send = (value: string, at?: number) => ({
  op: 'send' as const,
  ...(at === undefined ? {} : { at }),
  topic: 'orders',
  key: 'o',
  value,
  headers: { event_id: `e${value}` },
});
const billing = {
  id: 'billing',
  type: 'consumer' as const,
  config: { 'group.id': 'billing', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false },
  topics: ['orders'],
  processing: { mode: 'at-least-once' as const },
};

/**
 * billing's group maps to __consumer_offsets-1 (of 3), led by broker-1 (replicas broker-1, broker-2,
 * broker-0). It commits offset 2 after e1, e2; broker-1 dies at 10 s; billing restarts at 19 s.
 */
const failover = {
  version: 1,
  id: 'group-coordinator-failover',
  title: 'The group coordinator follows its __consumer_offsets leader',
  seed: 1,
  cluster,
  topics: [{ name: 'orders', replicationFactor: 3 }],
  clients: [
    {
      id: 'orders-service',
      type: 'producer',
      config: { acks: 'all', 'enable.idempotence': true },
      script: [send('1'), send('2'), send('3', 20000), send('4', 20000)],
    },
    billing,
  ],
  faults: [
    { type: 'crash', target: 'broker-1', at: 10000, durationMs: 30000 },
    { type: 'crash', target: 'billing', at: 19000, durationMs: 1000 },
  ],
} as unknown as Scenario;

describe('a failover of the group coordinator (offsets.topic.replication.factor 3)', () => {
  const r = runWith(failover);

  it('the scenario is valid and the run keeps every invariant', () => {
    expect(validateScenario(failover).ok).toBe(true);
    expect(formatViolations(checkInvariants(r.trace))).toBe('');
  });

  it('broker-1 serves the group first; its commit of offset 2 is acknowledged once the HW passes it', () => {
    const commits = r.trace.steps.flatMap((s) =>
      (s.facts as { kind: string; offsets?: { offset: number }[] }[])
        .filter((f) => f.kind === 'offsetsCommitted')
        .map((f) => [s.actor, f.offsets?.map((o) => o.offset)]),
    );
    expect(commits).toEqual([
      ['broker-1.group-coordinator', [2]],
      ['broker-2.group-coordinator', [4]],
    ]);
  });

  it('broker-2 is elected, loads the group and offset 2 from its own replica of __consumer_offsets-1', () => {
    expect(r.facts('leaderChange').find((f) => f.topic === '__consumer_offsets')).toMatchObject({
      partition: 1,
      leader: 'broker-2',
      leaderEpoch: 1,
    });
    const loads = r.facts('note').filter((n) => n.text.includes('from its replica of __consumer_offsets-1'));
    expect(loads.map((n) => [n.actor, n.text])).toEqual([
      ['broker-1.group-coordinator', 'loaded 0 group(s) from its replica of __consumer_offsets-1 (coordinator epoch 0)'],
      ['broker-2.group-coordinator', 'loaded 1 group(s) from its replica of __consumer_offsets-1 (coordinator epoch 1)'],
    ]);
    // re-read at the load: offsets 0-1 (generation 1's GroupMetadata, the commit of 2) that broker-1 wrote and
    // broker-2 had fetched; offsets 2-3 are broker-2's own (generation 2 after billing's restart, the commit of 4)
    const log = r.partition('__consumer_offsets-1');
    const gm = (v: string | null) => (v?.startsWith('{') ? `GroupMetadata generation ${JSON.parse(v).generationId}` : v);
    expect(log.records.filter((x) => x.control === null).map((x) => [x.offset, x.key, gm(x.value)])).toEqual([
      [0, 'billing', 'GroupMetadata generation 1'],
      [1, 'billing/orders-0', '2'],
      [2, 'billing', 'GroupMetadata generation 2'],
      [3, 'billing/orders-0', '4'],
    ]);
    expect(r.summary.groups.find((g) => g.groupId === 'billing')).toMatchObject({ generation: 2, members: ['billing-1'] });
  });

  it('the consumer finds the new coordinator with FindCoordinator and, restarted, resumes at the committed offset 2: every event once', () => {
    const finds = r.trace.envelopes.filter((e) => e.rpc === 'FindCoordinatorResponse' && e.to === 'billing.consumer');
    expect(finds.some((e) => (e.payload as { coordinator?: string }).coordinator === 'broker-2.group-coordinator')).toBe(true);
    const fetched = r.trace.envelopes.filter((e) => e.rpc === 'OffsetFetchResponse' && e.to === 'billing.consumer');
    expect(fetched.map((e) => [e.from, (e.payload as { offsets: { offset: number }[] }).offsets.map((o) => o.offset)])).toEqual([
      ['broker-1.group-coordinator', [-1]],
      ['broker-2.group-coordinator', [2]],
    ]);
    expect(r.received('billing').map((x) => [x.offset, x.headers.event_id])).toEqual([
      [0, 'e1'],
      [1, 'e2'],
      [2, 'e3'],
      [3, 'e4'],
    ]);
    expect(r.layer('loss')?.status).toBe('once');
    expect(r.layer('processing', 'billing')?.status).toBe('once');
  });

  it('there is no group-coordinator process: each broker hosts one, and its writes are in-process calls', () => {
    expect(r.trace.built.processes.some((p) => p.id === 'group-coordinator')).toBe(false);
    expect(r.trace.built.specs.filter((s) => s.kind === 'group-coordinator').map((s) => s.id)).toEqual([
      'broker-0.group-coordinator',
      'broker-1.group-coordinator',
      'broker-2.group-coordinator',
    ]);
    expect(r.trace.steps.some((s) => s.kind === 'call' && s.label === 'appendConsumerOffsets')).toBe(true);
    expect(r.trace.envelopes.some((e) => e.rpc === 'Produce' && (e.payload as { topic?: string }).topic === '__consumer_offsets')).toBe(
      false,
    );
  });
});

/** Both followers of __consumer_offsets-1 die at 5 s: its ISR shrinks to broker-1, below min.insync.replicas 2. */
const underReplicated = {
  version: 1,
  id: 'consumer-offsets-under-min-isr',
  title: '__consumer_offsets below min.insync.replicas',
  seed: 1,
  cluster,
  topics: [{ name: 'orders', leaders: [1] }],
  clients: [
    { id: 'orders-service', type: 'producer', config: { acks: 'all', 'enable.idempotence': true }, script: [send('1'), send('2', 20000)] },
    billing,
  ],
  run: { maxTimeMs: 60000 },
  faults: [
    { type: 'crash', target: 'broker-0', at: 5000, durationMs: 100000 },
    { type: 'crash', target: 'broker-2', at: 5000, durationMs: 100000 },
  ],
} as unknown as Scenario;

describe('__consumer_offsets with too few in-sync replicas', () => {
  const r = runWith(underReplicated);

  it('the scenario is valid and the run keeps every invariant', () => {
    expect(validateScenario(underReplicated).ok).toBe(true);
    expect(formatViolations(checkInvariants(r.trace))).toBe('');
  });

  it('OffsetCommit of offset 2 is appended (acks=1) but the HW stays: after offsets.commit.timeout.ms it is answered COORDINATOR_NOT_AVAILABLE, again on every retry', () => {
    const answers = r.trace.envelopes.filter((e) => e.rpc === 'OffsetCommitResponse' && e.to === 'billing.consumer');
    expect(answers.map((e) => (e.payload as { error: string }).error)).toEqual([
      'NONE',
      ...answers.slice(1).map(() => 'COORDINATOR_NOT_AVAILABLE'),
    ]);
    expect(answers.length).toBeGreaterThan(2);
    const first = r.trace.envelopes.find(
      (e) => e.rpc === 'OffsetCommit' && (e.payload as { offsets: { offset: number }[] }).offsets[0]?.offset === 2,
    );
    const failed = answers[1];
    expect((failed?.deliverAt ?? 0) - (first?.sentAt ?? 0)).toBeGreaterThanOrEqual(5000);
    const log = r.partition('__consumer_offsets-1');
    expect(log.highWatermark).toBe(2);
    expect(log.logEndOffset).toBeGreaterThan(2);
  });

  it("nothing is acknowledged, yet the coordinator keeps offset 2: the record is in its log (above the HW) and a timed-out write is not reverted (CoordinatorRuntime's OperationTimeout fails only the answer); each retry writes it again", () => {
    const committed = r.facts('offsetsCommitted').map((f) => f.offsets.map((o) => o.offset));
    expect(committed[0]).toEqual([1]);
    expect(committed.length).toBeGreaterThan(2);
    expect(committed.slice(1).every((c) => c.length === 1 && c[0] === 2)).toBe(true);
    expect(r.summary.groups.find((g) => g.groupId === 'billing')?.committed).toEqual({ 'orders-0': 2 });
    expect(r.errors('billing')).toContain('COORDINATOR_NOT_AVAILABLE');
    // every OffsetCommit of 2 was appended (the last one may still wait at the end): none below the HW
    const log = r.partition('__consumer_offsets-1');
    expect(log.logEndOffset - log.highWatermark).toBeGreaterThanOrEqual(committed.length - 1);
  });
});

/** Exactly-once consume-transform-produce: the enricher group's coordinator (broker-1) dies at 10 s. */
const eos = {
  version: 1,
  id: 'group-coordinator-failover-eos',
  title: 'Exactly-once across a group coordinator failover',
  seed: 1,
  cluster,
  topics: [
    { name: 'orders', replicationFactor: 3 },
    { name: 'order-results', replicationFactor: 3 },
  ],
  clients: [
    {
      id: 'orders-service',
      type: 'producer',
      config: { acks: 'all', 'enable.idempotence': true },
      script: [send('1'), send('2'), send('3', 9990), send('4', 20000)],
    },
    {
      id: 'enricher',
      type: 'consumer',
      config: { 'group.id': 'enricher', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false },
      topics: ['orders'],
      processing: { mode: 'exactly-once', outputTopic: 'order-results', producerConfig: { 'transactional.id': 'enricher-0' } },
    },
    {
      id: 'auditor',
      type: 'consumer',
      config: { 'group.id': 'auditor', 'isolation.level': 'read_committed', 'auto.offset.reset': 'earliest' },
      topics: ['order-results'],
      processing: { mode: 'at-least-once' },
    },
  ],
  faults: [{ type: 'crash', target: 'broker-1', at: 10000, durationMs: 30000 }],
} as unknown as Scenario;

describe('exactly-once consume-transform-produce across the group coordinator failover', () => {
  const r = runWith(eos);

  it('the scenario is valid and the run keeps every invariant (exactly-once output among them)', () => {
    expect(validateScenario(eos).ok).toBe(true);
    expect(formatViolations(checkInvariants(r.trace))).toBe('');
  });

  it('the transactional offsets are committed by the marker on each coordinator in turn; the last on broker-2', () => {
    const commits = r.trace.steps.flatMap((s) =>
      (s.facts as { kind: string; transactional?: boolean; offsets?: { offset: number }[] }[])
        .filter((f) => f.kind === 'offsetsCommitted' && f.transactional && s.actor.startsWith('broker'))
        .map((f) => [s.actor, f.offsets?.map((o) => o.offset)]),
    );
    expect(commits.at(-1)).toEqual(['broker-2.group-coordinator', [4]]);
    expect(commits.some(([actor]) => actor === 'broker-1.group-coordinator')).toBe(true);
    expect(r.summary.groups.find((g) => g.groupId === 'enricher')?.committed).toEqual({ 'orders-0': 4 });
  });

  it('each event is once in the committed output and read once by the read_committed auditor', () => {
    expect(r.received('auditor').map((x) => x.headers.event_id)).toEqual(['e1', 'e2', 'e3', 'e4']);
    expect(r.layer('output', 'order-results')?.status).toBe('once');
    expect(r.layer('loss')?.status).toBe('once');
  });
});
