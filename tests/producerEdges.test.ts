/**
 * Issue 11 [model-edges], items 1, 2, 4, 8 and 15, as whole runs built from the descriptions.
 * Each test states Kafka's outcome (what the log holds, what a read_committed reader receives, which
 * errors the Java client reports), not step counts.
 */
import { describe, expect, it } from 'vitest';
import { keyOf } from '../src/sim/protocol/topicPartition';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';
import { summarize } from '../src/sim/trace/summary';

function run(scenario: unknown) {
  const trace = runScenario(scenario);
  const summary = summarize(trace);
  const facts = trace.steps.flatMap((s) => s.facts as Fact[]);
  const of = <K extends Fact['kind']>(kind: K) => facts.filter((f): f is Extract<Fact, { kind: K }> => f.kind === kind);
  const partition = (name: string) => summary.partitions.find((p) => keyOf(p) === name);
  const data = (name: string) => partition(name)?.records.filter((r) => r.control === null) ?? [];
  const markers = (name: string) => partition(name)?.records.filter((r) => r.control !== null) ?? [];
  const received = (consumer: string) => summary.consumers.find((c) => c.id === consumer)?.received ?? [];
  const errors = (client: string) => summary.clients.find((c) => c.id === client)?.errors ?? [];
  return { trace, summary, of, data, markers, received, errors };
}

const readCommitted = {
  id: 'reader',
  type: 'consumer',
  config: { 'group.id': 'reader', 'auto.offset.reset': 'earliest', 'isolation.level': 'read_committed' },
  topics: ['orders'],
  processing: { mode: 'at-least-once' },
};

describe('1. an epoch bump rewrites only the partitions that caused it', () => {
  it('a refused null-key record and a lost ProduceResponse for evt-1 leave one copy of evt-1 (its retry keeps epoch 0, sequence 0)', () => {
    const r = run({
      version: 1,
      seed: 1,
      topics: [
        { name: 'orders', partitions: 1 },
        { name: 'accounts', partitions: 1, config: { 'cleanup.policy': 'compact' } },
      ],
      clients: [
        {
          id: 'app',
          type: 'producer',
          script: [
            { op: 'send', topic: 'accounts', key: null, value: 'no-key' },
            { op: 'send', topic: 'orders', key: 'o1', value: 'v', headers: { event_id: 'evt-1' } },
            { op: 'flush' },
          ],
        },
      ],
      faults: [{ type: 'drop', rpc: 'ProduceResponse', to: 'app', where: { topic: 'orders' }, nth: 1 }],
    });
    // Kafka: one copy, written with the first epoch; the retry is answered as a duplicate
    expect(r.data('orders-0').map((x) => [x.headers.event_id, x.producerEpoch, x.sequence])).toEqual([['evt-1', 0, 0]]);
    expect(r.of('duplicate')).toMatchObject([{ topic: 'orders', producerEpoch: 0, baseSequence: 0, baseOffset: 0 }]);
    // the client bumped its epoch (KIP-360) for accounts-0, which refused the record
    expect(r.of('producerId').map((f) => f.producerEpoch)).toEqual([0, 1]);
    const results = r.of('sendResult');
    expect(results.find((f) => f.topic === 'accounts')).toMatchObject({ error: 'INVALID_RECORD', offset: null });
    expect(results.find((f) => f.eventId === 'evt-1')).toMatchObject({ error: null, offset: 0 });
    expect(r.errors('app')).toContain('INVALID_RECORD');
    expect(r.errors('app')).toContain('REQUEST_TIMED_OUT');
    expect(r.errors('app')).not.toContain('OUT_OF_ORDER_SEQUENCE_NUMBER');
  });
});

