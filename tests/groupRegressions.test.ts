/**
 * Issue [model-edges] items 3, 10, 11, 12 and 13, each as the scenario the issue describes: group
 * membership, failover, offset commits, TxnOffsetCommit verification and consumer applications.
 * Every one of these failed before its fix.
 */
import { describe, expect, it } from 'vitest';
import { membershipState } from '../src/sim/consumer/consumer.machine';
import { runScenario } from '../src/sim/run';
import type { Scenario } from '../src/sim/scenario/schema';
import type { Fact } from '../src/sim/trace/facts';
import { summarize } from '../src/sim/trace/summary';

type Config = Record<string, string | number | boolean | null>;

function run(s: Scenario) {
  const trace = runScenario(s);
  const summary = summarize(trace);
  const facts = trace.steps.flatMap((st) => st.facts as Fact[]);
  const processed = (app: string, eventId: string) => summary.verdict.events.find((e) => e.eventId === eventId)?.processed[app] ?? 0;
  const group = (id: string) => summary.groups.find((g) => g.groupId === id);
  const consumer = (id: string) => summary.consumers.find((c) => c.id === id);
  const errors = (client: string) => summary.clients.find((c) => c.id === client)?.errors ?? [];
  return { trace, summary, facts, processed, group, consumer, errors };
}

type ProducerSpec = Extract<Scenario['clients'][number], { type: 'producer' }>;
type ConsumerSpec = Extract<Scenario['clients'][number], { type: 'consumer' }>;
const producer = (script: ProducerSpec['script']): ProducerSpec => ({ id: 'source', type: 'producer', script });
const send = (i: number, extra: Record<string, unknown> = {}) => ({
  op: 'send' as const,
  topic: 'orders',
  key: `k${i}`,
  value: `v${i}`,
  headers: { event_id: `evt-${i}` },
  ...extra,
});
const consumer = (
  id: string,
  config: Config,
  processing: NonNullable<ConsumerSpec['processing']>,
  extra: { startAt?: number } = {},
): ConsumerSpec => ({
  id,
  type: 'consumer',
  config: { 'group.id': 'billing', 'auto.offset.reset': 'earliest', ...config },
  topics: ['orders'],
  processing,
  ...extra,
});

describe('item 3: TxnOffsetCommit is verified with the transaction coordinator (protocol v1)', () => {
  const scenario: Scenario = {
    version: 1,
    seed: 1,
    cluster: { 'transaction.version': 1 },
    topics: [
      { name: 'orders', partitions: 1 },
      { name: 'out', partitions: 1 },
    ],
    clients: [
      producer([send(1, { at: 3500 }), send(2, { at: 8000 })]),
      consumer(
        'enricher',
        { 'group.id': 'enricher', 'enable.auto.commit': false, 'isolation.level': 'read_committed' },
        { mode: 'exactly-once', outputTopic: 'out', producerConfig: { 'request.timeout.ms': 1000 } },
      ),
    ],
    faults: [
      { type: 'delay', rpc: 'TxnOffsetCommit', nth: 1, delayMs: 3000 },
      { type: 'crash', target: 'enricher', at: 7000, durationMs: 100 },
    ],
  };

  it('a TxnOffsetCommit that lands after its transaction ended is refused TRANSACTION_ABORTABLE: no orphan transaction, the next record is processed', () => {
    const r = run(scenario);
    const stale = r.trace.envelopes.find((e) => e.rpc === 'TxnOffsetCommit' && e.fault !== null);
    const answer = r.trace.envelopes.find((e) => e.rpc === 'TxnOffsetCommitResponse' && e.inReplyTo === stale?.id);
    expect(answer?.payload).toMatchObject({ error: 'TRANSACTION_ABORTABLE' });
    expect(r.group('enricher')?.pendingTransactionalOffsets).toEqual([]);
    expect(r.group('enricher')?.committed).toEqual({ 'orders-0': 2 });
    expect(r.processed('enricher', 'evt-2')).toBe(1);
    expect(r.errors('enricher').filter((e) => e === 'UNSTABLE_OFFSET_COMMIT').length).toBeLessThan(5);
    const offsets = r.summary.partitions.filter((p) => p.topic === '__consumer_offsets');
    expect(offsets.every((p) => p.lastStableOffset === p.logEndOffset)).toBe(true);
    expect(r.trace.stopReason).toBe('quiescent');
  });
});

