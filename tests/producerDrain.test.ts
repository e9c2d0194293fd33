/**
 * The Sender's drain, tested on its functions directly against Kafka 4.0's client
 * (RecordAccumulator.drainBatchesForOneNode, shouldStopDrainBatchesForPartition, reenqueue /
 * insertInSequenceOrder, isMuted; InFlightRequests.canSendMore, clearAll): retries in sequence order
 * one at a time ahead of new batches, a non-idempotent retry to the front of its deque,
 * max.in.flight.requests.per.connection per broker, and a muted partition when it is 1 — also after
 * its batch expired in flight, until the request is answered (Sender.getExpiredInflightBatches,
 * completeBatch → unmutePartition).
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../src/sim/actors/out';
import type { ClusterMetadata } from '../src/sim/cluster/metadata';
import type { Effect } from '../src/sim/kernel/effects';
import { accumulate, drain, onConnectionLost, onDeliveryTimeout, onProduceResponse, type ProducerDraft } from '../src/sim/producer/sender';
import { lastAckedSequence } from '../src/sim/producer/sequences';
import type { Fact } from '../src/sim/trace/facts';
import { producerDraft } from './fixtures/producerDraft';

const meta: ClusterMetadata = {
  brokers: ['broker-0', 'broker-1'],
  topics: { orders: { name: 'orders', partitions: 1, leaders: ['broker-0'] } },
  transactionCoordinator: 'txn-coordinator',
  groupCoordinator: 'group-coordinator',
  transactionStatePartitions: 3,
  consumerOffsetsPartitions: 3,
};

/** A producer with linger.ms=0; idempotent ones have producerId 7, epoch 0. */
const producer = (config: Record<string, string | number | boolean> = {}) => producerDraft(meta, config);

/** Appends one record (value `value`) and runs the drain, as send() does. */
function send(d: ProducerDraft, value: string, now = 0): Out {
  accumulate(d, { topic: 'orders', key: null, value }, now, new Out());
  const out = new Out();
  drain(d, now, out);
  return out;
}

/** The Produce requests among the effects: (broker, first record's value, baseSequence). */
function produced(out: Out): [string, string, number][] {
  return out.effects
    .filter((e): e is Extract<Effect, { type: 'send' }> => e.type === 'send' && e.rpc === 'Produce')
    .map((e) => {
      const p = e.payload as { partitions: { batch: { baseSequence: number; records: { value: string }[] } }[] };
      const batch = p.partitions[0]?.batch;
      return [e.to, batch?.records[0]?.value as string, batch?.baseSequence as number];
    });
}

const batchWith = (d: ProducerDraft, value: string) => d.batches.find((b) => b.records[0]?.value === value);

/** The batch (in flight, waiting, or expired in flight) whose first record is `value`. */
const anyBatchWith = (d: ProducerDraft, value: string) =>
  batchWith(d, value) ?? d.expiredInFlight.find((b) => b.records[0]?.value === value);

function answer(d: ProducerDraft, value: string, error: 'NONE' | 'NOT_ENOUGH_REPLICAS' | 'NOT_LEADER_OR_FOLLOWER', now: number): Out {
  const b = anyBatchWith(d, value);
  const out = new Out();
  onProduceResponse(
    d,
    {
      correlationId: b?.correlationId as number,
      responses: [{ topic: 'orders', partition: 0, error, baseOffset: error === 'NONE' ? 0 : -1, errorMessage: null }],
    },
    now,
    out,
  );
  drain(d, now, out);
  return out;
}

/** Runs the drain alone at `now` (a Sender loop with nothing new sent). */
function answerless(d: ProducerDraft, now: number): Out {
  const out = new Out();
  drain(d, now, out);
  return out;
}

/** Far past retry.backoff.max.ms: every retry's backoff is over. */
const LATER = 10_000;