describe('2. verification keeps a later batch from overtaking an earlier one (protocol v2)', () => {
  it('when the verification of B fails (its connection reset), C is refused; B and C then commit in order', () => {
    const r = run({
      version: 1,
      seed: 2,
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        {
          id: 'app',
          type: 'producer',
          config: { 'transactional.id': 'app-1' },
          script: [
            { op: 'beginTransaction' },
            { op: 'send', topic: 'orders', key: 'k', value: 'A', headers: { event_id: 'A' } },
            { op: 'commitTransaction' },
            { op: 'beginTransaction' },
            { op: 'send', topic: 'orders', key: 'k', value: 'B', headers: { event_id: 'B' } },
            { op: 'send', topic: 'orders', key: 'k', value: 'C', headers: { event_id: 'C' }, delayMs: 10 },
            { op: 'commitTransaction' },
          ],
        },
        readCommitted,
      ],
      // The second verification (B's, broker → transaction coordinator) dies with its connection, and
      // the leader's answer to the producer is slow, so C reaches the leader before B is sent again.
      // (On TCP a lost answer stalls the whole connection, C's verification with it; a reset does not.)
      network: { links: [{ from: 'broker-0', to: 'app', latencyMs: 50 }] },
      faults: [{ type: 'reset', rpc: 'AddPartitionsToTxn', from: 'broker-0', nth: 2 }],
    });
    // C (epoch 1, sequence 1) may not be appended before B: the leader refuses it
    expect(r.of('rejected').filter((f) => f.baseSequence === 1)).toMatchObject([
      { producerEpoch: 1, error: 'OUT_OF_ORDER_SEQUENCE_NUMBER' },
    ]);
    expect(r.data('orders-0').map((x) => [x.headers.event_id, x.producerEpoch, x.sequence])).toEqual([
      ['A', 0, 0],
      ['B', 1, 0],
      ['C', 1, 1],
    ]);
    expect(r.markers('orders-0').map((m) => m.control)).toEqual(['COMMIT', 'COMMIT']);
    expect(r.received('reader').map((x) => x.headers.event_id)).toEqual(['A', 'B', 'C']);
    expect(r.errors('app')).not.toContain('INVALID_PRODUCER_EPOCH');
  });
});

describe('2, with protocol v1: after a timed-out batch the abort bumps the epoch, so the next transaction starts at sequence 0', () => {
  it('the next transaction to the same partition commits (without the bump its sequence would follow a batch the log never got)', () => {
    const r = run({
      version: 1,
      seed: 5,
      cluster: { 'transaction.version': 1 },
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        {
          id: 'app',
          type: 'producer',
          config: { 'transactional.id': 'app-1', 'request.timeout.ms': 1000, 'delivery.timeout.ms': 2500 },
          script: [
            { op: 'beginTransaction' },
            { op: 'send', topic: 'orders', key: 'k', value: 'X', headers: { event_id: 'X' } },
            { op: 'commitTransaction' },
            { op: 'beginTransaction', delayMs: 100 },
            { op: 'send', topic: 'orders', key: 'k', value: 'Y', headers: { event_id: 'Y' } },
            { op: 'commitTransaction' },
          ],
        },
        readCommitted,
      ],
      faults: [{ type: 'drop', rpc: 'Produce', nth: 1, count: 3 }],
    });
    expect(r.of('producerId').map((f) => f.producerEpoch)).toEqual([0, 1]);
    expect(r.data('orders-0').map((x) => [x.headers.event_id, x.producerEpoch, x.sequence])).toEqual([['Y', 1, 0]]);
    expect(r.received('reader').map((x) => x.headers.event_id)).toEqual(['Y']);
    expect(r.errors('app')).not.toContain('OUT_OF_ORDER_SEQUENCE_NUMBER');
  });
});

describe('4. a transactional record is sent as soon as its partition may take it', () => {
  const sentAt = (version: 1 | 2, lingerMs: number) => {
    const r = run({
      version: 1,
      seed: 4,
      cluster: { 'transaction.version': version },
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        {
          id: 'app',
          type: 'producer',
          config: { 'transactional.id': 'app-1', 'linger.ms': lingerMs },
          script: [
            { op: 'beginTransaction' },
            { op: 'send', topic: 'orders', key: 'k', value: 'v', at: 100 },
            { op: 'sleep', ms: 2000 },
            { op: 'commitTransaction' },
          ],
        },
      ],
    });
    return r.trace.envelopes.filter((e) => e.rpc === 'Produce').map((e) => e.sentAt);
  };

  for (const version of [1, 2] as const)
    for (const lingerMs of [0, 20])
      it(`protocol v${version}, linger.ms=${lingerMs}: the record goes within linger.ms (plus the first send's Metadata round trip and v1's AddPartitionsToTxn), not at commit`, () => {
        const [first] = sentAt(version, lingerMs);
        expect(first).toBeGreaterThanOrEqual(100 + lingerMs);
        // waitOnMetadata: 2 ms for the producer's Metadata request before its first record is appended
        expect(first).toBeLessThanOrEqual(100 + 2 + lingerMs + (version === 1 ? 10 : 0));
      });
});

