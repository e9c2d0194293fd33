/**
 * The client half of transactions (Kafka's TransactionManager): which coordinator request to send
 * next, and what each response means. One coordinator request is in flight at a time; what to send
 * next is derived from the pending work (partitions to add, offsets to send, a commit or abort to
 * finish), in Kafka's order.
 *
 * Protocol v1: AddPartitionsToTxn before a partition's first batch, AddOffsetsToTxn before
 * TxnOffsetCommit, EndTxn once every batch is acknowledged. Protocol v2 (KIP-890): no
 * AddPartitionsToTxn or AddOffsetsToTxn from the client (the broker adds partitions when it
 * verifies), and every EndTxn returns a bumped epoch.
 */
import type { Out } from '../actors/out';
import type { ActorId, RequestRpc } from '../kernel/envelope';
import { extend } from '../kernel/extend';
import { type ClientException, KAFKA_ERRORS, type KafkaError } from '../protocol/errors';
import type { AddPartitionsToTxnResponse, EndTxnResponse, ErrorOrNone, InitProducerIdResponse } from '../protocol/messages';
import { keyOf, parseTopicPartition } from '../protocol/topicPartition';
import {
  coordinatorOnLeader,
  coordinatorTarget,
  forgetCoordinatorOn,
  groupCoordinatorTarget,
  onFindCoordinatorAnswer,
  onLookupRequestLost,
} from './coordinatorLookup';
import { completeResult } from './maxBlock';
import { hasIncompleteRecords, type ProducerContext, type TxnSignal } from './producerContext';
import { abortUndrained, clientError, type ProducerDraft, resetSequences } from './sender';

/** The coordinator errors after which the client simply retries. */
const RETRIABLE: readonly KafkaError[] = [
  'CONCURRENT_TRANSACTIONS',
  'COORDINATOR_LOAD_IN_PROGRESS',
  'COORDINATOR_NOT_AVAILABLE',
  'NOT_COORDINATOR',
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
  'UNSTABLE_OFFSET_COMMIT',
];

/** Errors that make a transactional producer unusable (ProducerFencedException and friends). */
const FATAL: readonly KafkaError[] = [
  'PRODUCER_FENCED',
  'INVALID_PRODUCER_EPOCH',
  'INVALID_PRODUCER_ID_MAPPING',
  'INVALID_TXN_STATE',
  'TRANSACTION_COORDINATOR_FENCED',
];

export type { TxnSignal } from './producerContext';

/**
 * Answers the application's blocking call, if one is waiting; with none, the result is kept for the
 * retry of a call that timed out (maxBlock.ts).
 */
export function replyToApp(d: ProducerDraft, out: Out, ok: boolean, error: string | null = null): void {
  // close() is answered only when the producer closes (its abort on shutdown, or a fatal error meanwhile, ends nothing else)
  if (d.waiting?.call === 'close') return;
  if (!completeResult(d, out, ok, error) || !d.waiting) return;
  out.call(d.waiting.from, 'reply', { call: d.waiting.call, ok, error });
  d.waiting = null;
}

function sendCoordinatorRequest(d: ProducerDraft, rpc: RequestRpc, payload: Record<string, unknown>, out: Out): void {
  let to: ActorId | null = d.meta.transactionCoordinator;
  if (rpc === 'TxnOffsetCommit') to = groupCoordinatorTarget(d, payload.groupId as string, out);
  else if (coordinatorOnLeader(d)) to = coordinatorTarget(d, out);
  if (to === null) return;
  const correlationId = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  out.send(to, rpc, { correlationId, ...payload }, { timeoutMs: d.config['request.timeout.ms'] });
  d.coordinatorRequest = { rpc, correlationId, attempts: (d.coordinatorRequest?.attempts ?? 0) + 1 };
}

/**
 * InitProducerId: the first thing an idempotent or transactional producer does — or, with the current
 * producerId and epoch, the epoch bump that ends a protocol v1 abort after an error (KIP-360).
 */
function requestProducerId(d: ProducerDraft, out: Out, bump: boolean): void {
  sendCoordinatorRequest(
    d,
    'InitProducerId',
    {
      transactionalId: d.config['transactional.id'],
      transactionTimeoutMs: d.config['transaction.timeout.ms'],
      producerId: bump ? d.producerId : -1,
      producerEpoch: bump ? d.producerEpoch : -1,
    },
    out,
  );
}

