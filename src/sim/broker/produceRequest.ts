/**
 * A broker's handling of one Produce request (KafkaApis.handleProduceRequest → ReplicaManager
 * .handleProduceAppend / appendRecords): the request carries one batch for each of several partitions,
 * and each is checked and appended on its own, with its own error. Transactional partitions that
 * need it are verified first, all in one AddPartitionsToTxn, and the whole request waits for that
 * answer. The ProduceResponse is one answer with a result per partition: at once, or — acks=all with
 * some replicated partition appended — when the one DelayedProduce over the request completes
 * (every partition reached the HW or failed) or times out. acks=0 gets no answer.
 */
import type { Out, PendingRequest } from '../actors/out';
import { pendingRequest } from '../actors/out';
import { BROKER_REQUEST_TIMEOUT_MS } from '../config/clusterConfig';
import type { RpcEvent, TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { appendEpoch, appendProducerBatch, type PartitionLog, startTransactionVerification } from '../log/partitionLog';
import { NO_VERIFICATION_GUARD } from '../log/verificationState';
import type { KafkaError } from '../protocol/errors';
import type { AddPartitionsToTxnResponse, ProducePartitionData, ProducePartitionResponse, ProduceRequest } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import { notEnoughReplicasBeforeAppend } from '../replication/leaderPartition';
import type { BrokerContext } from './broker.machine';
import { wakeParked } from './consumerFetch';
import {
  afterLeaderUpdate,
  type BrokerReplication,
  currentLeader,
  delayProduceRequest,
  isReplicated,
  leadsOrUnreplicated,
  PRODUCE_TIMEOUT_MS,
  type ProduceWait,
  timedOutResult,
  wakeReplicaFetches,
} from './replication';
import { hostsTxnCoordinator, txnCoordinatorFor } from './txnStateHost';

/** A transactional produce held while the leader asks the coordinator about its partitions. */
export interface PendingVerification {
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

type ReplicatedCtx = BrokerContext & { readonly replication: BrokerReplication };
const hasReplication = (ctx: BrokerContext): ctx is ReplicatedCtx => ctx.replication !== undefined;

function withLog<C extends BrokerContext>(ctx: C, log: PartitionLog): C {
  return { ...ctx, partitions: { ...ctx.partitions, [keyOf(log)]: log } };
}

function errorResult(p: ProducePartitionData, error: KafkaError, errorMessage: string): ProducePartitionResponse {
  return { topic: p.topic, partition: p.partition, error, baseOffset: -1, errorMessage };
}

/** The `rejected` fact of one partition's batch: the error the broker answers and why. */
function rejectedFact(out: Out, p: ProducePartitionData, error: KafkaError, reason: string): void {
  const b = p.batch;
  out.fact({
    kind: 'rejected',
    topic: p.topic,
    partition: p.partition,
    producerId: b.producerId,
    producerEpoch: b.producerEpoch,
    baseSequence: b.baseSequence,
    error,
    reason,
  });
}

/** NOT_LEADER_OR_FOLLOWER for one partition, with the KIP-951 leader hint. */
function notLeader(ctx: BrokerContext, p: ProducePartitionData): ProducePartitionResponse {
  return {
    ...errorResult(p, 'NOT_LEADER_OR_FOLLOWER', `${ctx.id} is not the leader of ${keyOf(p)}`),
    currentLeader: currentLeader(ctx, p.topic, p.partition),
  };
}

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
  return sendVerification(ctx, coordinator, { request, produce: req, answered, startedAt: ev.now }, verify, out);
};

type VerificationRequest = Pick<PendingVerification, 'request' | 'produce' | 'answered' | 'startedAt'>;

/**
 * ReplicaManager.maybeSendPartitionsToTransactionCoordinator: each partition `verify` names starts
 * (or keeps) its verification, and one AddPartitionsToTxn asks the coordinator about all of them.
 */
function sendVerification(
  ctx: BrokerContext,
  coordinator: ActorId,
  v: VerificationRequest,
  verify: readonly number[],
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
    );
    c = withLog(c, started.log);
    guards[keyOf(p)] = started.guard;
  }
  const first = (req.partitions[verify[0] as number] as ProducePartitionData).batch;
  const correlationId = c.nextCorrelationId;
  out.send(
    coordinator,
    'AddPartitionsToTxn',
    {
      correlationId,
      transactionalId: req.transactionalId,
      producerId: first.producerId,
      producerEpoch: first.producerEpoch,
      partitions: verify.map((i) => {
        const p = req.partitions[i] as ProducePartitionData;
        return { topic: p.topic, partition: p.partition };
      }),
      verifyOnly: ctx.transactionVersion === 1,
    },
    { timeoutMs: BROKER_REQUEST_TIMEOUT_MS },
  );
  return {
    ...c,
    nextCorrelationId: correlationId + 1,
    verifying: [...c.verifying, { ...v, correlationId, guards }],
  };
}

