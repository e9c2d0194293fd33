/**
 * Worked cases, the idempotent producer: expected outcomes written from Kafka's source (4.0 line)
 * before the scenarios were run.
 */
import { describe, expect, it } from 'vitest';
import { run } from './helpers';

describe('worked cases: the idempotent producer', () => {
  /*
   * Five sends 1 ms apart with linger.ms=0 and a 20 ms link: five Produce requests in flight on one
   * connection (max.in.flight.requests.per.connection=5); the second request is dropped.
   * - Kafka's requests travel on one TCP connection: a request cannot vanish while the ones behind it
   *   arrive, so OUT_OF_ORDER_SEQUENCE_NUMBER cannot come from a dropped middle request. Requests
   *   3–5 wait behind it (the model's drop stalls the connection) until request 2's
   *   request.timeout.ms (30000): NetworkClient.handleTimedOutRequests → processTimeoutDisconnection
   *   → cancelInFlightRequests fails every request in flight on the node as timed out, and
   *   Sender.handleProduceResponse (response.wasTimedOut()) completes each batch with REQUEST_TIMED_OUT:
   *   four retriable errors, one per batch.
   * - The retries keep their sequences (RecordAccumulator.reenqueue inserts in sequence order;
   *   drainBatchesForOneNode sends a retried batch only when it is the first in flight): r1–r4 are
   *   appended after 30 s at offsets 1–4, in send order, epoch 0, sequences 1–4. The application sees
   *   five successes.
   */
  it('inflight-five-drop-middle: the stalled connection times out, the four batches are retried in sequence order', () => {
    const r = run('inflight-five-drop-middle.json');
    expect(r.log('t-0')).toEqual(['0 r0 p e0 s0', '1 r1 p e0 s1', '2 r2 p e0 s2', '3 r3 p e0 s3', '4 r4 p e0 s4']);
    expect(r.errors('p')).toEqual(['REQUEST_TIMED_OUT', 'REQUEST_TIMED_OUT', 'REQUEST_TIMED_OUT', 'REQUEST_TIMED_OUT']);
    expect(r.facts('rejected')).toEqual([]);
    const appendTimes = r.trace.steps.filter((s) => s.facts.some((f) => f.kind === 'append')).map((s) => s.t);
    expect(appendTimes[0]).toBeLessThan(200);
    expect(appendTimes.slice(1).every((t) => t > 30000)).toBe(true);
    expect(r.facts('sendResult').map((f) => `${f.offset}:${f.error ?? 'ok'}`)).toEqual(['0:ok', '1:ok', '2:ok', '3:ok', '4:ok']);
  });

  /*
   * An idempotent producer writes r0 (t-0) and s0 (t-1), then r1 (t-0) whose answer is dropped; with
   * request.timeout.ms=1000 and retry.backoff.ms=1000 the retry would leave at about 2200, after
   * delivery.timeout.ms (1500) has expired the batch in the accumulator.
   * - Sender.sendProducerData: accumulator.expiredBatches → failBatch(TimeoutException) and, the batch
   *   being inRetry(), transactionManager.markSequenceUnresolved. With nothing in flight,
   *   TransactionManager.maybeResolveSequences finds the next sequence (2) not next after the last
   *   acknowledged (0) → requestEpochBumpForPartition(t-0); bumpIdempotentEpochAndResetIdIfNeeded →
   *   bumpIdempotentProducerEpoch: a local bump to epoch 1 (no InitProducerId for an idempotent
   *   producer) and t-0's sequences restart at 0.
   * - t-1 had nothing unresolved, but the producer has one epoch: its next batch is drained with
   *   maybeUpdateProducerIdAndEpoch (stale epoch, nothing in flight → startSequencesAtBeginning),
   *   epoch 1, sequence 0. Each leader accepts epoch 1 at sequence 0 (ProducerAppendInfo.checkSequence:
   *   a new epoch must start at 0).
   * - r1 was written (offset 1) although its send() failed with TimeoutException.
   */
  it('epoch-bump-two-partitions: an expired in-flight batch bumps the epoch; both partitions restart at sequence 0 with it', () => {
    const r = run('epoch-bump-two-partitions.json');
    expect(r.log('t-0')).toEqual(['0 r0 p e0 s0', '1 r1 p e0 s1', '2 r2 p e1 s0']);
    expect(r.log('t-1')).toEqual(['0 s0 p e0 s0', '1 s1 p e1 s0']);
    expect(r.errors('p')).toEqual(['REQUEST_TIMED_OUT', 'TimeoutException']);
    expect(r.facts('sendResult').map((f) => `${f.topic}-${f.partition}:${f.offset ?? '-'}:${f.error ?? 'ok'}`)).toEqual([
      't-0:0:ok',
      't-1:0:ok',
      't-0:-:TimeoutException',
      't-0:2:ok',
      't-1:1:ok',
    ]);
    // no InitProducerId for the bump: one producer id fact at epoch 0 only from the broker
    expect(r.rpcs('InitProducerId')).toHaveLength(1);
  });

  /*
   * enable.idempotence=false, linger.ms=0, max.in.flight=5, a 20 ms link: r0, r1, r2 go in three
   * requests 1 ms apart; the connection breaks as the third is sent, so all three are lost on the way.
   * - NetworkClient's disconnect fails the node's in-flight requests oldest first
   *   (InFlightRequests.add uses addFirst, clearAll returns descendingIterator); each batch is
   *   re-enqueued with RecordAccumulator.reenqueue, which without a TransactionManager does
   *   deque.addFirst: the deque becomes [r2, r1, r0].
   * - Nothing mutes the partition (max.in.flight > 1), and drainBatchesForOneNode takes the deque's
   *   first batch each time: the retries go r2, r1, r0 and land at offsets 0, 1, 2 — reversed.
   *   (With idempotence, insertInSequenceOrder keeps them in order: inflight-five-drop-middle.)
   */
  it('no-idempotence-reorder: batches retried after a broken connection are written in reverse order', () => {
    const r = run('no-idempotence-reorder.json');
    expect(r.log('t-0')).toEqual(['0 r2 -1 e-1 s-1', '1 r1 -1 e-1 s-1', '2 r0 -1 e-1 s-1']);
    expect(r.errors('p')).toEqual(['NETWORK_EXCEPTION', 'NETWORK_EXCEPTION', 'NETWORK_EXCEPTION']);
    expect(r.facts('sendResult').map((f) => `${f.ref}@${f.offset}`)).toEqual(['2@0', '1@1', '0@2']);
  });
});