/**
 * TransactionManager.maybeAddPartition, at send(): protocol v2 only notes the partition (the leader
 * adds it when it verifies the batch), so it is sendable at once; protocol v1 queues it for
 * AddPartitionsToTxn, and its records wait for the answer.
 */
export function maybeAddPartition(d: ProducerDraft, tp: string): void {
  if (!d.transactional || d.txnPartitions.includes(tp)) return;
  if (d.transactionVersion === 2) {
    d.txnPartitions = [...d.txnPartitions, tp];
    d.transactionStarted = true;
  } else if (!d.pendingPartitions.includes(tp)) d.pendingPartitions = [...d.pendingPartitions, tp];
}

/**
 * TransactionManager.nextRequest + maybeTerminateRequestWithError, in ABORTABLE_ERROR: nothing queued
 * is sent. Pending AddPartitionsToTxn / offsets fail at once; a pending EndTxn(COMMIT) fails once no
 * batch is incomplete (EndTxn never goes out before that), and commitTransaction() throws the error.
 */
function terminateWithError(d: ProducerDraft, out: Out, error: string): TxnSignal {
  d.pendingPartitions = [];
  if (d.pendingOffsets) {
    d.pendingOffsets = null;
    if (d.waiting?.call === 'sendOffsetsToTransaction') replyToApp(d, out, false, error);
  }
  if (d.endTxn === 'COMMIT' && !hasIncompleteRecords(d)) {
    d.endTxn = null;
    d.flushing = false;
    replyToApp(d, out, false, error);
  }
  return 'none';
}

/** Sends the next coordinator request if none is in flight and something is pending. */
export function maybeSendTxnRequest(d: ProducerDraft, out: Out): TxnSignal {
  if (d.coordinatorRequest || d.txnRetryArmed) return 'none';
  if (d.initPending || d.epochBumpInit) {
    requestProducerId(d, out, d.epochBumpInit);
    return 'none';
  }
  if (!d.transactional || d.producerId < 0) return 'none';
  // Sender.maybeSendAndPollTransactionalRequest: in an abortable error, or aborting, records never drained fail
  if (d.abortableError !== null || d.endTxn === 'ABORT')
    abortUndrained(d, out, (d.abortableError ?? 'TransactionAbortedException') as KafkaError | ClientException);
  if (d.abortableError !== null) return terminateWithError(d, out, d.abortableError);
  const txnId = d.config['transactional.id'] as string;
  const ids = { transactionalId: txnId, producerId: d.producerId, producerEpoch: d.producerEpoch };
  if (d.pendingPartitions.length > 0) {
    // protocol v1 only (v2 adds partitions at send())
    sendCoordinatorRequest(
      d,
      'AddPartitionsToTxn',
      extend(ids, { partitions: d.pendingPartitions.map(parseTopicPartition), verifyOnly: false }),
      out,
    );
    return 'none';
  }
  const po = d.pendingOffsets;
  if (po) {
    if (po.phase === 'AddOffsetsToTxn' && d.transactionVersion === 1) {
      sendCoordinatorRequest(d, 'AddOffsetsToTxn', extend(ids, { groupId: po.groupId }), out);
      return 'none';
    }
    sendCoordinatorRequest(
      d,
      'TxnOffsetCommit',
      extend(ids, {
        groupId: po.groupId,
        generationId: po.generationId,
        memberId: po.memberId,
        ...(po.groupInstanceId !== undefined ? { groupInstanceId: po.groupInstanceId } : {}),
        offsets: po.offsets,
      }),
      out,
    );
    d.transactionStarted = true;
    return 'none';
  }
  if (d.endTxn && !hasIncompleteRecords(d)) {
    if (!d.transactionStarted) {
      // nothing was sent in this transaction: Kafka completes it locally, without EndTxn
      if (d.endTxn === 'ABORT' && d.clientEpochBumpRequired) return startEpochBump(d, out);
      finishTransaction(d);
      replyToApp(d, out, true);
      return 'completed';
    }
    sendCoordinatorRequest(d, 'EndTxn', extend(ids, { committed: d.endTxn === 'COMMIT' }), out);
  }
  return 'none';
}

/**
 * beginCompletingTransaction with the client-side epoch bump required: abortTransaction() completes
 * with the InitProducerId that follows. The abort itself is done (completeTransaction), so the
 * producer moves ABORTING_TRANSACTION → INITIALIZING, and READY once the bump is answered.
 */