describe('item 10: consumer offset commits', () => {
  it('a lost auto-commit is sent again while the consumer waits: the group commits evt-1', () => {
    const r = run({
      version: 1,
      seed: 1,
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [producer([send(1, { at: 3500 })]), consumer('billing', { 'auto.commit.interval.ms': 1000 }, { mode: 'auto-commit' })],
      faults: [{ type: 'drop', rpc: 'OffsetCommit', nth: 1 }],
    });
    expect(r.group('billing')?.committed).toEqual({ 'orders-0': 1 });
    expect(r.trace.envelopes.filter((e) => e.rpc === 'OffsetCommit')).toHaveLength(2);
  });

  it('the auto-commit before rejoining (onJoinPrepare) is retried when lost: the 3 records are processed once', () => {
    const r = run({
      version: 1,
      seed: 1,
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        producer([send(0, { at: 3500, count: 3, key: 'k{i}', value: 'v{i}', headers: { event_id: 'evt-{i}' } })]),
        consumer('billing', {}, { mode: 'auto-commit' }),
        consumer('billing2', {}, { mode: 'auto-commit' }, { startAt: 4000 }),
      ],
      faults: [{ type: 'drop', rpc: 'OffsetCommit', nth: 1 }],
    });
    const lost = r.trace.envelopes.find((e) => e.rpc === 'OffsetCommit' && e.fate === 'dropped');
    const next = r.trace.envelopes.find((e) => e.rpc === 'JoinGroup' && e.from === 'billing.consumer' && e.sentAt > (lost?.sentAt ?? 0));
    const retried = r.trace.envelopes.find((e) => e.rpc === 'OffsetCommit' && e.id > (lost?.id ?? 0));
    // the member rejoins only after its commit was sent again
    expect(retried && next && retried.sentAt <= next.sentAt).toBe(true);
    for (const i of [0, 1, 2]) expect(r.processed('billing', `evt-${i}`) + r.processed('billing2', `evt-${i}`)).toBe(1);
  });

  it('commitSync backs off while the group coordinator is down (retry.backoff.ms, doubling): virtual time advances between attempts', () => {
    const r = run({
      version: 1,
      seed: 1,
      network: { latencyMs: 0 },
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        producer([send(1, { at: 3500 })]),
        consumer('billing', { 'enable.auto.commit': false }, { mode: 'at-least-once', processingMs: 200 }),
      ],
      faults: [{ type: 'crash', target: 'group-coordinator', at: 3600, durationMs: 2000 }],
    });
    const commits = r.trace.envelopes.filter((e) => e.rpc === 'OffsetCommit' && e.from === 'billing.consumer');
    const gaps = commits.slice(1).map((c, i) => c.sentAt - (commits[i]?.sentAt ?? 0));
    expect(gaps.length).toBeGreaterThan(1);
    expect(gaps.every((g) => g >= 100)).toBe(true);
    expect(commits.length).toBeLessThan(10);
    expect(r.processed('billing', 'evt-1')).toBe(1);
    expect(r.group('billing')?.committed).toEqual({ 'orders-0': 1 });
  });
});

describe('item 11: applications and sinks', () => {
  it('a crash and restart before startAt: the application starts at startAt and processes (exactly-once)', () => {
    const r = run({
      version: 1,
      seed: 1,
      topics: [
        { name: 'orders', partitions: 1 },
        { name: 'out', partitions: 1 },
      ],
      clients: [
        producer([send(1, { at: 3500 })]),
        consumer(
          'billing',
          { 'enable.auto.commit': false, 'isolation.level': 'read_committed' },
          { mode: 'exactly-once', outputTopic: 'out' },
          { startAt: 2000 },
        ),
      ],
      faults: [{ type: 'crash', target: 'billing', at: 1000, durationMs: 100 }],
    });
    expect(r.processed('billing', 'evt-1')).toBe(1);
    expect(r.group('billing')?.committed).toEqual({ 'orders-0': 1 });
    const joins = r.trace.envelopes.filter((e) => e.rpc === 'JoinGroup' && e.from === 'billing.consumer');
    // its first poll() joins, after initTransactions() returned (InitProducerId sent at 2000)
    const init = r.trace.envelopes.filter((e) => e.rpc === 'InitProducerIdResponse' && e.to === 'billing.producer');
    expect(init[0]?.deliverAt).toBe(2002);
    expect(joins[0]?.sentAt).toBe(2002);
  });

  it('offsets-in-sink: after a rebalance the application seeks to the offsets in the database: each event written once', () => {
    const r = run({
      version: 1,
      seed: 1,
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        producer([send(0, { at: 3500, count: 2, key: 'k{i}', value: 'v{i}', headers: { event_id: 'evt-{i}' } }), send(9, { at: 9000 })]),
        consumer('billing', { 'enable.auto.commit': false }, { mode: 'offsets-in-sink', sink: 'db' }),
        consumer('billing2', { 'enable.auto.commit': false }, { mode: 'offsets-in-sink', sink: 'db' }, { startAt: 5000 }),
      ],
      sinks: [{ id: 'db', type: 'database', mode: 'offsets-in-db' }],
    });
    for (const e of ['evt-0', 'evt-1', 'evt-9']) expect(r.processed('billing', e) + r.processed('billing2', e), e).toBe(1);
    const rows = r.facts.filter((f): f is Extract<Fact, { kind: 'sideEffect' }> => f.kind === 'sideEffect' && f.applied);
    expect(rows.map((f) => f.eventId).sort()).toEqual(['evt-0', 'evt-1', 'evt-9']);
  });

  it('the outbox relay reconnects after a database restart and publishes what came later', () => {
    const r = run({
      version: 1,
      seed: 1,
      topics: [
        { name: 'orders', partitions: 1 },
        { name: 'events', partitions: 1 },
      ],
      clients: [
        producer([send(1, { at: 3500 }), send(2, { at: 8000 })]),
        consumer('billing', { 'enable.auto.commit': false }, { mode: 'at-least-once', sink: 'shop' }),
      ],
      sinks: [{ id: 'shop', type: 'outbox', topic: 'events' }],
      faults: [{ type: 'crash', target: 'shop', at: 5000, durationMs: 500 }],
    });
    const published = r.summary.partitions.find((p) => p.topic === 'events')?.records.map((x) => x.headers.event_id);
    expect(published).toEqual(['evt-1', 'evt-2']);
  });
});