describe('drain: retries in sequence order, one at a time, ahead of new batches', () => {
  it('idempotent: the lowest sequence goes first; the next waits until it is answered (firstInFlightSequence); new records wait behind them', () => {
    const d = producer();
    for (const v of ['a', 'b', 'c']) send(d, v);
    expect(d.batches.map((b) => [b.records[0]?.value, b.baseSequence, b.inFlight])).toEqual([
      ['a', 0, true],
      ['b', 1, true],
      ['c', 2, true],
    ]);
    // all three fail, not in sequence order (answers from two connections, say)
    answer(d, 'c', 'NOT_ENOUGH_REPLICAS', 10);
    answer(d, 'a', 'NOT_ENOUGH_REPLICAS', 10);
    answer(d, 'b', 'NOT_ENOUGH_REPLICAS', 10);
    // a new record does not overtake the retries (the deque's head is a batch backing off)
    expect(produced(send(d, 'd', 11))).toEqual([]);
    const first = new Out();
    drain(d, LATER, first);
    expect(produced(first)).toEqual([['broker-0', 'a', 0]]);
    expect(produced(answer(d, 'a', 'NONE', LATER + 1))).toEqual([['broker-0', 'b', 1]]);
    // c is the last retry; behind it the new batch (no sequence yet: the firstInFlightSequence rule is
    // for batches with one) goes in the next request, with the next sequence — one batch of a
    // partition per request
    expect(produced(answer(d, 'b', 'NONE', LATER + 2))).toEqual([
      ['broker-0', 'c', 2],
      ['broker-0', 'd', 3],
    ]);
  });

  it('idempotent: a retry goes out while later sequences are still in flight, if it is the first in flight', () => {
    const d = producer();
    for (const v of ['a', 'b']) send(d, v);
    answer(d, 'a', 'NOT_ENOUGH_REPLICAS', 10);
    const retry = new Out();
    drain(d, LATER, retry);
    expect(produced(retry)).toEqual([['broker-0', 'a', 0]]);
    expect(batchWith(d, 'b')?.inFlight).toBe(true);
  });

  it('without idempotence a failed batch goes back to the front of its deque: the batch that failed last is sent again first', () => {
    const d = producer({ 'enable.idempotence': false, acks: '1' });
    for (const v of ['a', 'b']) send(d, v);
    // the connection breaks: its requests fail oldest first (InFlightRequests.clearAll), a then b,
    // and each is put first in the deque (RecordAccumulator.reenqueue → addFirst): [b, a]
    onConnectionLost(d, 'broker-0', 'NETWORK_EXCEPTION', 10, new Out());
    const retry = new Out();
    drain(d, LATER, retry);
    expect(produced(retry)).toEqual([
      ['broker-0', 'b', -1],
      ['broker-0', 'a', -1],
    ]);
  });

  it('a disconnect fails the requests of the connection in the order they were sent', () => {
    const d = producer({ 'enable.idempotence': false, acks: '1' });
    for (const v of ['a', 'b']) send(d, v);
    // a is answered with a retriable error and sent again: its request is now the newest
    answer(d, 'a', 'NOT_ENOUGH_REPLICAS', 10);
    drain(d, LATER, new Out());
    expect((batchWith(d, 'a')?.correlationId as number) > (batchWith(d, 'b')?.correlationId as number)).toBe(true);
    onConnectionLost(d, 'broker-0', 'NETWORK_EXCEPTION', LATER + 1, new Out());
    // b failed first, then a: a is at the front and goes first
    const retry = new Out();
    drain(d, 2 * LATER, retry);
    expect(produced(retry).map(([, v]) => v)).toEqual(['a', 'b']);
  });
});

describe('drain: max.in.flight.requests.per.connection', () => {
  it('counts the requests in flight to a broker: the third batch waits until one is answered', () => {
    const d = producer({ 'max.in.flight.requests.per.connection': 2 });
    expect(produced(send(d, 'a'))).toHaveLength(1);
    expect(produced(send(d, 'b'))).toHaveLength(1);
    expect(produced(send(d, 'c'))).toEqual([]);
    expect(produced(answer(d, 'a', 'NONE', 5))).toEqual([['broker-0', 'c', 2]]);
  });

  it('at 1 a partition with a batch in flight is muted, even when its leader moved to another broker', () => {
    const d = producer({ 'enable.idempotence': false, acks: '1', 'max.in.flight.requests.per.connection': 1 });
    expect(produced(send(d, 'a'))).toEqual([['broker-0', 'a', -1]]);
    // the producer learns broker-1 leads orders-0 now; a is still in flight to broker-0
    d.meta = { ...d.meta, topics: { orders: { ...meta.topics.orders, leaders: ['broker-1'] } } } as ClusterMetadata;
    expect(produced(send(d, 'b', 1))).toEqual([]);
    // a's answer unmutes the partition
    expect(produced(answer(d, 'a', 'NONE', 2))).toEqual([['broker-1', 'b', -1]]);
  });
});

/** delivery.timeout.ms of the batch whose first record is `value` passes now, and the Sender drains (as the machine does). */
function expire(d: ProducerDraft, value: string, now: number): Out {
  const out = new Out();
  onDeliveryTimeout(d, batchWith(d, value)?.id as number, now, out);
  drain(d, now, out);
  return out;
}

/** The send results among the effects: (first record's ref, error). */
function results(out: Out): [number, string | null][] {
  return out.effects
    .filter((e): e is { type: 'fact'; fact: Extract<Fact, { kind: 'sendResult' }> } => e.type === 'fact' && e.fact.kind === 'sendResult')
    .map((e) => [e.fact.ref, e.fact.error]);
}

/** Past the default delivery.timeout.ms (120 s), with the request still unanswered. */
const EXPIRY = 120_000;