function startEpochBump(d: ProducerDraft, out: Out): TxnSignal {
  if (d.waiting?.call === 'close') {
    // Sender.run's shutdown: the abort is complete (INITIALIZING, no transaction ongoing), so the loop
    // ends and the client closes before the queued InitProducerId goes out — it is never sent
    d.clientEpochBumpRequired = false;
    finishTransaction(d);
    out.fact({
      kind: 'note',
      actor: d.self,
      text: 'the abort is complete; the producer is closing, so the epoch bump (InitProducerId) queued after it is never sent',
    });
    return 'completed';
  }
  d.clientEpochBumpRequired = false;
  d.inTransaction = false;
  d.epochBumpInit = true;
  requestProducerId(d, out, true);
  return 'epochBump';
}

function finishTransaction(d: ProducerDraft): void {
  d.endTxn = null;
  d.abortableError = null;
  d.txnPartitions = [];
  d.pendingPartitions = [];
  d.pendingOffsets = null;
  d.transactionStarted = false;
  d.inTransaction = false;
  d.flushing = false;
}

function retryLater(d: ProducerDraft, out: Out, delay: number): void {
  d.txnRetryArmed = true;
  out.timer('txnRetry', 'txnRetryBackoffExpired', delay);
}

/** The requests whose handler's result sendOffsetsToTransaction() awaits (AddOffsetsToTxnHandler, then its TxnOffsetCommitHandler). */
const OFFSETS_RPCS: ReadonlySet<string> = new Set(['AddOffsetsToTxn', 'TxnOffsetCommit']);

/**
 * TxnRequestHandler.fatalError: `result.fail(e)` — the handler's own result — then
 * transitionToFatalError, which fails the pending transition's result (initTransactions(),
 * commitTransaction(), abortTransaction()). So the waiting call fails with the error — except flush(),
 * which returns once its records have failed (KafkaProducer.flush throws nothing; the producer answers
 * it after failEverything), and a sendOffsetsToTransaction() whose own request (AddOffsetsToTxn,
 * TxnOffsetCommit) is still queued behind the one that failed: its result is no pending transition,
 * and in FATAL_ERROR the Sender sends nothing (Sender.runOnce returns after `client.poll`), so the
 * call waits until max.block.ms and throws TimeoutException (producer.machine.ts `onNetworkWhenFatal`).
 */
function fatal(d: ProducerDraft, out: Out, error: KafkaError, during: string): TxnSignal {
  clientError(d, out, error, during, true);
  // every handler: `INVALID_PRODUCER_EPOCH || PRODUCER_FENCED` → `fatalError(Errors.PRODUCER_FENCED.exception())`
  // ("We could still receive INVALID_PRODUCER_EPOCH from old versioned transaction coordinator, just
  // treat it the same as PRODUCE_FENCED"): the producer is fenced, and its calls throw ProducerFencedException
  if (error === 'INVALID_PRODUCER_EPOCH') d.lastError = 'PRODUCER_FENCED';
  const call = d.waiting?.call;
  if (call === 'flush' || (call === 'sendOffsetsToTransaction' && !OFFSETS_RPCS.has(during))) return 'fatal';
  replyToApp(d, out, false, d.lastError);
  return 'fatal';
}

/**
 * FATAL_ERROR's NetworkClient.poll still completes the transactional request in flight: its handler
 * runs (TxnRequestHandler.onComplete → handleResponse), and a sendOffsetsToTransaction() waiting for
 * it gets its result — a TxnOffsetCommit answered NONE returns (`result.done()`), an error fails it
 * with that error (`result.fail(e)`, before the transition the handler then tries). An
 * AddOffsetsToTxn answered NONE only enqueues the TxnOffsetCommit, which is never sent: the call
 * keeps waiting, for max.block.ms. *Simplified*: the model handles only this answer in FATAL_ERROR
 * (any other transactional answer there completes nothing the application waits for).
 */
export function onOffsetsAnswerWhenFatal(
  d: ProducerDraft,
  response: {
    readonly type: 'AddOffsetsToTxnResponse' | 'TxnOffsetCommitResponse';
    readonly payload: { correlationId: number; error: ErrorOrNone };
  },
  out: Out,
): void {
  const req = d.coordinatorRequest;
  if (!req || req.correlationId !== response.payload.correlationId) return;
  d.coordinatorRequest = null;
  const { error } = response.payload;
  const fatalError = d.lastError;
  if (error !== 'NONE') clientError(d, out, error, req.rpc);
  // the producer stays in FATAL_ERROR with its error (no transition leaves FATAL_ERROR)
  d.lastError = fatalError;
  if (d.waiting?.call !== 'sendOffsetsToTransaction') return;
  if (error === 'NONE' && response.type === 'AddOffsetsToTxnResponse') return;
  d.pendingOffsets = null;
  replyToApp(d, out, error === 'NONE', error === 'NONE' ? null : error);
}