describe('item 12: consumer groups never hang', () => {
  it('without any fault: a member waiting in JoinGroup longer than session.timeout.ms is not expired, and joins', () => {
    const session = { 'enable.auto.commit': false, 'session.timeout.ms': 6000, 'heartbeat.interval.ms': 2000 };
    const r = run({
      version: 1,
      seed: 1,
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        producer([send(0, { at: 3500, count: 20, key: 'k{i}', value: 'v{i}', headers: { event_id: 'evt-{i}' } })]),
        consumer('slow', { ...session, 'group.id': 'g' }, { mode: 'at-least-once', processingMs: 800 }),
        consumer('late', { ...session, 'group.id': 'g' }, { mode: 'at-least-once' }, { startAt: 5000 }),
      ],
    });
    expect(r.group('g')?.state).toBe('Stable');
    expect(r.group('g')?.members).toEqual(['late-1', 'slow-0']);
    expect(membershipState(r.consumer('late')?.state ?? '')).toBe('STABLE');
    const removed = r.facts.filter((f) => f.kind === 'note' && /late-1 sent no heartbeat/.test(f.text));
    expect(removed).toEqual([]);
  });

  it('a member waiting in SyncGroup is answered REBALANCE_IN_PROGRESS when a new rebalance starts, and rejoins', () => {
    const plain = { 'enable.auto.commit': false, 'group.id': 'g' };
    const r = run({
      version: 1,
      seed: 1,
      topics: [{ name: 'orders', partitions: 3 }],
      clients: [
        producer([send(0, { at: 8000, count: 6, key: 'k{i}', value: 'v{i}', headers: { event_id: 'evt-{i}' } })]),
        consumer('a', plain, { mode: 'at-least-once' }),
        consumer('b', plain, { mode: 'at-least-once' }),
        // joins once the first generation is complete, while b waits for the leader's delayed SyncGroup
        consumer('c', plain, { mode: 'at-least-once' }, { startAt: 7000 }),
      ],
      faults: [{ type: 'delay', rpc: 'SyncGroup', from: 'a', nth: 1, delayMs: 2000 }],
    });
    const waiting = r.trace.envelopes.find((e) => e.rpc === 'SyncGroup' && e.from === 'b.consumer');
    const answer = r.trace.envelopes.find((e) => e.rpc === 'SyncGroupResponse' && e.inReplyTo === waiting?.id);
    expect(answer?.payload).toMatchObject({ error: 'REBALANCE_IN_PROGRESS' });
    expect(r.group('g')?.members).toEqual(['a-0', 'b-1', 'c-2']);
    for (const id of ['a', 'b', 'c']) expect(membershipState(r.consumer(id)?.state ?? '')).toBe('STABLE');
    for (let i = 0; i < 6; i++) expect(r.processed('a', `evt-${i}`) + r.processed('b', `evt-${i}`) + r.processed('c', `evt-${i}`)).toBe(1);
  });
});

describe('item 13: a group coordinator failover keeps the members', () => {
  it('after a 300 ms failover the member keeps its generation: no UNKNOWN_MEMBER_ID, each event processed once', () => {
    const r = run({
      version: 1,
      seed: 1,
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        producer([send(1, { at: 3500 }), send(2)]),
        consumer('billing', { 'enable.auto.commit': false }, { mode: 'at-least-once', processingMs: 500 }),
      ],
      faults: [{ type: 'crash', target: 'group-coordinator', at: 3800, durationMs: 300 }],
    });
    expect(r.errors('billing')).not.toContain('UNKNOWN_MEMBER_ID');
    expect(r.errors('billing')).not.toContain('CommitFailedException');
    expect(r.processed('billing', 'evt-1')).toBe(1);
    expect(r.processed('billing', 'evt-2')).toBe(1);
    expect(r.group('billing')).toMatchObject({ state: 'Stable', generation: 1, members: ['billing-0'] });
  });
});