/** The transaction coordinator a transactional produce is verified with (null: its partition has no leader). */
function coordinatorOf(ctx: BrokerContext, req: ProduceRequest): ActorId | null {
  // a hosted coordinator: the leader of the transactional.id's __transaction_state partition
  return hostsTxnCoordinator(ctx) ? txnCoordinatorFor(ctx, req.transactionalId as string) : ctx.transactionCoordinator;
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

/** The error the coordinator's answer gives one partition of a pending verification (the request's own error first). */
function verificationResult(r: AddPartitionsToTxnResponse, p: ProducePartitionData): KafkaError {
  const mine = r.partitions.find((x) => x.topic === p.topic && x.partition === p.partition);
  return r.error !== 'NONE' ? r.error : (mine?.error ?? 'NONE');
}

/** The coordinator's answer: each verified partition is appended, or fails with the mapped error; then the request goes on. */
export const onVerification = (
  ctx: BrokerContext,
  ev: RpcEvent<AddPartitionsToTxnResponse & { correlationId: number }>,
  out: Out,
): BrokerContext => {
  const pending = ctx.verifying.find((v) => v.correlationId === ev.payload.correlationId);
  if (!pending) return ctx;
  const r = ev.payload;
  const req = pending.produce;
  if (retriesConcurrentTransactions(ctx, pending, r, ev.now)) {
    // maybeRetryOnConcurrentTransactions: ask again after the backoff, the request still held
    out.timer(`verificationRetry:${pending.correlationId}`, 'verificationRetry', ADD_PARTITIONS_RETRY_BACKOFF_MS, {
      correlationId: pending.correlationId,
    });
    return ctx;
  }
  const rest = { ...ctx, verifying: ctx.verifying.filter((v) => v !== pending) };
  const answered = [...pending.answered];
  const guards: Record<string, number> = {};
  req.partitions.forEach((p, i) => {
    const guard = pending.guards[keyOf(p)];
    if (guard === undefined) return;
    const error = verificationResult(r, p);
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
  return appendProduce(rest, req, pending.request, ev.now, out, answered, guards);
};

/**
 * Protocol v2 only (the leader adds the partitions itself, so "the produce backoff adds too much
 * delay"): an answer in which some partition is CONCURRENT_TRANSACTIONS — the producer's previous
 * transaction is still completing — is asked again, until the verification is
 * min(add.partitions.to.txn.retry.backoff.max.ms, request.timeout.ms) old when an answer comes.
 */
function retriesConcurrentTransactions(
  ctx: BrokerContext,
  pending: PendingVerification,
  r: AddPartitionsToTxnResponse,
  now: number,
): boolean {
  if (ctx.transactionVersion !== 2 || now - pending.startedAt >= VERIFICATION_RETRY_TIMEOUT_MS) return false;
  return pending.produce.partitions.some(
    (p) => pending.guards[keyOf(p)] !== undefined && verificationResult(r, p) === 'CONCURRENT_TRANSACTIONS',
  );
}

/**
 * The retry's backoff ended: the partitions are verified again, each starting its verification anew
 * (a marker written meanwhile ended the old one), with the same start time. A partition whose
 * transaction this producer has since begun on the log needs none; with none left, or no
 * coordinator to ask, the request goes on as ReplicaManager's callback would take it.
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
  return sendVerification(rest, coordinator, pending, verify, out);
};

/**
 * The verification completed as a disconnect (no answer within the broker's request.timeout.ms, or
 * the coordinator is unreachable): AddPartitionsToTxnManager reports NETWORK_EXCEPTION, which
 * ReplicaManager answers as NOT_ENOUGH_REPLICAS (retriable) for each partition being verified.
 */
export const onVerificationLost = (
  ctx: BrokerContext,
  ev: { payload: Readonly<Record<string, unknown>>; now: number },
  out: Out,
): BrokerContext => {
  const correlationId = (ev.payload as { correlationId?: number }).correlationId;
  const pending = ctx.verifying.find((v) => v.correlationId === correlationId);
  if (!pending) return ctx;
  const rest = { ...ctx, verifying: ctx.verifying.filter((v) => v !== pending) };
  const req = pending.produce;
  const answered = unverifiedAnswers(
    req,
    pending.answered,
    (i) => pending.guards[keyOf(req.partitions[i] as ProducePartitionData)] !== undefined,
  );
  return appendProduce(rest, req, pending.request, ev.now, out, answered, {});
};

/** One partition's append: its result, or the HW it must wait for (acks=all on a replicated partition). */
interface PartitionAppend {
  readonly ctx: BrokerContext;
  readonly result: ProducePartitionResponse;
  readonly wait: ProduceWait | null;
  /** Its log changed (the leader's HW and the held fetches must be looked at). */
  readonly changed: boolean;
}

/** Partition.appendRecordsToLeader for one partition of the request, with its facts. */
function appendPartition(
  ctx: BrokerContext,
  req: ProduceRequest,
  p: ProducePartitionData,
  now: number,
  out: Out,
  verificationGuard: number,
): PartitionAppend {
  const key = keyOf(p);
  const log = ctx.partitions[key];
  const unchanged = (result: ProducePartitionResponse): PartitionAppend => ({ ctx, result, wait: null, changed: false });
  if (!log) return unchanged(errorResult(p, 'NOT_LEADER_OR_FOLLOWER', `${ctx.id} is not the leader of ${key}`));
  const b = p.batch;
  const lastSequence = b.baseSequence < 0 ? -1 : b.baseSequence + b.records.length - 1;
  const replicated = hasReplication(ctx) && isReplicated(log);
  if (replicated) {
    const leader = ctx.replication.leading[key];
    if (!leader) return unchanged(notLeader(ctx, p));
    // Partition.appendRecordsToLeader: after verification, before the duplicate and sequence checks
    const refused = notEnoughReplicasBeforeAppend(leader, req.acks);
    if (refused !== null) {
      rejectedFact(out, p, 'NOT_ENOUGH_REPLICAS', refused);
      return unchanged(errorResult(p, 'NOT_ENOUGH_REPLICAS', refused));
    }
  }
  const { log: next, outcome } = appendProducerBatch(log, b, now, {
    verificationEnabled: ctx.verification || ctx.transactionVersion === 2,
    verificationGuard,
  });
  const epoch = appendEpoch(next);
  if (outcome.kind === 'appended')
    out.fact({
      kind: 'append',
      topic: p.topic,
      partition: p.partition,
      baseOffset: outcome.baseOffset,
      lastOffset: outcome.lastOffset,
      producerId: b.producerId,
      producerEpoch: b.producerEpoch,
      baseSequence: b.baseSequence,
      lastSequence,
      transactional: b.isTransactional,
      control: null,
      eventIds: b.records.map((r) => r.headers.event_id ?? null),
      origins: b.records.map((r) => r.origin ?? null),
      ...(epoch === null ? {} : { leaderEpoch: epoch }),
    });
  else if (outcome.kind === 'duplicate')
    out.fact({
      kind: 'duplicate',
      topic: p.topic,
      partition: p.partition,
      producerId: b.producerId,
      producerEpoch: b.producerEpoch,
      baseSequence: b.baseSequence,
      lastSequence,
      baseOffset: outcome.baseOffset,
    });
  else rejectedFact(out, p, outcome.error, outcome.reason);
  const c = next === log ? ctx : withLog(ctx, next);
  const changed = next !== log;
  if (outcome.kind === 'rejected') return { ctx: c, result: errorResult(p, outcome.error, outcome.reason), wait: null, changed };
  if (replicated && req.acks === -1)
    return {
      ctx: c,
      result: timedOutResult(p.topic, p.partition),
      wait: { topic: p.topic, partition: p.partition, baseOffset: outcome.baseOffset, requiredOffset: outcome.lastOffset + 1 },
      changed,
    };
  return {
    ctx: c,
    result: { topic: p.topic, partition: p.partition, error: 'NONE', baseOffset: outcome.baseOffset, errorMessage: null },
    wait: null,
    changed,
  };
}

/**
 * ReplicaManager.appendRecords: every partition not answered yet is appended on its own; then the
 * one answer goes out now, or waits in one DelayedProduce (acks=all, some replicated partition
 * appended). Afterwards each changed log moves its leader's HW and wakes the fetches held on it.
 */
function appendProduce(
  ctx: BrokerContext,
  req: ProduceRequest,
  request: PendingRequest,
  now: number,
  out: Out,
  answered: readonly (ProducePartitionResponse | null)[],
  guards: Readonly<Record<string, number>>,
): BrokerContext {
  let c = ctx;
  const answer: ProducePartitionResponse[] = [];
  const waiting: ProduceWait[] = [];
  const changed: ProducePartitionData[] = [];
  req.partitions.forEach((p, i) => {
    const pre = answered[i];
    if (pre) {
      answer.push(pre);
      return;
    }
    const r = appendPartition(c, req, p, now, out, guards[keyOf(p)] ?? NO_VERIFICATION_GUARD);
    c = r.ctx;
    answer.push(r.result);
    if (r.wait) waiting.push(r.wait);
    if (r.changed) changed.push(p);
  });
  if (waiting.length > 0 && hasReplication(c))
    c = delayProduceRequest(c, request, answer, waiting, req.timeoutMs ?? PRODUCE_TIMEOUT_MS, out);
  else if (req.acks !== 0) out.reply(request, 'ProduceResponse', { responses: answer });
  for (const p of changed) {
    const key = keyOf(p);
    if (hasReplication(c) && isReplicated(c.partitions[key])) c = afterLeaderUpdate(wakeReplicaFetches(c, key, out), key, now, out);
    else c = wakeParked(c, out, p.topic, p.partition);
  }
  return c;
}
