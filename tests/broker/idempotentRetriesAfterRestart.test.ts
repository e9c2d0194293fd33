/**
 * An idempotent producer's batches in flight when their leader crashes, retried to the restarted
 * broker. The broker appended all three (sequences 0, 1, 2) before it died; its answers died with
 * it. The restart reloads the producer state from the snapshot recovery wrote at the log end, which
 * holds one batch per producer — the last (ProducerStateManager.writeSnapshot/readSnapshot) —, so
 * the retry of sequence 0 is no duplicate: OUT_OF_ORDER_SEQUENCE_NUMBER ("expected 3"). The client
 * sends a retried batch alone (RecordAccumulator.shouldStopDrainBatchesForPartition: "This
 * effectively reduces our in flight request count to 1"); the OUT_OF_ORDER_SEQUENCE_NUMBER of the
 * batch that is the next sequence (lastAckedSequence + 1) makes the idempotent producer bump its own
 * epoch (TransactionManager.canRetry → requestIdempotentEpochBumpForPartition) and send the three
 * again from sequence 0 under epoch 1: the broker's duplicate check cannot match copies across
 * epochs, so e1, e2 and e3 are each written twice. The model agreed before this test was written; it
 * is kept as a check of where a restart meets the producer's sequence rules.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';

const scenario = {
  version: 1,
  id: 'idempotent-retries-after-restart',
  seed: 1,
  topics: [{ name: 'orders', partitions: 1 }],
  clients: [
    {
      id: 'orders-service',
      type: 'producer',
      config: { 'enable.idempotence': true, 'linger.ms': 0 },
      script: [
        { op: 'send', topic: 'orders', key: 'o', value: 'a', headers: { event_id: 'e1' } },
        { op: 'send', topic: 'orders', key: 'o', value: 'b', headers: { event_id: 'e2' }, delayMs: 5 },
        { op: 'send', topic: 'orders', key: 'o', value: 'c', headers: { event_id: 'e3' }, delayMs: 5 },
      ],
    },
  ],
  faults: [
    { type: 'delay', rpc: 'ProduceResponse', nth: 1, delayMs: 1000, note: 'the answers stay on the wire until the broker dies' },
    { type: 'crash', target: 'broker-0', at: 200, durationMs: 100 },
  ],
} as unknown as Scenario;

describe('an idempotent producer’s in-flight batches retried to its restarted leader', () => {
  it('the reload keeps only the last batch: the first retry is OUT_OF_ORDER_SEQUENCE_NUMBER, the producer bumps its epoch and writes all three again', () => {
    const trace = runScenario(scenario);
    const facts: Fact[] = [];
    for (let i = 0; ; i++) {
      const s = trace.steps.at(i);
      if (!s) break;
      facts.push(...(s.facts as Fact[]));
    }
    const loaded = facts.find((f) => f.kind === 'producerStateLoaded') as unknown as { lastBatchOnly: { producerId: number }[] };
    expect(loaded.lastBatchOnly.map((p) => p.producerId)).toEqual([1000]);
    const rejected = facts.filter((f) => f.kind === 'rejected') as { baseSequence: number; error: string }[];
    expect(rejected.map((r) => [r.baseSequence, r.error])).toEqual([[0, 'OUT_OF_ORDER_SEQUENCE_NUMBER']]);
    const appends = facts.filter((f) => f.kind === 'append') as { producerEpoch: number; baseSequence: number; baseOffset: number }[];
    expect(appends.map((a) => [a.baseOffset, a.producerEpoch, a.baseSequence])).toEqual([
      [0, 0, 0],
      [1, 0, 1],
      [2, 0, 2],
      [3, 1, 0],
      [4, 1, 1],
      [5, 1, 2],
    ]);
    const verdict = summarize(trace).verdict.layers.map((l) => `${l.layer}:${l.status}`);
    expect(verdict).toEqual(['log:more-than-once', 'loss:once']);
  });
});
