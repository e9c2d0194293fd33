/**
 * Kafka's Sender sends no data while a transactional request is outstanding (Sender.runOnce returns
 * when maybeSendAndPollTransactionalRequest does: "as long as there are outstanding transactional
 * requests, we simply wait for them to return"), nor while it sleeps out that request's retry
 * backoff; and since batches expire inside sendProducerData, none expires meanwhile either.
 *
 * On the old code the producer drained data in the same step it sent AddPartitionsToTxn, so e3's
 * Produce to `a` left at 307 ms while AddPartitionsToTxn(b) was answered only at 407 ms; and a
 * batch whose delivery.timeout.ms passed while the coordinator was unreachable failed on time.
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../src/sim/run';
import type { Scenario } from '../src/sim/scenario/schema';
import type { EnvelopeRecord } from '../src/sim/views';

function envelopesOf(trace: ReturnType<typeof runScenario>): EnvelopeRecord[] {
  return [...Array(trace.envelopes.length).keys()].map((i) => trace.envelopes.at(i) as EnvelopeRecord);
}

/** Transaction protocol v1, two topics: a led by broker-0, b by broker-1. */
const twoTopics = {
  version: 1,
  seed: 1,
  cluster: { brokers: 2, 'transaction.version': 1 },
  topics: [
    { name: 'a', partitions: 1, leaders: [0] },
    { name: 'b', partitions: 1, leaders: [1] },
  ],
};

/** The transactional producer p (transactional.id t1) running `script`. */
const producerP = (script: readonly Record<string, unknown>[]) => ({
  id: 'p',
  type: 'producer',
  config: { 'transactional.id': 't1' },
  script,
});

/** A 100 ms link to the coordinator. */
const slowCoordinator = {
  ...twoTopics,
  id: 'txn-request-holds-data',
  network: { latencyMs: 1, links: [{ from: 'p', to: 'txn-coordinator', latencyMs: 100 }] },
  clients: [
    producerP([
      { op: 'beginTransaction' },
      { op: 'send', topic: 'a', key: 'k', value: '1', headers: { event_id: 'e1' } },
      { op: 'flush' },
      { op: 'send', topic: 'b', key: 'k', value: '2', headers: { event_id: 'e2' } },
      { op: 'send', topic: 'a', key: 'k', value: '3', headers: { event_id: 'e3' } },
      { op: 'commitTransaction' },
    ]),
  ],
} as unknown as Scenario;

describe('a transactional request in flight holds the producer’s data back', () => {
  const trace = runScenario(slowCoordinator);
  const envelopes = envelopesOf(trace);
  const txnRequests = envelopes.filter((e) => e.from === 'p.producer' && e.to === 'txn-coordinator');
  const answerOf = (request: EnvelopeRecord) => envelopes.find((e) => e.inReplyTo === request.id);
  const produces = envelopes.filter((e) => e.rpc === 'Produce' && e.from === 'p.producer');

  it('no Produce leaves between a transactional request and the step that handles its answer', () => {
    expect(txnRequests.map((e) => e.rpc)).toEqual(['InitProducerId', 'AddPartitionsToTxn', 'AddPartitionsToTxn', 'EndTxn']);
    for (const request of txnRequests) {
      const answer = answerOf(request) as EnvelopeRecord;
      const during = produces.filter((p) => p.sentStep >= request.sentStep && p.sentStep < (answer.deliveredStep as number));
      expect(during.map((p) => `${request.rpc}: Produce at ${p.sentAt} ms`)).toEqual([]);
    }
  });

  it('e3 (to a, already in the transaction) waits for the answer to AddPartitionsToTxn(b), then goes with e2', () => {
    const addB = txnRequests.filter((e) => e.rpc === 'AddPartitionsToTxn')[1] as EnvelopeRecord;
    const answer = answerOf(addB) as EnvelopeRecord;
    const toA = produces.filter((p) => p.to === 'broker-0');
    const e3 = toA[1] as EnvelopeRecord;
    expect(e3.sentAt).toBeGreaterThanOrEqual(answer.deliverAt as number);
    expect(e3.sentStep).toBeGreaterThanOrEqual(answer.deliveredStep as number);
  });
});

describe('a delivery.timeout.ms that passes while a transactional request is out expires the batch only when the data may go again', () => {
  // broker-0 (a's leader) is down from the start: e1 is retried; the coordinator is down from 1.5 s to 200.5 s,
  // so AddPartitionsToTxn(b) is retried all that time — past e1's delivery.timeout.ms (120 s)
  const scenario = {
    ...twoTopics,
    id: 'expiry-held-by-txn-request',
    clients: [
      producerP([
        { op: 'beginTransaction' },
        { op: 'send', topic: 'a', key: 'k', value: '1', headers: { event_id: 'e1' } },
        { op: 'sleep', ms: 2000 },
        { op: 'send', topic: 'b', key: 'k', value: '2', headers: { event_id: 'e2' } },
        { op: 'commitTransaction' },
      ]),
    ],
    faults: [
      { type: 'crash', target: 'broker-0', at: 0, durationMs: 300000 },
      { type: 'crash', target: 'txn-coordinator', at: 1500, durationMs: 199000 },
    ],
    run: { maxTimeMs: 400000 },
  } as unknown as Scenario;
  const trace = runScenario(scenario);

  it('e1 and e2 fail with TimeoutException once the coordinator answers, at 200.6 s, not at 120 s', () => {
    const results = trace.steps.flatMap((s) =>
      (s.facts as readonly { kind: string; eventId?: string | null; error?: string | null }[])
        .filter((f) => f.kind === 'sendResult')
        .map((f) => [f.eventId, f.error, s.t]),
    );
    expect(results).toEqual([
      ['e1', 'TimeoutException', 200602],
      ['e2', 'TimeoutException', 200602],
    ]);
  });
});