describe('a batch that expires in flight: failed at once, its request outstanding until answered', () => {
  it('at max.in.flight.requests.per.connection=1 its partition stays muted until the late answer (completeBatch → unmutePartition)', () => {
    const d = producer({ 'enable.idempotence': false, acks: '1', 'max.in.flight.requests.per.connection': 1 });
    expect(produced(send(d, 'a'))).toEqual([['broker-0', 'a', -1]]);
    expect(produced(send(d, 'b', 1))).toEqual([]);
    const expiry = expire(d, 'a', EXPIRY);
    // a's record fails now (TimeoutException) …
    expect(results(expiry)).toEqual([[0, 'TimeoutException']]);
    expect(batchWith(d, 'a')).toBeUndefined();
    // … but its request is still outstanding: b waits behind it
    expect(produced(expiry)).toEqual([]);
    expect(d.expiredInFlight.map((b) => b.records[0]?.value)).toEqual(['a']);
    // the late answer (an error here) unmutes the partition: b goes; a is neither retried nor reported again
    const late = answer(d, 'a', 'NOT_ENOUGH_REPLICAS', EXPIRY + 1);
    expect(produced(late)).toEqual([['broker-0', 'b', -1]]);
    expect(results(late)).toEqual([]);
    expect(d.expiredInFlight).toEqual([]);
  });

  it('its request still counts against max.in.flight.requests.per.connection (InFlightRequests.canSendMore) until answered', () => {
    const d = producer({ 'max.in.flight.requests.per.connection': 2 });
    send(d, 'a');
    send(d, 'b');
    expect(produced(send(d, 'c', 1))).toEqual([]);
    expect(produced(expire(d, 'a', EXPIRY))).toEqual([]);
    expect(produced(answer(d, 'a', 'NONE', EXPIRY + 1))).toEqual([['broker-0', 'c', 2]]);
  });

  it('a late success still moves the last acknowledged sequence (handleCompletedBatch); its record stays failed', () => {
    const d = producer();
    send(d, 'a');
    send(d, 'b');
    expire(d, 'a', EXPIRY);
    expect(lastAckedSequence(d, 'orders-0')).toBe(-1);
    const late = answer(d, 'a', 'NONE', EXPIRY + 1);
    expect(results(late)).toEqual([]);
    expect(lastAckedSequence(d, 'orders-0')).toBe(0);
  });

  it('a late success after its partition restarted under a bumped epoch still moves the last acknowledged sequence (maybeUpdateLastAckedSequence compares sequences only)', () => {
    const d = producer();
    // one batch of three records: sequences 0–2 under epoch 0
    for (const v of ['a', 'a2', 'a3']) accumulate(d, { topic: 'orders', key: null, value: v }, 0, new Out());
    drain(d, 0, new Out());
    // retried once (so an expiry leaves its sequences unresolved: ProducerBatch.inRetry), then expired in flight
    answer(d, 'a', 'NOT_ENOUGH_REPLICAS', 1);
    expect(produced(answerless(d, LATER))).toEqual([['broker-0', 'a', 0]]);
    expire(d, 'a', EXPIRY);
    // unresolved, nothing acknowledged: the next Sender loop bumps the epoch and the partition restarts at 0
    const b = send(d, 'b', EXPIRY + 1);
    expect(d.producerEpoch).toBe(1);
    expect(produced(b)).toEqual([['broker-0', 'b', 0]]);
    expect(lastAckedSequence(d, 'orders-0')).toBe(-1);
    // a's request is answered late (it was written under epoch 0): Kafka checks no epoch here
    answer(d, 'a', 'NONE', EXPIRY + 2);
    expect(lastAckedSequence(d, 'orders-0')).toBe(2);
    // b's own success (sequence 0 of epoch 1) does not move it back
    answer(d, 'b', 'NONE', EXPIRY + 3);
    expect(lastAckedSequence(d, 'orders-0')).toBe(2);
  });

  it('a late NOT_LEADER_OR_FOLLOWER still asks for a metadata update (completeBatch: InvalidMetadataException)', () => {
    const d = producer();
    send(d, 'a');
    expire(d, 'a', EXPIRY);
    const asked = d.metadata;
    answer(d, 'a', 'NOT_LEADER_OR_FOLLOWER', EXPIRY + 1);
    expect(d.metadata).not.toBe(asked);
    expect(d.expiredInFlight).toEqual([]);
  });

  it("its connection's close ends it too: the muted partition drains, nothing of the expired batch is retried", () => {
    const d = producer({ 'enable.idempotence': false, acks: '1', 'max.in.flight.requests.per.connection': 1 });
    send(d, 'a');
    send(d, 'b', 1);
    expire(d, 'a', EXPIRY);
    // request.timeout.ms passes for a's request: NetworkClient closes the connection
    const lost = new Out();
    onConnectionLost(d, 'broker-0', 'REQUEST_TIMED_OUT', EXPIRY + 10, lost);
    expect(results(lost)).toEqual([]);
    expect(d.expiredInFlight).toEqual([]);
    const next = new Out();
    drain(d, EXPIRY + 10, next);
    expect(produced(next)).toEqual([['broker-0', 'b', -1]]);
  });
});
