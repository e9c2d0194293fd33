/**
 * Where a TxnOffsetCommit's verification goes (KIP-890; CoordinatorRuntime
 * .scheduleTransactionalWriteOperation → CoordinatorPartitionWriter.maybeStartTransactionVerification
 * → ReplicaManager.maybeSendPartitionToTransactionCoordinator): through the AddPartitionsToTxnManager
 * of the broker the group coordinator runs on, the queue that broker's Produce verifications use too.
 *
 * - Hosted (`broker-N.group-coordinator`): an in-process call to its broker (`verifyTxnOffsetCommit`),
 *   answered by `txnOffsetCommitVerified`; the broker batches it with its other verifications.
 * - Standalone (`group-coordinator`, one replica of `__consumer_offsets`): the actor stands for the
 *   broker that leads its partitions and keeps that broker's queue itself — one AddPartitionsToTxn
 *   (v4+) in flight to the transaction coordinator, the verifications waiting meanwhile sent together
 *   in the next. No data broker shares it: in this layout no partition leader is that broker.
 */
import type { Out } from '../actors/out';
import {
  completeVerification,
  enqueueVerification,
  type QueuedTransaction,
  requestPayload,
  takeRequests,
  transactionResult,
} from '../broker/verificationQueue';
import { BROKER_REQUEST_TIMEOUT_MS } from '../config/clusterConfig';
import type { KafkaError } from '../protocol/errors';
import type { AddPartitionsToTxnBatchResponse, TopicPartition } from '../protocol/messages';
import type { Draft } from './groupCoordinator.machine';

/** Finishes the TxnOffsetCommit waiting on verification `id` with the verification's error. */
export type VerificationAnswer = (d: Draft, id: number, error: KafkaError, out: Out) => void;

type Transaction = Omit<QueuedTransaction, 'verification' | 'answerTo'>;

/** The verification `id` of `txn` starts: asked of the host broker, or queued in the coordinator's own queue. */
export function startVerification(d: Draft, txn: Transaction, id: number, out: Out, answer: VerificationAnswer): void {
  if (d.hosted) {
    const [partition] = txn.partitions;
    out.call(d.hosted.host, 'verifyTxnOffsetCommit', {
      id,
      transactionalId: txn.transactionalId,
      producerId: txn.producerId,
      producerEpoch: txn.producerEpoch,
      partition,
      verifyOnly: txn.verifyOnly,
    });
    return;
  }
  const queued = enqueueVerification(d.verificationQueue, d.meta.transactionCoordinator, { ...txn, verification: id });
  d.verificationQueue = queued.queue;
  for (const a of queued.answered) answer(d, a.verification, a.error, out);
  sendWaiting(d, out);
}

/** AddPartitionsToTxnManager.generateRequests on the standalone coordinator's queue. */
function sendWaiting(d: Draft, out: Out): void {
  const taken = takeRequests(d.verificationQueue);
  d.verificationQueue = taken.queue;
  for (const r of taken.requests) out.send(r.node, 'AddPartitionsToTxn', requestPayload(r), { timeoutMs: BROKER_REQUEST_TIMEOUT_MS });
}

/**
 * The standalone coordinator's request is answered (AddPartitionsToTxnHandler.onComplete): every
 * transaction it carried gets its result — NETWORK_EXCEPTION for all when `payload` is null (a
 * disconnect or timeout) — then what waited goes out. false: no such request in flight.
 */
export function onVerificationAnswered(
  d: Draft,
  correlationId: number,
  payload: AddPartitionsToTxnBatchResponse | null,
  out: Out,
  answer: VerificationAnswer,
): boolean {
  const done = completeVerification(d.verificationQueue, correlationId);
  if (!done) return false;
  d.verificationQueue = done.queue;
  for (const t of done.transactions) {
    const error = payload ? transactionResult(payload, t.transactionalId, t.partitions[0] as TopicPartition) : 'NETWORK_EXCEPTION';
    answer(d, t.verification, error, out);
  }
  sendWaiting(d, out);
  return true;
}