describe('8. aborting after a failed send aborts', () => {
  const scenario = (version: 1 | 2) => ({
    version: 1,
    seed: 2,
    cluster: { 'transaction.version': version },
    topics: [
      { name: 'orders', partitions: 2 },
      { name: 'accounts', partitions: 1, config: { 'cleanup.policy': 'compact' } },
    ],
    clients: [
      {
        id: 'app',
        type: 'producer',
        config: { 'transactional.id': 'app-1' },
        script: [
          { op: 'beginTransaction' },
          { op: 'send', topic: 'orders', partition: 1, key: 'z', value: 'Z', headers: { event_id: 'Z' } },
          { op: 'send', topic: 'accounts', key: null, value: 'no-key' },
          { op: 'send', topic: 'orders', partition: 0, key: 'y', value: 'Y', headers: { event_id: 'Y' } },
          { op: 'commitTransaction' },
        ],
      },
      readCommitted,
    ],
  });

  for (const version of [1, 2] as const)
    it(`protocol v${version}: commitTransaction fails with INVALID_RECORD, the application aborts, and nothing of the transaction is visible to read_committed`, () => {
      const r = run(scenario(version));
      const calls = r.trace.steps.filter((s) => s.kind === 'call' && s.label === 'reply' && s.actor === 'app.app').map((s) => s.detail);
      expect(calls).toContainEqual({ call: 'commitTransaction', ok: false, error: 'INVALID_RECORD' });
      expect(calls).toContainEqual({ call: 'abortTransaction', ok: true, error: null });
      // EndTxn(COMMIT) never went out
      const endTxns = r.trace.envelopes.filter((e) => e.rpc === 'EndTxn').map((e) => (e.payload as { committed: boolean }).committed);
      expect(endTxns).toEqual([false]);
      for (const tp of ['orders-0', 'orders-1']) expect(r.markers(tp).map((m) => m.control)).toEqual(['ABORT']);
      expect(r.received('reader')).toEqual([]);
    });
});

describe('15. a tombstone survives until the delete horizon of the first cleaning that kept it', () => {
  it('delete.retention.ms=5000: cleaned at 4.6 s and 5.1 s it is still there; cleaned at 9.7 s it is gone', () => {
    const r = run({
      version: 1,
      seed: 15,
      topics: [
        { name: 'accounts', partitions: 1, config: { 'cleanup.policy': 'compact', 'segment.ms': 100, 'delete.retention.ms': 5000 } },
      ],
      clients: [
        {
          id: 'app',
          type: 'producer',
          script: [
            { op: 'send', topic: 'accounts', key: 'a', value: 'v1' },
            { op: 'flush' },
            { op: 'send', topic: 'accounts', key: 'a', value: null, delayMs: 10 },
            { op: 'flush' },
            { op: 'send', topic: 'accounts', key: 'b', value: 'x', at: 500 },
            { op: 'flush' },
          ],
        },
        {
          id: 'late-reader',
          type: 'consumer',
          config: { 'group.id': 'late-reader', 'auto.offset.reset': 'earliest' },
          topics: ['accounts'],
          processing: { mode: 'at-least-once' },
          startAt: 5200,
        },
      ],
      faults: [
        { type: 'runCleaner', at: 4600, topic: 'accounts' },
        { type: 'runCleaner', at: 5100, topic: 'accounts' },
        { type: 'runCleaner', at: 9700, topic: 'accounts' },
      ],
    });
    expect(r.of('cleaned').map((f) => f.removed)).toEqual([1, 0, 1]);
    // a reader at 5.2 s still sees the delete of key a
    expect(r.received('late-reader').map((x) => [x.offset, x.key])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(r.data('accounts-0').map((x) => x.offset)).toEqual([2]);
  });
});