/**
 * TxnOffsetCommit answered with an error that is not retriable (TransactionManager.TxnOffsetCommitHandler):
 * a stale generation or unknown member (KIP-447) is an abortable CommitFailedException; FENCED_INSTANCE_ID
 * and TRANSACTION_ABORTABLE (e.g. a commit the coordinator no longer verifies) are abortable as they
 * are; a fenced epoch is fatal (ProducerFencedException); anything else is a fatal KafkaException.
 */
function onTxnOffsetCommitError(d: ProducerDraft, out: Out, error: KafkaError): TxnSignal {
  if (error === 'PRODUCER_FENCED' || error === 'INVALID_PRODUCER_EPOCH') return fatal(d, out, 'PRODUCER_FENCED', 'TxnOffsetCommit');
  if (KAFKA_ERRORS[error].retriable) {
    // any other RetriableException: the same offsets are sent again
    clientError(d, out, error, 'TxnOffsetCommit');
    retryLater(d, out, d.config['retry.backoff.ms']);
    return 'none';
  }
  d.pendingOffsets = null;
  if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION') {
    clientError(d, out, error, 'TxnOffsetCommit');
    clientError(d, out, 'CommitFailedException', 'Transaction offset Commit failed due to consumer group metadata mismatch');
    replyToApp(d, out, false, 'CommitFailedException');
    return 'abortable';
  }
  if (error === 'FENCED_INSTANCE_ID' || error === 'TRANSACTION_ABORTABLE') {
    clientError(d, out, error, 'TxnOffsetCommit');
    replyToApp(d, out, false, error);
    return 'abortable';
  }
  return fatal(d, out, error, 'TxnOffsetCommit');
}

/** A coordinator's answer as the producer receives it: the response RPC and its payload, echoing the request's correlationId. */
type Answer<T extends string, P> = { readonly type: T; readonly payload: P & { readonly correlationId: number } };

/** The coordinator responses the TransactionManager handles, one member per RPC (the producer's events are these). */
export type CoordinatorResponse =
  | Answer<'InitProducerIdResponse', InitProducerIdResponse>
  | Answer<'AddPartitionsToTxnResponse', AddPartitionsToTxnResponse>
  | Answer<'AddOffsetsToTxnResponse', { readonly error: ErrorOrNone }>
  | Answer<'TxnOffsetCommitResponse', { readonly error: ErrorOrNone }>
  | Answer<'EndTxnResponse', EndTxnResponse>
  | Answer<'FindCoordinatorResponse', { readonly error: ErrorOrNone; readonly coordinator: ActorId | null }>;

