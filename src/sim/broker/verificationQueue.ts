/**
 * A leader's queue of transaction verifications (Kafka's AddPartitionsToTxnManager): per
 * transaction coordinator node, the transactions waiting to be asked about (`nodesToTransactions`,
 * at most one per transactional.id) and the one AddPartitionsToTxn in flight (`inflightNodes`).
 * A node gets a new request only once the previous one is answered, failed or timed out; that
 * request carries every transaction waiting for the node (the v4+ batched form). Pure: the broker
 * keeps the queue in its context and sends what `takeRequests` hands out.
 */
import type { ActorId } from '../kernel/envelope';
import type { KafkaError } from '../protocol/errors';
import type { AddPartitionsToTxnBatchResponse, TopicPartition } from '../protocol/messages';

/** One AddPartitionsToTxnTransaction, and the verification (its id) its answer goes back to. */
export interface QueuedTransaction {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  /** false under protocol v2: the coordinator adds the partitions (`!supportsEpochBump`). */
  readonly verifyOnly: boolean;
  readonly partitions: readonly TopicPartition[];
  /** The waiting verification's id (the leader's PendingVerification). */
  readonly verification: number;
  /**
   * A group coordinator of this broker asked for it (a TxnOffsetCommit's, CoordinatorPartitionWriter
   * .maybeStartTransactionVerification): its answer goes back to that actor, under the coordinator's own id.
   */
  readonly answerTo?: VerificationCaller;
}

/** The group coordinator actor a verification answers in-process, and its id for the verification. */
export interface VerificationCaller {
  readonly actor: ActorId;
  readonly id: number;
}

/** The request in flight to a node: its correlation id and the transactions it carries. */
export interface InFlightVerification {
  readonly correlationId: number;
  readonly transactions: readonly QueuedTransaction[];
}

export interface NodeVerifications {
  readonly node: ActorId;
  readonly waiting: readonly QueuedTransaction[];
  readonly inFlight: InFlightVerification | null;
}

/** Per coordinator node, in the order the leader first asked it. */
export type VerificationQueue = readonly NodeVerifications[];

export const EMPTY_VERIFICATION_QUEUE: VerificationQueue = [];

/** A verification answered without asking the coordinator (a replaced or refused queued entry). */
export interface QueueAnswer {
  readonly verification: number;
  readonly error: KafkaError;
  readonly answerTo?: VerificationCaller;
}

/** A queued transaction's answer without asking the coordinator, keeping whom it goes back to. */
function queueAnswer(t: QueuedTransaction, error: KafkaError): QueueAnswer {
  return { verification: t.verification, error, ...(t.answerTo ? { answerTo: t.answerTo } : {}) };
}

export interface VerificationRequest {
  readonly node: ActorId;
  readonly correlationId: number;
  readonly transactions: readonly QueuedTransaction[];
}

function withNode(q: VerificationQueue, n: NodeVerifications): VerificationQueue {
  const i = q.findIndex((x) => x.node === n.node);
  const kept = n.waiting.length === 0 && n.inFlight === null;
  if (i < 0) return kept ? q : [...q, n];
  return kept ? q.filter((_, j) => j !== i) : q.map((x, j) => (j === i ? n : x));
}

/**
 * addTxnData: the transaction waits for `node`. An entry of the same transactional.id already
 * waiting (not one in flight) is replaced when the new one's epoch is the same or higher: the
 * older is answered NETWORK_EXCEPTION (same epoch: "the client is likely retrying") or
 * INVALID_PRODUCER_EPOCH (lower: it is fenced). A new one with a lower epoch is itself answered
 * INVALID_PRODUCER_EPOCH and not queued.
 */
export function enqueueVerification(
  q: VerificationQueue,
  node: ActorId,
  txn: QueuedTransaction,
): { queue: VerificationQueue; answered: readonly QueueAnswer[] } {
  const n = q.find((x) => x.node === node) ?? { node, waiting: [], inFlight: null };
  const existing = n.waiting.find((t) => t.transactionalId === txn.transactionalId);
  if (existing && existing.producerEpoch > txn.producerEpoch) return { queue: q, answered: [queueAnswer(txn, 'INVALID_PRODUCER_EPOCH')] };
  const answered: QueueAnswer[] = existing
    ? [queueAnswer(existing, existing.producerEpoch < txn.producerEpoch ? 'INVALID_PRODUCER_EPOCH' : 'NETWORK_EXCEPTION')]
    : [];
  const waiting = [...n.waiting.filter((t) => t !== existing), txn];
  return { queue: withNode(q, { ...n, waiting }), answered };
}

/**
 * generateRequests: each node with transactions waiting and no request in flight gets one
 * AddPartitionsToTxn carrying all of them, and is in flight until `completeVerification`. The
 * request takes the id of its first transaction's verification as its correlation id (ids are
 * never reused, and a verification is in one request at a time).
 */
export function takeRequests(q: VerificationQueue): { queue: VerificationQueue; requests: readonly VerificationRequest[] } {
  const requests: VerificationRequest[] = [];
  const queue = q.map((n) => {
    const first = n.waiting[0];
    if (n.inFlight !== null || first === undefined) return n;
    const inFlight = { correlationId: first.verification, transactions: n.waiting };
    requests.push({ node: n.node, ...inFlight });
    return { ...n, waiting: [], inFlight };
  });
  return { queue, requests };
}

/**
 * AddPartitionsToTxnHandler.onComplete's `inflightNodes.remove(node)`: the request `correlationId`
 * is answered (or failed); its transactions are handed back for their callbacks. null: no such
 * request in flight (a stale answer).
 */
export function completeVerification(
  q: VerificationQueue,
  correlationId: number,
): { queue: VerificationQueue; node: ActorId; transactions: readonly QueuedTransaction[] } | null {
  const n = q.find((x) => x.inFlight?.correlationId === correlationId);
  if (!n?.inFlight) return null;
  return { queue: withNode(q, { ...n, inFlight: null }), node: n.node, transactions: n.inFlight.transactions };
}

/** The v4+ AddPartitionsToTxn a request is sent as: its transactions without the sender's bookkeeping. */
export function requestPayload(r: VerificationRequest): {
  correlationId: number;
  transactions: Omit<QueuedTransaction, 'verification' | 'answerTo'>[];
} {
  return { correlationId: r.correlationId, transactions: r.transactions.map(({ verification: _v, answerTo: _a, ...t }) => t) };
}

/** The error a transaction's result in a v4+ answer gives one of its partitions (the request's own error first). */
export function transactionResult(r: AddPartitionsToTxnBatchResponse, transactionalId: string, p: TopicPartition): KafkaError {
  if (r.error !== 'NONE') return r.error;
  const mine = r.resultsByTransaction.find((t) => t.transactionalId === transactionalId);
  return mine?.partitions.find((x) => x.topic === p.topic && x.partition === p.partition)?.error ?? 'NONE';
}
