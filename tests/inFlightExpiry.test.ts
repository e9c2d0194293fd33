/**
 * A batch that expires (delivery.timeout.ms) while its Produce request is outstanding, as a whole
 * run: Kafka fails the batch at once (Sender.getExpiredInflightBatches) but NetworkClient keeps its
 * request in flight, so with max.in.flight.requests.per.connection=1 its partition stays muted until
 * that request's answer (Sender.completeBatch → RecordAccumulator.unmutePartition).
 */
import { describe, expect, it } from 'vitest';
import { keyOf } from '../src/sim/protocol/topicPartition';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';
import { summarize } from '../src/sim/trace/summary';

/** broker-0 freezes from 502 to 40100 ms; a is sent at 500 (expires at 31500 in flight, on its retry), b at 31000. */
function run() {
  const trace = runScenario({
    version: 1,
    seed: 1,
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [
      {
        id: 'p',
        type: 'producer',
        config: { 'max.in.flight.requests.per.connection': 1, 'delivery.timeout.ms': 31000, 'linger.ms': 0 },
        script: [
          { op: 'send', topic: 'orders', key: 'k', value: 'a', at: 500 },
          { op: 'send', topic: 'orders', key: 'k', value: 'b', at: 31000 },
        ],
      },
    ],
    // from a's Produce on (its Metadata answered at 502 ms: a frozen broker would hold send() in waitOnMetadata)
    faults: [{ type: 'pause', target: 'broker-0', at: 502, durationMs: 39598 }],
  });
  const produce = trace.envelopes.filter((e) => e.rpc === 'Produce');
  const answers = trace.envelopes.filter((e) => e.rpc === 'ProduceResponse');
  const value = (e: (typeof produce)[number]) =>
    (e.payload as { partitions: { batch: { records: { value: string }[] } }[] }).partitions[0]?.batch.records[0]?.value;
  const results = trace.steps
    .flatMap((s) => s.facts as Fact[])
    .filter((f): f is Extract<Fact, { kind: 'sendResult' }> => f.kind === 'sendResult');
  return { trace, produce, answers, value, results };
}

describe('a batch that expires in flight keeps its partition muted until its request is answered', () => {
  it('b is sent only after the answer to a’s last request, not when a expires', () => {
    const { produce, answers, value } = run();
    // a, then a again after request.timeout.ms closed the connection, then b
    expect(produce.map(value)).toEqual(['a', 'a', 'b']);
    const [, retry, b] = produce;
    const retryAnswer = answers.find((e) => e.inReplyTo === retry?.id);
    // a expired at 31500 with its retry still unanswered (broker-0 frozen until 40100)
    expect(retry?.sentAt).toBeLessThan(31500);
    expect(retryAnswer?.sentAt).toBeGreaterThanOrEqual(40100);
    expect(b?.sentAt).toBeGreaterThanOrEqual(retryAnswer?.sentAt as number);
  });

  it('a’s record fails with TimeoutException even though it was written; b is acknowledged', () => {
    const { trace, results } = run();
    expect(results.map((r) => [r.ref, r.error])).toEqual([
      [0, 'TimeoutException'],
      [1, null],
    ]);
    const log = summarize(trace).partitions.find((p) => keyOf(p) === 'orders-0');
    expect(log?.records.map((r) => r.value)).toEqual(['a', 'b']);
  });
});