/** Handles the answer to the coordinator request in flight. */
export function onCoordinatorResponse(d: ProducerDraft, response: CoordinatorResponse, out: Out): TxnSignal {
  const req = d.coordinatorRequest;
  if (!req || req.correlationId !== response.payload.correlationId) return 'none';
  d.coordinatorRequest = null;
  const error = response.payload.error;
  if (error !== 'NONE' && RETRIABLE.includes(error)) {
    clientError(d, out, error, req.rpc);
    // lookupCoordinator + reenqueue: the FindCoordinator goes in the Sender loop that follows (its
    // priority is the highest), the request retry.backoff.ms after its answer
    if (forgetCoordinatorOn(d, error, req)) return 'none';
    // AddPartitionsToTxnHandler.maybeOverrideRetryBackoffMs, for CONCURRENT_TRANSACTIONS only (the
    // previous transaction still completing): 20 ms if no partition is in this transaction yet, then
    // min(retry.backoff.ms, that); a coordinator that moved or is loading waits retry.backoff.ms
    const quick = req.rpc === 'AddPartitionsToTxn' && error === 'CONCURRENT_TRANSACTIONS' && d.txnPartitions.length === 0;
    retryLater(d, out, quick ? Math.min(20, d.config['retry.backoff.ms']) : d.config['retry.backoff.ms']);
    return 'none';
  }
  switch (response.type) {
    case 'FindCoordinatorResponse':
      if (error !== 'NONE') return fatal(d, out, error, 'FindCoordinator');
      onFindCoordinatorAnswer(d, response.payload.coordinator, req);
      if (d.retryAfterLookup) {
        // the request that waited for the coordinator is a retry: Sender.maybeSendAndPollTransactionalRequest
        // sleeps `nextRequestHandler.retryBackoffMs()` before sending it — the first InitProducerId too
        delete d.retryAfterLookup;
        retryLater(d, out, d.config['retry.backoff.ms']);
        return 'none';
      }
      break;
    case 'InitProducerIdResponse': {
      if (error !== 'NONE') return fatal(d, out, error, 'InitProducerId');
      const r = response.payload;
      const bump = d.epochBumpInit;
      d.producerId = r.producerId;
      d.producerEpoch = r.producerEpoch;
      d.initPending = false;
      d.epochBumpInit = false;
      d.clientEpochBumpRequired = false;
      d.abortableError = null;
      resetSequences(d);
      out.fact({
        kind: 'producerId',
        client: d.client,
        producerId: r.producerId,
        producerEpoch: r.producerEpoch,
        transactionalId: d.config['transactional.id'],
      });
      if (bump) {
        // the abort that needed the bump is complete
        finishTransaction(d);
        replyToApp(d, out, true);
        return 'completed';
      }
      if (d.transactional) replyToApp(d, out, true);
      // the Sender loop that follows drains (after the next transactional request, if any)
      return 'initialized';
    }
    case 'AddPartitionsToTxnResponse': {
      if (error !== 'NONE') {
        if (FATAL.includes(error)) return fatal(d, out, error, 'AddPartitionsToTxn');
        clientError(d, out, error, 'AddPartitionsToTxn');
        return 'abortable';
      }
      const added = response.payload.partitions.map(keyOf);
      d.txnPartitions = [...d.txnPartitions, ...added.filter((p) => !d.txnPartitions.includes(p))];
      d.pendingPartitions = d.pendingPartitions.filter((p) => !added.includes(p));
      d.transactionStarted = true;
      break;
    }
    case 'AddOffsetsToTxnResponse': {
      if (error !== 'NONE') {
        if (FATAL.includes(error)) return fatal(d, out, error, 'AddOffsetsToTxn');
        clientError(d, out, error, 'AddOffsetsToTxn');
        replyToApp(d, out, false, error);
        return 'abortable';
      }
      if (d.pendingOffsets) d.pendingOffsets = { ...d.pendingOffsets, phase: 'TxnOffsetCommit' };
      d.transactionStarted = true;
      break;
    }
    case 'TxnOffsetCommitResponse': {
      if (error === 'NONE') {
        d.pendingOffsets = null;
        replyToApp(d, out, true);
        break;
      }
      return onTxnOffsetCommitError(d, out, error);
    }
    case 'EndTxnResponse': {
      if (error !== 'NONE') return fatal(d, out, error, `EndTxn(${d.endTxn})`);
      const r = response.payload;
      if (d.endTxn === 'ABORT' && d.clientEpochBumpRequired) return startEpochBump(d, out);
      if (d.transactionVersion === 2 && r.producerEpoch >= 0) {
        d.producerId = r.producerId;
        d.producerEpoch = r.producerEpoch;
        resetSequences(d);
      }
      finishTransaction(d);
      replyToApp(d, out, true);
      return 'completed';
    }
  }
  return maybeSendTxnRequest(d, out);
}

/**
 * The coordinator request completed as a disconnect (request.timeout.ms passed, or the coordinator
 * is unreachable): resend the same request after retry.backoff.ms — or, when its coordinator lives on
 * a partition leader, look it up again at once and send the request retry.backoff.ms after the answer.
 */
export function onCoordinatorRequestLost(d: ProducerDraft, correlationId: number, error: KafkaError, out: Out): boolean {
  const req = d.coordinatorRequest;
  if (!req || req.correlationId !== correlationId) return false;
  clientError(d, out, error, req.rpc);
  d.coordinatorRequest = null;
  // a lost coordinator request: FindCoordinator at once (the Sender loop that follows), the request after its answer
  if (!onLookupRequestLost(d, req)) retryLater(d, out, d.config['retry.backoff.ms']);
  return true;
}

export function isTxnSignalError(s: TxnSignal): boolean {
  return s === 'abortable' || s === 'fatal';
}

export type { ProducerContext };
