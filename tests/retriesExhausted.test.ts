/**
 * A batch that may not be retried again — retries used up, or past its delivery.timeout.ms when an
 * answer comes — fails with the answer's own error (Sender.completeBatch → failBatch(batch, response,
 * …): `response.error.exception()`). A TimeoutException comes only from the expiry itself
 * (RecordAccumulator.expiredBatches, Sender.getExpiredInflightBatches), which that answer came
 * before. Before, the model failed a batch past its delivery timeout with TimeoutException whatever
 * the answer said.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';
import { transactionalSvc } from './fixtures/transactionalSvc';

describe('retries=0 and a lost acknowledgement', () => {
  const trace = runScenario({
    version: 1,
    seed: 11,
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        config: { 'enable.idempotence': false, retries: 0, acks: 'all' },
        script: [{ op: 'send', topic: 'orders', key: 'order-123', value: 'OrderCreated', headers: { event_id: 'evt-789' } }],
      },
    ],
    faults: [{ type: 'drop', rpc: 'ProduceResponse', to: 'orders-service', nth: 1 }],
  });
  const facts = trace.steps.flatMap((s) => (s.facts as Fact[]).map((f) => ({ t: s.t, f })));

  it('the send fails at request.timeout.ms with REQUEST_TIMED_OUT, long before delivery.timeout.ms (120 s)', () => {
    const result = facts.find((x) => x.f.kind === 'sendResult');
    expect(result).toMatchObject({ f: { error: 'REQUEST_TIMED_OUT', offset: null } });
    expect(result?.t).toBeLessThan(120000);
  });

  it('and no TimeoutException is reported: delivery.timeout.ms did not pass', () => {
    const errors = facts.flatMap((x) => (x.f.kind === 'clientError' ? [x.f.error] : []));
    expect(errors).toEqual(['REQUEST_TIMED_OUT']);
  });
});

/**
 * A Produce delayed past delivery.timeout.ms and answered by a reset. Before waitOnMetadata was
 * modelled, e2's AddPartitionsToTxn was in flight at e1's deadline and held its expiry back, so e1
 * failed with the reset's NETWORK_EXCEPTION; now e2's first send() to audit waits for a Metadata
 * answer stuck behind that Produce on broker-0's connection, nothing holds the expiry, and e1 expires
 * in flight at its deadline (the held expiry: tests/producerTxnRequestHoldsData.test.ts).
 */
describe('an answer that comes after delivery.timeout.ms', () => {
  const results = lateAnswer('late-answer', [], 0);

  // e2's send() to audit first waits in waitOnMetadata, and its Metadata request waits on broker-0's
  // connection behind the delayed Produce: no AddPartitionsToTxn is out when e1's delivery.timeout.ms
  // passes, so e1 expires in flight then (TimeoutException, abortable); e2 goes on in ABORTABLE_ERROR
  // once the reset lets its Metadata through, and fails with that last error
  it('e1 expires in flight at its deadline with TimeoutException; e2, held in waitOnMetadata behind the delayed Produce, fails with the same last error', () => {
    expect(results.map((x) => [x.t, x.f.eventId, x.f.error])).toEqual([
      [15014, 'e1', 'TimeoutException'],
      [16111, 'e2', 'TimeoutException'],
    ]);
  });
});

/**
 * The expiry held back (Sender.runOnce does not reach sendProducerData while an AddPartitionsToTxn
 * is in flight), and the Produce's connection reset after delivery.timeout.ms has passed: the batch
 * fails with the disconnect's NETWORK_EXCEPTION (Sender.completeBatch → failBatch with the answer's
 * own error), and the transaction's abortable error is that one, so the record never drained (e2,
 * failed by abortUndrainedBatches with the last error) fails with it too. A first transaction writes
 * to audit, so the producer knows both topics and e2's send() goes straight to its
 * AddPartitionsToTxn, in flight at e1's deadline.
 */
describe('an answer that comes after delivery.timeout.ms, the expiry held back by an AddPartitionsToTxn', () => {
  const results = lateAnswer(
    'late-answer-held',
    [
      { op: 'beginTransaction' },
      { op: 'send', topic: 'audit', key: 'k', value: 'z', headers: { event_id: 'e0' } },
      { op: 'commitTransaction' },
    ],
    1,
  );

  it("e1, answered by a reset past its deadline, fails with the reset's NETWORK_EXCEPTION; e2, never drained, with the same last error", () => {
    expect(results.map((x) => [x.t, x.f.eventId, x.f.error])).toEqual([
      [10, 'e0', null],
      [16019, 'e1', 'NETWORK_EXCEPTION'],
      [20002, 'e2', 'NETWORK_EXCEPTION'],
    ]);
  });
});

/**
 * The late-answer run: a transaction sends e1 to orders, then e2 to audit at 15000 ms, and aborts;
 * e1's AddPartitionsToTxn is delayed 10 s, e2's 5 s, e1's Produce 6 s (past delivery.timeout.ms), and
 * its answer's connection reset. `before`: what the script does first; `earlier`: how many of each
 * request it sends there, so the faults still fall on e1's and e2's. The send() results, with times.
 */
function lateAnswer(id: string, before: readonly Record<string, unknown>[], earlier: number) {
  const trace = runScenario(
    transactionalSvc(
      id,
      { 'request.timeout.ms': 15000, 'delivery.timeout.ms': 15010 },
      [
        ...before,
        { op: 'beginTransaction' },
        { op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
        { op: 'send', at: 15000, topic: 'audit', key: 'k', value: 'b', headers: { event_id: 'e2' } },
        { op: 'sleep', ms: 10000 },
        { op: 'abortTransaction' },
      ],
      [
        { type: 'delay', rpc: 'AddPartitionsToTxn', from: 'svc', nth: earlier + 1, count: 1, delayMs: 10000 },
        { type: 'delay', rpc: 'AddPartitionsToTxn', from: 'svc', nth: earlier + 2, count: 1, delayMs: 5000 },
        { type: 'delay', rpc: 'Produce', from: 'svc', nth: earlier + 1, count: 1, delayMs: 6000 },
        { type: 'reset', rpc: 'ProduceResponse', to: 'svc.producer', nth: earlier + 1, count: 1 },
      ],
    ),
  );
  return trace.steps.flatMap((s) => (s.facts as Fact[]).flatMap((f) => (f.kind === 'sendResult' ? [{ t: s.t, f }] : [])));
}
