/**
 * A transactional request that waited for a coordinator lookup is a retry, sent retry.backoff.ms after
 * the FindCoordinator's answer. Kafka: Sender.maybeSendAndPollTransactionalRequest — with the
 * coordinator unknown, `maybeFindCoordinatorAndRetry` (TransactionManager.lookupCoordinator enqueues a
 * FindCoordinatorHandler, Priority.FIND_COORDINATOR, and `retry(handler)` sets `isRetry`); the
 * FindCoordinator, a new handler, goes at once; then `if (nextRequestHandler.isRetry())
 * time.sleep(nextRequestHandler.retryBackoffMs())` before the request — also a transactional
 * producer's very first InitProducerId. After NOT_COORDINATOR / COORDINATOR_NOT_AVAILABLE, or a lost
 * request (TxnRequestHandler.onComplete's disconnect branch), `lookupCoordinator` + `reenqueue`: the
 * FindCoordinator at once, the request after the backoff. Before, the model sent the first request at
 * once after the FindCoordinator's answer, and after an error waited first and looked up after.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../src/sim/actors/out';
import type { Effect } from '../src/sim/kernel/effects';
import { maybeSendTxnRequest, onCoordinatorRequestLost, onCoordinatorResponse } from '../src/sim/producer/transactionManager';
import { runScenario } from '../src/sim/run';
import { producerDraft } from './fixtures/producerDraft';
import { HOSTED_TXN_CLUSTER, HOSTED_TXN_META } from './replication/hostBroker';

/** The audit's f1: 3 brokers, a replicated __transaction_state, retry.backoff.ms 1000. */
const f1 = {
  version: 1,
  id: 'lookup-retry-backoff',
  title: 'first InitProducerId after FindCoordinator',
  question: 'q',
  expected: 'e',
  seed: 1,
  cluster: HOSTED_TXN_CLUSTER,
  topics: [{ name: 'payments', replicationFactor: 3, config: { 'min.insync.replicas': 2 } }],
  clients: [
    {
      id: 'p',
      type: 'producer',
      startAt: 100,
      config: { 'transactional.id': 'p-1', 'retry.backoff.ms': 1000 },
      script: [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'payments', key: 'k', value: 'v', headers: { event_id: 'e1' } },
        { op: 'commitTransaction' },
      ],
    },
  ],
  faults: [],
};

describe("a transactional producer's first lookup", () => {
  it('sends InitProducerId retry.backoff.ms after the FindCoordinator is answered', () => {
    const trace = runScenario(f1);
    const find = trace.envelopes.filter((e) => e.rpc === 'FindCoordinatorResponse' && e.to === 'p.producer');
    const init = trace.envelopes.filter((e) => e.rpc === 'InitProducerId' && e.from === 'p.producer');
    expect(find).toHaveLength(1);
    expect(init).toHaveLength(1);
    const answeredAt = trace.steps.at(find[0]?.deliveredStep ?? -1)?.t ?? -1;
    expect(answeredAt).toBe(102);
    expect(init[0]?.sentAt).toBe(answeredAt + 1000);
  });
});

const meta = HOSTED_TXN_META;

const sends = (out: Out) => out.effects.flatMap((e: Effect) => (e.type === 'send' ? [e.rpc] : []));
const timers = (out: Out) => out.effects.flatMap((e: Effect) => (e.type === 'timer' ? [`${e.key}:${e.delay}`] : []));

/** A transactional producer whose InitProducerId is in flight to broker-0's coordinator. */
function initInFlight() {
  const d = producerDraft(meta, { 'transactional.id': 'p-1', 'retry.backoff.ms': 1000 });
  d.txnCoordinator = 'broker-0.txn-coordinator';
  d.initPending = true;
  const out = new Out();
  maybeSendTxnRequest(d, out);
  expect(sends(out)).toEqual(['InitProducerId']);
  return d;
}

describe('a lookup again after an error (lookupCoordinator, then reenqueue)', () => {
  /** The rest of the Sender loop, then the FindCoordinator's answer. */
  function afterLookup(d: ReturnType<typeof initInFlight>, first: Out) {
    maybeSendTxnRequest(d, first);
    expect(sends(first)).toEqual(['FindCoordinator']);
    expect(timers(first)).toEqual([]);
    const answer = new Out();
    const correlationId = d.coordinatorRequest?.correlationId ?? -1;
    onCoordinatorResponse(
      d,
      { type: 'FindCoordinatorResponse', payload: { correlationId, error: 'NONE', coordinator: 'broker-1.txn-coordinator' } },
      answer,
    );
    maybeSendTxnRequest(d, answer);
    // the request is a retry: no InitProducerId until retry.backoff.ms has passed
    expect(sends(answer)).toEqual([]);
    expect(timers(answer)).toEqual(['txnRetry:1000']);
    d.txnRetryArmed = false;
    const retry = new Out();
    maybeSendTxnRequest(d, retry);
    expect(sends(retry)).toEqual(['InitProducerId']);
  }

  it('NOT_COORDINATOR: FindCoordinator at once, the request retry.backoff.ms after its answer', () => {
    const d = initInFlight();
    const out = new Out();
    const correlationId = d.coordinatorRequest?.correlationId ?? -1;
    onCoordinatorResponse(
      d,
      { type: 'InitProducerIdResponse', payload: { correlationId, error: 'NOT_COORDINATOR', producerId: -1, producerEpoch: -1 } },
      out,
    );
    afterLookup(d, out);
  });

  it('a lost request: FindCoordinator at once (to the next broker), the request retry.backoff.ms after its answer', () => {
    const d = initInFlight();
    const out = new Out();
    expect(onCoordinatorRequestLost(d, d.coordinatorRequest?.correlationId ?? -1, 'REQUEST_TIMED_OUT', out)).toBe(true);
    afterLookup(d, out);
  });

  it('COORDINATOR_LOAD_IN_PROGRESS keeps the coordinator: the same request after retry.backoff.ms', () => {
    const d = initInFlight();
    const out = new Out();
    const correlationId = d.coordinatorRequest?.correlationId ?? -1;
    onCoordinatorResponse(
      d,
      {
        type: 'InitProducerIdResponse',
        payload: { correlationId, error: 'COORDINATOR_LOAD_IN_PROGRESS', producerId: -1, producerEpoch: -1 },
      },
      out,
    );
    maybeSendTxnRequest(d, out);
    expect(sends(out)).toEqual([]);
    expect(timers(out)).toEqual(['txnRetry:1000']);
  });
});
