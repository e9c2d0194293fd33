/**
 * The leader's queue of transaction verifications (AddPartitionsToTxnManager): one request in
 * flight per coordinator node (`inflightNodes`), what waits meanwhile sent together in the next
 * (`generateRequests`), and a second verification of a transactional.id already waiting replacing
 * it as `addTxnData` does. The old model had no queue: every Produce sent its own request.
 */
import { describe, expect, it } from 'vitest';
import {
  completeVerification,
  EMPTY_VERIFICATION_QUEUE,
  enqueueVerification,
  type QueuedTransaction,
  requestPayload,
  takeRequests,
  type VerificationQueue,
} from '../../src/sim/broker/verificationQueue';

const txn = (transactionalId: string, verification: number, producerEpoch = 0): QueuedTransaction => ({
  transactionalId,
  producerId: 1000,
  producerEpoch,
  verifyOnly: true,
  partitions: [{ topic: 'events', partition: 0 }],
  verification,
});

function enqueue(q: VerificationQueue, node: string, t: QueuedTransaction) {
  return enqueueVerification(q, node, t);
}

describe('one AddPartitionsToTxn in flight per coordinator node', () => {
  it('sends the first at once, holds the rest until the answer, then sends them in one request', () => {
    let q = enqueue(EMPTY_VERIFICATION_QUEUE, 'txn-coordinator', txn('a-1', 0)).queue;
    const first = takeRequests(q);
    expect(first.requests).toEqual([{ node: 'txn-coordinator', correlationId: 0, transactions: [txn('a-1', 0)] }]);
    q = first.queue;
    q = enqueue(q, 'txn-coordinator', txn('b-1', 1)).queue;
    q = enqueue(q, 'txn-coordinator', txn('c-1', 2)).queue;
    // a-1 is unanswered: nothing goes out
    expect(takeRequests(q).requests).toEqual([]);
    const done = completeVerification(q, 0);
    expect(done?.node).toBe('txn-coordinator');
    expect(done?.transactions).toEqual([txn('a-1', 0)]);
    const next = takeRequests(done?.queue ?? []);
    expect(next.requests).toEqual([{ node: 'txn-coordinator', correlationId: 1, transactions: [txn('b-1', 1), txn('c-1', 2)] }]);
    // answered: the queue is empty again
    expect(completeVerification(next.queue, 1)?.queue).toEqual([]);
  });

  it('other coordinator nodes are not held by one in flight', () => {
    let q = takeRequests(enqueue(EMPTY_VERIFICATION_QUEUE, 'broker-0.txn-coordinator', txn('a-1', 0)).queue).queue;
    q = enqueue(q, 'broker-1.txn-coordinator', txn('b-1', 1)).queue;
    expect(takeRequests(q).requests.map((r) => r.node)).toEqual(['broker-1.txn-coordinator']);
  });

  it('a stale or unknown answer completes nothing', () => {
    const q = takeRequests(enqueue(EMPTY_VERIFICATION_QUEUE, 'txn-coordinator', txn('a-1', 0)).queue).queue;
    expect(completeVerification(q, 7)).toBeNull();
  });
});

describe('addTxnData: a second verification of a transactional.id that is waiting', () => {
  // a-1's first verification is in flight, so the next ones wait
  const busy = () => takeRequests(enqueue(EMPTY_VERIFICATION_QUEUE, 'txn-coordinator', txn('x-1', 0)).queue).queue as VerificationQueue;

  it('same epoch: the older is answered NETWORK_EXCEPTION and the newer waits in its place', () => {
    const q = enqueue(busy(), 'txn-coordinator', txn('a-1', 1, 3)).queue;
    const r = enqueue(q, 'txn-coordinator', txn('a-1', 2, 3));
    expect(r.answered).toEqual([{ verification: 1, error: 'NETWORK_EXCEPTION' }]);
    expect(r.queue[0]?.waiting).toEqual([txn('a-1', 2, 3)]);
  });

  it('higher epoch: the older is answered INVALID_PRODUCER_EPOCH (fenced)', () => {
    const q = enqueue(busy(), 'txn-coordinator', txn('a-1', 1, 3)).queue;
    const r = enqueue(q, 'txn-coordinator', txn('a-1', 2, 4));
    expect(r.answered).toEqual([{ verification: 1, error: 'INVALID_PRODUCER_EPOCH' }]);
    expect(r.queue[0]?.waiting).toEqual([txn('a-1', 2, 4)]);
  });

  it('lower epoch: the newer is answered INVALID_PRODUCER_EPOCH and not queued', () => {
    const q = enqueue(busy(), 'txn-coordinator', txn('a-1', 1, 4)).queue;
    const r = enqueue(q, 'txn-coordinator', txn('a-1', 2, 3));
    expect(r.answered).toEqual([{ verification: 2, error: 'INVALID_PRODUCER_EPOCH' }]);
    expect(r.queue).toBe(q);
  });

  it('the replaced entry goes to the back, after the other waiting transactions', () => {
    let q = enqueue(busy(), 'txn-coordinator', txn('a-1', 1)).queue;
    q = enqueue(q, 'txn-coordinator', txn('b-1', 2)).queue;
    q = enqueue(q, 'txn-coordinator', txn('a-1', 3)).queue;
    expect(q[0]?.waiting.map((t) => t.verification)).toEqual([2, 3]);
  });

  it('one in flight for the same transactional.id is not replaced: the new one waits for the next request', () => {
    const r = enqueue(busy(), 'txn-coordinator', txn('x-1', 1));
    expect(r.answered).toEqual([]);
    expect(r.queue[0]?.waiting).toEqual([txn('x-1', 1)]);
  });
});

describe("a group coordinator's verification in the queue (CoordinatorPartitionWriter.maybeStartTransactionVerification)", () => {
  const gc = (transactionalId: string, verification: number, id: number): QueuedTransaction => ({
    ...txn(transactionalId, verification),
    partitions: [{ topic: '__consumer_offsets', partition: 1 }],
    answerTo: { actor: 'broker-0.group-coordinator', id },
  });

  it('waits with the Produce verifications and is sent with them, without its bookkeeping', () => {
    let q = takeRequests(enqueue(EMPTY_VERIFICATION_QUEUE, 'txn-coordinator', txn('x-1', 0)).queue).queue;
    q = enqueue(q, 'txn-coordinator', gc('app-0', 1, 7)).queue;
    q = enqueue(q, 'txn-coordinator', txn('b-1', 2)).queue;
    const next = takeRequests(completeVerification(q, 0)?.queue ?? []).requests[0];
    expect(next?.transactions.map((t) => t.transactionalId)).toEqual(['app-0', 'b-1']);
    expect(requestPayload(next as NonNullable<typeof next>).transactions[0]).toEqual({
      transactionalId: 'app-0',
      producerId: 1000,
      producerEpoch: 0,
      verifyOnly: true,
      partitions: [{ topic: '__consumer_offsets', partition: 1 }],
    });
  });

  it('replaced by a newer verification of its transactional.id, its answer keeps whom it goes back to', () => {
    const q = enqueue(
      takeRequests(enqueue(EMPTY_VERIFICATION_QUEUE, 'txn-coordinator', txn('x-1', 0)).queue).queue,
      'txn-coordinator',
      gc('app-0', 1, 7),
    );
    const r = enqueue(q.queue, 'txn-coordinator', txn('app-0', 2));
    expect(r.answered).toEqual([{ verification: 1, error: 'NETWORK_EXCEPTION', answerTo: { actor: 'broker-0.group-coordinator', id: 7 } }]);
  });
});
