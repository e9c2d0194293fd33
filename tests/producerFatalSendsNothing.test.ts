/**
 * A fenced producer (FATAL_ERROR) sends nothing more, and flush() returns. Kafka: Sender.runOnce —
 * `if (transactionManager.hasFatalError()) { if (lastError != null) maybeAbortBatches(lastError);
 * client.poll(retryBackoffMs, …); return; }` — so no queued AddPartitionsToTxn, AddOffsetsToTxn,
 * TxnOffsetCommit or EndTxn goes out once fatal; KafkaProducer.flush (beginFlush,
 * awaitFlushCompletion) throws nothing, in any state; commitTransaction() throws the fatal error
 * (TransactionManager.maybeFailWithError). Before, every refused call in FATAL_ERROR ran the Sender
 * loop, which sent the queued AddPartitionsToTxn again, and a flush() was failed with PRODUCER_FENCED
 * (the one waiting at the fence) or refused with ProducerFencedException (a later one).
 *
 * The scenarios (the audit's f2): the zombie-fencing preset with `orders` of 2 partitions, instance
 * A's evt-2 sent to orders-1; its AddPartitionsToTxn is fenced while flush() waits; the script then
 * calls commitTransaction() — and, in the second, flush() again first.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';

const run = (name: string) =>
  runScenario(JSON.parse(readFileSync(new URL(`./fixtures/producerFatal/${name}.json`, import.meta.url), 'utf8')));
type Trace = ReturnType<typeof run>;

const PRODUCER = 'instance-a.producer';

/** The envelopes the producer sent in steps after the one that made it FATAL_ERROR. */
function sentAfterFatal(trace: Trace): string[] {
  const fatalStep = trace.steps.find((s) => s.actor === PRODUCER && s.after === 'FATAL_ERROR');
  expect(fatalStep).toBeDefined();
  return trace.steps
    .filter((s) => s.i > (fatalStep?.i ?? 0))
    .flatMap((s) => s.sent.map((id) => trace.envelopeAt(id)))
    .filter((e) => e?.from === PRODUCER)
    .map((e) => e?.rpc ?? '');
}

const replies = (trace: Trace) =>
  trace.steps
    .filter((s) => s.actor === 'instance-a.app' && s.label === 'reply')
    .map((s) => s.detail as { call: string; ok: boolean; error: string | null })
    .filter((r) => r.call === 'flush' || r.call === 'commitTransaction');

const clientErrors = (trace: Trace) =>
  trace.steps.flatMap((s) => (s.facts as Fact[]).flatMap((f) => (f.kind === 'clientError' && f.client === 'instance-a' ? [f.error] : [])));

describe('a producer in FATAL_ERROR', () => {
  it('sends no queued transactional request, whatever the application calls next', () => {
    const trace = run('f2-zombie-two-partitions');
    expect(sentAfterFatal(trace)).toEqual([]);
    // orders-0's, then orders-1's (fenced): none is sent again after the fence
    const adds = trace.envelopes.filter((e) => e.rpc === 'AddPartitionsToTxn' && e.from === PRODUCER);
    expect(adds).toHaveLength(2);
  });

  it('completes the flush() that waited at the fence, and commitTransaction() throws ProducerFencedException', () => {
    const trace = run('f2-zombie-two-partitions');
    expect(replies(trace)).toEqual([
      { call: 'flush', ok: true, error: null },
      { call: 'flush', ok: true, error: null },
      expect.objectContaining({ call: 'commitTransaction', ok: false, error: 'ProducerFencedException' }),
    ]);
  });

  it('answers a later flush() at once, without an error', () => {
    const trace = run('f2-flush-fatal');
    expect(sentAfterFatal(trace)).toEqual([]);
    expect(replies(trace).slice(-3)).toEqual([
      { call: 'flush', ok: true, error: null },
      { call: 'flush', ok: true, error: null },
      expect.objectContaining({ call: 'commitTransaction', ok: false, error: 'ProducerFencedException' }),
    ]);
    expect(clientErrors(trace)).toEqual(['PRODUCER_FENCED', 'ProducerFencedException']);
  });
});
