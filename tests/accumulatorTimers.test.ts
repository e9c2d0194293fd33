/**
 * The two deadlines of records still waiting in the producer's accumulator, as whole runs:
 * - linger.ms counts for every waiting batch, including records a closed batch left behind
 *   (RecordAccumulator.ready → nextReadyCheckDelayMs; the Sender wakes then);
 * - delivery.timeout.ms counts from a batch's creation whether or not it was ever drained
 *   (RecordAccumulator.expiredBatches): a record that waits for an offline partition fails then,
 *   and is never sent.
 */
import { describe, expect, it } from 'vitest';
import { keyOf } from '../src/sim/protocol/topicPartition';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';
import { summarize } from '../src/sim/trace/summary';

type SendResult = Extract<Fact, { kind: 'sendResult' }>;
const sendResults = (trace: ReturnType<typeof runScenario>) =>
  trace.steps.flatMap((s) => (s.facts as Fact[]).filter((f): f is SendResult => f.kind === 'sendResult').map((f) => ({ t: s.t, f })));

describe('linger.ms for records a closed batch left behind', () => {
  // defaults (linger.ms=5, batch.size=16384): one record at 0, then 300 records of ~60 bytes at 2 —
  // more than one batch: the first drain (at 5) closes a full batch and leaves the rest
  const trace = runScenario({
    version: 1,
    seed: 3,
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        script: [
          { op: 'send', topic: 'orders', key: 'a', value: 'first', headers: { event_id: 'e-first' } },
          {
            op: 'send',
            at: 2,
            count: 300,
            topic: 'orders',
            key: 'key-{i}',
            value: 'a value of about forty bytes, number {i}',
            headers: { event_id: 'e{i}' },
          },
        ],
      },
    ],
  });

  it('every record is sent and acknowledged, the last no later than their linger.ms after they were appended (2 + 5 ms), plus the network', () => {
    const results = sendResults(trace);
    expect(results).toHaveLength(301);
    expect(results.every((r) => r.f.error === null)).toBe(true);
    const produce = trace.envelopes.filter((e) => e.rpc === 'Produce');
    expect(produce.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...produce.map((e) => e.sentAt))).toBeLessThanOrEqual(7);
  });
});

describe('delivery.timeout.ms for records never drained', () => {
  // orders-0 on broker-0 and broker-1; broker-1 crashes at 1 s, broker-0 from 12 s to 162 s, so the
  // partition has no leader; e2 (sent at 20 s) and e3 (at 50 s) wait for it, delivery.timeout.ms = 40 s
  const trace = runScenario({
    version: 1,
    seed: 1,
    cluster: { brokers: 3, 'min.insync.replicas': 1 },
    topics: [{ name: 'orders', replicationFactor: 2 }],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        config: { acks: 'all', 'delivery.timeout.ms': 40000 },
        script: [
          { op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
          { op: 'send', at: 20000, topic: 'orders', key: 'k', value: 'b', headers: { event_id: 'e2' } },
          { op: 'send', at: 50000, topic: 'orders', key: 'k', value: 'c', headers: { event_id: 'e3' } },
        ],
      },
    ],
    faults: [
      { type: 'crash', target: 'broker-1', at: 1000 },
      { type: 'crash', target: 'broker-0', at: 12000, durationMs: 150000 },
    ],
  });

  it('e3, never drained, fails with TimeoutException at its append + delivery.timeout.ms (90 s), before the leader returns', () => {
    const e3 = sendResults(trace).find((r) => r.f.eventId === 'e3');
    expect(e3).toMatchObject({ t: 90000, f: { error: 'TimeoutException', offset: null } });
  });

  it('and is never sent: no Produce carries it, and the log holds only e1 when broker-0 is back', () => {
    const values = trace.envelopes
      .filter((e) => e.rpc === 'Produce')
      .flatMap((e) =>
        (e.payload as { partitions: { batch: { records: { value: string }[] } }[] }).partitions.flatMap((p) =>
          p.batch.records.map((r) => r.value),
        ),
      );
    expect(values).not.toContain('c');
    const log = summarize(trace).partitions.find((p) => keyOf(p) === 'orders-0');
    expect(log?.records.map((r) => r.value)).toEqual(['a']);
  });
});
