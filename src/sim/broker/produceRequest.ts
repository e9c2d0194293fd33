/**
 * A broker's handling of one Produce request (KafkaApis.handleProduceRequest → ReplicaManager
 * .handleProduceAppend): the request carries one batch for each of several partitions, and each is
 * checked and appended on its own (produceAppend.ts), with its own error. Transactional partitions
 * that need it are verified first, all as one transaction of an AddPartitionsToTxn, and the whole
 * request waits for that answer. The leader queues its verifications per coordinator
 * (verificationQueue.ts, AddPartitionsToTxnManager): one request in flight to each, carrying every
 * transaction waiting for it — its group coordinator's TxnOffsetCommit verifications included
 * (coordinatorVerification.ts), whose answers go back to that coordinator.
 */
import type { Out, PendingRequest } from '../actors/out';
import { pendingRequest } from '../actors/out';
import { BROKER_REQUEST_TIMEOUT_MS } from '../config/clusterConfig';
import type { RpcEvent, TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { type PartitionLog, startTransactionVerification } from '../log/partitionLog';
import type { KafkaError } from '../protocol/errors';
import type {
  AddPartitionsToTxnBatchResponse,
  ProducePartitionData,
  ProducePartitionResponse,
  ProduceRequest,
  TopicPartition,
} from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import type { BrokerContext } from './broker.machine';
import { appendProduce, errorResult, notLeader, rejectedFact, withLog } from './produceAppend';
import { leadsOrUnreplicated } from './replication';
import { completeVerification, enqueueVerification, type QueueAnswer, transactionResult } from './verificationQueue';
import { answerCaller, sendWaiting, verificationCoordinator } from './verificationRequests';

/** A transactional produce held while the leader asks the coordinator about its partitions. */
export interface PendingVerification {
  /** Its id in the leader's queue (and the correlation id of an AddPartitionsToTxn it goes first in). */
  readonly correlationId: number;
  readonly request: PendingRequest;
  readonly produce: ProduceRequest;
  /** Per partition of the request, its result if it already has one (not the leader): it is not appended. */
  readonly answered: readonly (ProducePartitionResponse | null)[];
  /** Per partition being verified (its key), the VerificationGuard its append must still match when the answer comes. */
  readonly guards: Readonly<Record<string, number>>;
  /** When the verification began (protocol v2 retries CONCURRENT_TRANSACTIONS until this is retryTimeoutMs old). */
  readonly startedAt: number;
}

/**
 * add.partitions.to.txn.retry.backoff.ms and add.partitions.to.txn.retry.backoff.max.ms
 * (AddPartitionsToTxnConfig's defaults): under protocol v2 the leader asks the coordinator again
 * after this pause while it answers CONCURRENT_TRANSACTIONS, for at most min(max, request.timeout.ms).
 */
export const ADD_PARTITIONS_RETRY_BACKOFF_MS = 20;
export const ADD_PARTITIONS_RETRY_BACKOFF_MAX_MS = 100;
const VERIFICATION_RETRY_TIMEOUT_MS = Math.min(ADD_PARTITIONS_RETRY_BACKOFF_MAX_MS, BROKER_REQUEST_TIMEOUT_MS);

/**
 * Before the first transactional write of a producer epoch to a partition, the leader asks the
 * coordinator whether the partition is in that transaction (protocol v1 with
 * transaction.partition.verification.enable: verify only; protocol v2: add it). This is what keeps
 * a produce delayed past its transaction's end from opening a "hanging" transaction.
 */
function needsVerification(ctx: BrokerContext, log: PartitionLog, req: ProduceRequest, p: ProducePartitionData): boolean {
  if (!p.batch.isTransactional || req.transactionalId === null) return false;
  if (ctx.transactionVersion === 1 && !ctx.verification) return false;
  const entry = log.producers.get(p.batch.producerId);
  const ongoing = entry !== undefined && entry.currentTxnFirstOffset !== null && entry.producerEpoch === p.batch.producerEpoch;
  return !ongoing;
}

/**
 * The verification could not be made — no answer (a disconnect: NETWORK_EXCEPTION) or no coordinator
 * to ask (its partition has no leader: COORDINATOR_NOT_AVAILABLE) — which ReplicaManager answers as
 * NOT_ENOUGH_REPLICAS (retriable).
 */
function unverifiable(p: ProducePartitionData): ProducePartitionResponse {
  return errorResult(p, 'NOT_ENOUGH_REPLICAS', 'Unable to verify the partition has been added to the transaction');
}

/** The request's answers so far, each partition `verifying` names answered as unverifiable. */
function unverifiedAnswers(
  req: ProduceRequest,
  answered: readonly (ProducePartitionResponse | null)[],
  verifying: (i: number) => boolean,
): (ProducePartitionResponse | null)[] {
  return req.partitions.map((p, i) => (verifying(i) ? unverifiable(p) : (answered[i] ?? null)));
}

export const onProduce = (ctx: BrokerContext, ev: RpcEvent<ProduceRequest>, out: Out): BrokerContext => {
  const req = ev.payload;
  const request = pendingRequest(ev);
  const answered: (ProducePartitionResponse | null)[] = req.partitions.map(() => null);
  const verify: number[] = [];
  req.partitions.forEach((p, i) => {
    const log = ctx.partitions[keyOf(p)];
    if (log && !leadsOrUnreplicated(ctx, log)) answered[i] = notLeader(ctx, p);
    else if (log && needsVerification(ctx, log, req, p)) verify.push(i);
  });
  if (verify.length === 0) return appendProduce(ctx, req, request, ev.now, out, answered, {});
  const coordinator = coordinatorOf(ctx, req);
  if (coordinator === null) {
    return appendProduce(
      ctx,
      req,
      request,
      ev.now,
      out,
      unverifiedAnswers(req, answered, (i) => verify.includes(i)),
      {},
    );
  }
  return sendVerification(ctx, coordinator, { request, produce: req, answered, startedAt: ev.now }, verify, ev.now, out);
};

type VerificationRequest = Pick<PendingVerification, 'request' | 'produce' | 'answered' | 'startedAt'>;

/**
 * ReplicaManager.maybeSendPartitionsToTransactionCoordinator: each partition `verify` names starts
 * (or keeps) its verification, and the request's transaction joins the leader's queue for its
 * coordinator (AddPartitionsToTxnManager.addOrVerifyTransaction); it goes out at once only if
 * nothing is in flight to that coordinator.
 */
function sendVerification(
  ctx: BrokerContext,
  coordinator: ActorId,
  v: VerificationRequest,
  verify: readonly number[],
  now: number,
  out: Out,
): BrokerContext {
  const req = v.produce;
  let c = ctx;
  const guards: Record<string, number> = {};
  for (const i of verify) {
    const p = req.partitions[i] as ProducePartitionData;
    const started = startTransactionVerification(
      c.partitions[keyOf(p)] as PartitionLog,
      p.batch.producerId,
      p.batch.baseSequence,
      p.batch.producerEpoch,
      now,
      ctx.transactionVersion === 2,
    );
    c = withLog(c, started.log);
    guards[keyOf(p)] = started.guard;
  }
  const first = (req.partitions[verify[0] as number] as ProducePartitionData).batch;
  const correlationId = c.nextCorrelationId;
  const queued = enqueueVerification(c.verificationQueue, coordinator, {
    transactionalId: req.transactionalId as string,
    producerId: first.producerId,
    producerEpoch: first.producerEpoch,
    verifyOnly: ctx.transactionVersion === 1,
    partitions: verify.map((i) => {
      const p = req.partitions[i] as ProducePartitionData;
      return { topic: p.topic, partition: p.partition };
    }),
    verification: correlationId,
  });
  c = {
    ...c,
    nextCorrelationId: correlationId + 1,
    verificationQueue: queued.queue,
    verifying: [...c.verifying, { ...v, correlationId, guards }],
  };
  return sendWaiting(answerFromQueue(c, queued.answered, now, out), out);
}

/**
 * A replaced or refused queue entry (addTxnData) is answered with its error, as a coordinator's
 * answer would be: a Produce's goes on, a group coordinator's goes back to it.
 */
export function answerFromQueue(ctx: BrokerContext, answered: readonly QueueAnswer[], now: number, out: Out): BrokerContext {
  let c = ctx;
  for (const a of answered) {
    if (a.answerTo) {
      answerCaller(a.answerTo, a.error, out);
      continue;
    }
    const pending = c.verifying.find((v) => v.correlationId === a.verification);
    if (pending) c = finishVerification(c, pending, () => a.error, now, out);
  }
  return c;
}

/** The transaction coordinator a transactional produce is verified with (null: its partition has no leader). */
function coordinatorOf(ctx: BrokerContext, req: ProduceRequest): ActorId | null {
  return verificationCoordinator(ctx, req.transactionalId as string);
}

/**
 * How the leader answers a produce whose verification failed (ReplicaManager.handleProduceAppend's
 * postVerificationCallback): CONCURRENT_TRANSACTIONS reaches a protocol v2 client as it is ("the error
 * is very common during the transaction commit phase"); under protocol v1 it, like the coordinator
 * being unavailable or loading, becomes NOT_ENOUGH_REPLICAS, which older clients retry without a
 * metadata refresh.
 */
export function verificationError(error: KafkaError, transactionVersion: 1 | 2): KafkaError {
  switch (error) {
    case 'TRANSACTION_ABORTABLE':
      // "Partition was not added to the transaction". Produce ≤ v10 would see INVALID_TXN_STATE
      // (AddPartitionsToTxnManager, not `genericError`); a 4.x client sends v11 under protocol v1
      // (LAST_STABLE_VERSION_BEFORE_TRANSACTION_V2) and v12+ under v2, so both keep it
      return 'TRANSACTION_ABORTABLE';
    case 'PRODUCER_FENCED':
    case 'INVALID_PRODUCER_EPOCH':
      return 'INVALID_PRODUCER_EPOCH';
    case 'INVALID_PRODUCER_ID_MAPPING':
      return 'INVALID_PRODUCER_ID_MAPPING';
    case 'CONCURRENT_TRANSACTIONS':
      return transactionVersion === 2 ? 'CONCURRENT_TRANSACTIONS' : 'NOT_ENOUGH_REPLICAS';
    default:
      // coordinator unavailable, loading, or busy: "Unable to verify the partition has been added to the transaction"
      return 'NOT_ENOUGH_REPLICAS';
  }
}

/**
 * The coordinator's answer (AddPartitionsToTxnHandler.onComplete): the coordinator is no longer in
 * flight; each transaction's verification gets its partitions' errors (a group coordinator's, back
 * to it); then what waited for the coordinator meanwhile goes out as the next request.
 */
export const onVerification = (
  ctx: BrokerContext,
  ev: RpcEvent<AddPartitionsToTxnBatchResponse & { correlationId: number }>,
  out: Out,
): BrokerContext => {
  const done = completeVerification(ctx.verificationQueue, ev.payload.correlationId);
  if (!done) return ctx;
  let c: BrokerContext = { ...ctx, verificationQueue: done.queue };
  for (const t of done.transactions) {
    const errorOf = (p: TopicPartition) => transactionResult(ev.payload, t.transactionalId, p);
    if (t.answerTo) {
      answerCaller(t.answerTo, errorOf(t.partitions[0] as TopicPartition), out);
      continue;
    }
    const pending = c.verifying.find((v) => v.correlationId === t.verification);
    if (pending) c = onAnswer(c, pending, errorOf, ev.now, out);
  }
  return sendWaiting(c, out);
};

/** One verification's answer: CONCURRENT_TRANSACTIONS asked again after the backoff (v2), else finished. */
function onAnswer(
  ctx: BrokerContext,
  pending: PendingVerification,
  errorOf: (p: ProducePartitionData) => KafkaError,
  now: number,
  out: Out,
): BrokerContext {
  if (retriesConcurrentTransactions(ctx, pending, errorOf, now)) {
    // maybeRetryOnConcurrentTransactions: ask again after the backoff, the request still held
    out.timer(`verificationRetry:${pending.correlationId}`, 'verificationRetry', ADD_PARTITIONS_RETRY_BACKOFF_MS, {
      correlationId: pending.correlationId,
    });
    return ctx;
  }
  return finishVerification(ctx, pending, errorOf, now, out);
}

/** Each verified partition is appended, or fails with the mapped error; then the request goes on. */
function finishVerification(
  ctx: BrokerContext,
  pending: PendingVerification,
  errorOf: (p: ProducePartitionData) => KafkaError,
  now: number,
  out: Out,
): BrokerContext {
  const rest = { ...ctx, verifying: ctx.verifying.filter((v) => v !== pending) };
  const req = pending.produce;
  const answered = [...pending.answered];
  const guards: Record<string, number> = {};
  req.partitions.forEach((p, i) => {
    const guard = pending.guards[keyOf(p)];
    if (guard === undefined) return;
    const error = errorOf(p);
    if (error === 'NONE') {
      guards[keyOf(p)] = guard;
      return;
    }
    const answer = verificationError(error, ctx.transactionVersion);
    rejectedFact(
      out,
      p,
      answer,
      error === 'TRANSACTION_ABORTABLE' ? 'Partition was not added to the transaction' : `transaction verification failed: ${error}`,
    );
    answered[i] = errorResult(p, answer, `transaction verification: ${error}`);
  });
  return appendProduce(rest, req, pending.request, now, out, answered, guards);
}

/**
 * Protocol v2 only (the leader adds the partitions itself, so "the produce backoff adds too much
 * delay"): an answer in which some partition is CONCURRENT_TRANSACTIONS — the producer's previous
 * transaction is still completing — is asked again, until the verification is
 * min(add.partitions.to.txn.retry.backoff.max.ms, request.timeout.ms) old when an answer comes.
 */
function retriesConcurrentTransactions(
  ctx: BrokerContext,
  pending: PendingVerification,
  errorOf: (p: ProducePartitionData) => KafkaError,
  now: number,
): boolean {
  if (ctx.transactionVersion !== 2 || now - pending.startedAt >= VERIFICATION_RETRY_TIMEOUT_MS) return false;
  return pending.produce.partitions.some((p) => pending.guards[keyOf(p)] !== undefined && errorOf(p) === 'CONCURRENT_TRANSACTIONS');
}

/**
 * The retry's backoff ended: the partitions are verified again, each starting its verification anew
 * (a marker written meanwhile ended the old one), with the same start time, through the queue
 * again. A partition whose transaction this producer has since begun on the log needs none; with
 * none left, or no coordinator to ask, the request goes on as ReplicaManager's callback would take it.
 */
export const onVerificationRetry = (ctx: BrokerContext, ev: TimerEvent<{ correlationId: number }>, out: Out): BrokerContext => {
  const pending = ctx.verifying.find((v) => v.correlationId === ev.data.correlationId);
  if (!pending) return ctx;
  const rest = { ...ctx, verifying: ctx.verifying.filter((v) => v !== pending) };
  const req = pending.produce;
  const verify: number[] = [];
  req.partitions.forEach((p, i) => {
    const log = rest.partitions[keyOf(p)];
    if (pending.guards[keyOf(p)] !== undefined && log && needsVerification(rest, log, req, p)) verify.push(i);
  });
  if (verify.length === 0) return appendProduce(rest, req, pending.request, ev.now, out, [...pending.answered], {});
  const coordinator = coordinatorOf(rest, req);
  if (coordinator === null) {
    const answered = unverifiedAnswers(req, pending.answered, (i) => verify.includes(i));
    return appendProduce(rest, req, pending.request, ev.now, out, answered, {});
  }
  return sendVerification(rest, coordinator, pending, verify, ev.now, out);
};

/**
 * The verification request completed as a disconnect (no answer within the broker's
 * request.timeout.ms, or the coordinator is unreachable): AddPartitionsToTxnManager reports
 * NETWORK_EXCEPTION to every transaction it carried, which ReplicaManager answers as
 * NOT_ENOUGH_REPLICAS (retriable); the coordinator is free for the next request.
 */
export const onVerificationLost = (
  ctx: BrokerContext,
  ev: { payload: Readonly<Record<string, unknown>>; now: number },
  out: Out,
): BrokerContext => {
  const correlationId = (ev.payload as { correlationId?: number }).correlationId;
  const done = typeof correlationId === 'number' ? completeVerification(ctx.verificationQueue, correlationId) : null;
  if (!done) return ctx;
  let c: BrokerContext = { ...ctx, verificationQueue: done.queue };
  for (const t of done.transactions) {
    if (t.answerTo) {
      answerCaller(t.answerTo, 'NETWORK_EXCEPTION', out);
      continue;
    }
    const pending = c.verifying.find((v) => v.correlationId === t.verification);
    if (!pending) continue;
    c = { ...c, verifying: c.verifying.filter((v) => v !== pending) };
    const req = pending.produce;
    const answered = unverifiedAnswers(
      req,
      pending.answered,
      (i) => pending.guards[keyOf(req.partitions[i] as ProducePartitionData)] !== undefined,
    );
    c = appendProduce(c, req, pending.request, ev.now, out, answered, {});
  }
  return sendWaiting(c, out);
};
