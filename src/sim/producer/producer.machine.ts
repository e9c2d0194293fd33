/**
 * The producer client (KafkaProducer) as an XState machine. Its states are Kafka's
 * TransactionManager states; an idempotent producer without transactional.id only goes through
 * UNINITIALIZED → INITIALIZING → READY, and one without idempotence starts READY.
 *
 * The application drives it with local calls (send, flush, initTransactions, beginTransaction,
 * sendOffsetsToTransaction, commitTransaction, abortTransaction, close); the machine answers
 * blocking calls with a 'reply' call once they complete.
 */
import { setup } from 'xstate';
import type { Call, Lifecycle, Rpc, Timer } from '../actors/events';
import { handle, type Out } from '../actors/out';
import { nodeOf } from '../cluster/connectionStates';
import {
  METADATA_TIMER,
  maybeUpdateMetadata,
  noteConnectionAttempts,
  noteConnectionEvent,
  onMetadataLost,
} from '../cluster/metadataUpdater';
import { type ConnectionClosedEvent, type DisconnectedEvent, disconnectError } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { extend } from '../kernel/extend';
import type { KafkaError } from '../protocol/errors';
import type { ProduceResponse, TopicPartition } from '../protocol/messages';
import type { MetadataResponse } from '../protocol/replicationMessages';
import { keyOf } from '../protocol/topicPartition';
import {
  allocationFor,
  awaitsBuffer,
  BUFFER_WAIT_CALL,
  cancelBufferWaits,
  exceedsBufferMemory,
  hardLimitMessage,
  holdForBuffer,
  onBufferMaxBlockExpired,
  wakeBufferWaiters,
} from './bufferPool';
import { fatalReason } from './fatalReason';
import { CLOSE_TIMEOUT_TIMER, type CloseArgs, failPendingTransactionalRequests, forceCloseNote } from './forceClose';
import {
  armMaxBlock,
  isCachedCall,
  MAX_BLOCK_TIMER,
  onMaxBlockExpired,
  otherThanPending,
  pendingRefusal,
  resumePending,
  retriesPending,
} from './maxBlock';
import {
  closeMayFinish,
  closeMustAbort,
  hasIncompleteRecords,
  initialProducerContext,
  type ProducerBatch,
  type ProducerContext,
  type ProducerInput,
  producerDraft,
} from './producerContext';
import { queueSize } from './recordAccumulator';
import {
  abortIncompleteBatches,
  abortUndrained,
  accumulate,
  clientError,
  countRecords,
  dataHeldByTransactionalRequest,
  drain,
  expireOverdue,
  expireQueued,
  failEverything,
  onConnectionLost,
  onConnectRefused,
  onDeliveryTimeout,
  onProduceResponse,
  type ProducerDraft,
  producerTopics,
  refuseBeforeAppend,
  refuseHardLimit,
  type SendArgs,
} from './sender';
import {
  appendThenAbortWhenFatal,
  appendThenRefuse,
  invalidTransitionMessage,
  poisonOnInvalidTransition,
  type StateOutsideTransaction,
} from './sendOutsideTransaction';
import {
  type CoordinatorResponse,
  maybeAddPartition,
  maybeSendTxnRequest,
  onCoordinatorRequestLost,
  onCoordinatorResponse,
  onOffsetsAnswerWhenFatal,
  replyToApp,
  type TxnSignal,
} from './transactionManager';
import { awaitsMetadata, holdSend, onProducerMetadataResponse, onSendMaxBlockExpired, SEND_MAX_BLOCK_TIMER } from './waitOnMetadata';

/** The coordinator responses the TransactionManager handles. */
export type CoordinatorResponseRpc = CoordinatorResponse['type'];

/** Each coordinator response as a delivered envelope, its payload typed by its RPC. */
type CoordinatorResponseEvent = {
  [T in CoordinatorResponseRpc]: Rpc<T, Extract<CoordinatorResponse, { type: T }>['payload']>;
}[CoordinatorResponseRpc];

export interface SendOffsetsArgs {
  readonly groupId: string;
  readonly generationId: number;
  readonly memberId: string;
  readonly offsets: readonly (TopicPartition & { offset: number })[];
}

/** Every event the producer handles: responses, timers, connection loss, the application's calls, the kernel's. */
export type ProducerEvent =
  | Rpc<'ProduceResponse', ProduceResponse & { correlationId: number }>
  | Rpc<'MetadataResponse', MetadataResponse & { correlationId: number }>
  | CoordinatorResponseEvent
  | Timer<'lingerExpired' | 'retryBackoffExpired' | 'txnRetryBackoffExpired' | 'metadataUpdateDue'>
  | Timer<'reconnectBackoffExpired', { readonly node: string }>
  | ConnectionClosedEvent
  | Timer<'deliveryTimeout', { batchId: number }>
  | Timer<'accumulatorExpiry', { tp: string }>
  | Timer<'closeNow' | 'closeTimeout'>
  | Timer<'maxBlockExpired', { call: string; from?: ActorId }>
  | DisconnectedEvent
  | Call<'send', SendArgs>
  | Call<'sendOffsetsToTransaction', SendOffsetsArgs>
  | Call<'flush' | 'initTransactions' | 'beginTransaction' | 'commitTransaction' | 'abortTransaction'>
  | Call<'close', CloseArgs>
  | Lifecycle;

type EventOf<T extends ProducerEvent['type']> = Extract<ProducerEvent, { type: T }>;
type AppCall = Extract<ProducerEvent, { from: string; args: unknown }>;

/**
 * Runs a producer handler on a draft copy and keeps its TxnSignal in the context, where the
 * machine's guards read it (`initialized`, `completed`, `abortable`, `fatal`). After every event the
 * Sender loop runs, as Kafka's Sender.runOnce does: the next transactional request, then the data —
 * so whatever made a partition sendable is followed by a drain.
 */
function producerAction<E extends ProducerEvent>(fn: (d: ProducerDraft, ev: E, out: Out) => TxnSignal | undefined) {
  return handle((ctx: ProducerContext, ev: E, out: Out): ProducerContext => {
    const d: ProducerDraft = producerDraft(ctx);
    // what the event says of the producer's connections first (NetworkClient.poll handles answers
    // and disconnects before the Sender drains): an answer, a disconnect, a reconnect backoff's end —
    // per broker: its transaction coordinator shares the broker's connection (TransactionManager's Node)
    noteConnectionEvent(d, ev, producerTopics, nodeOf, out);
    let signal = fn(d, ev, out) ?? 'none';
    // a batch failed while no transaction is open: READY → ABORTABLE_ERROR is invalid, and poisons
    if (signal === 'abortable' && d.transactional && !d.inTransaction) signal = poisonOnInvalidTransition(d, out);
    // whatever happened, a blocked flush or a pending coordinator request may now go ahead
    completeFlushIfDone(d, out);
    if (signal === 'abortable') becomeAbortable(d, out);
    if (signal !== 'fatal') {
      // Sender.runOnce: the next transactional request first; while one is out, no data (drain)
      const next = maybeSendTxnRequest(d, out);
      if (next !== 'none') signal = next;
      drain(d, ev.now, out);
      if (d.expiryDeferred && !dataHeldByTransactionalRequest(d)) {
        delete d.expiryDeferred;
        const expired = expireOverdue(d, ev.now, out);
        if (expired === 'abortable' && signal === 'none' && d.transactional && !d.inTransaction) signal = poisonOnInvalidTransition(d, out);
        else if (expired === 'abortable' && signal === 'none') {
          signal = 'abortable';
          becomeAbortable(d, out);
          // the next loop: maybeSendAndPollTransactionalRequest fails what was never drained
          maybeSendTxnRequest(d, out);
        }
      }
      completeFlushIfDone(d, out);
      // NetworkClient.poll: a metadata update asked for by what just happened goes out (or is scheduled)
      maybeUpdateMetadata(d, producerTopics(d), ev.now, out, d.newTopics);
    }
    if (signal === 'fatal') {
      failEverything(d, (d.lastError as KafkaError) ?? 'PRODUCER_FENCED', out);
      // transitionToFatalError: `pendingTransition.result.fail(exception)` — a waiting (or timed-out)
      // initTransactions(), commitTransaction() or abortTransaction() fails with the fatal error at once,
      // also when the error came with a ProduceResponse (a coordinator request's fatal() answered it already)
      if (d.waiting ? isCachedCall(d.waiting.call) : d.pendingTransition?.result === null)
        replyToApp(d, out, false, d.lastError ?? 'KafkaException');
      // a send() held in waitOnMetadata keeps waiting: the NetworkClient still asks for its metadata
      if (d.heldSend) maybeUpdateMetadata(d, producerTopics(d), ev.now, out, d.newTopics);
      // a flush() that waited returns once its records have failed (RecordAccumulator.awaitFlushCompletion throws nothing)
      completeFlushIfDone(d, out);
    }
    // memory given back (a batch acknowledged, failed or expired) wakes the send() calls waiting for it
    wakeBufferWaiters(d, ev.now, out);
    // a close() that waited: no record is owed a result any more, no transactional request is out and
    // no transaction completing — the producer aborts its open transaction or closes, in a step of its
    // own (`closeNow`), so that what it abandons then is seen to be abandoned by a close; a fatal error
    // ends the transaction's part (hasOngoingTransaction is false in FATAL_ERROR)
    if (d.waiting?.call === 'close' && (signal === 'fatal' ? !hasIncompleteRecords(d) : closeMayFinish(d) || closeMustAbort(d)))
      out.timer('closeNow', 'closeNow', 0);
    // a request to a broker whose reconnect backoff has passed is the model's connection attempt
    noteConnectionAttempts(d, out.effects, ev.now, nodeOf);
    // a transactional call still waiting after this event gives up at max.block.ms
    armMaxBlock(d, ev.now, out);
    d.txnSignal = signal;
    return d;
  });
}

/**
 * TransactionManager.transitionToAbortableError. Skipped while the transaction is being aborted
 * ("Skipping transition to abortable error state since the transaction is already being aborted"):
 * abortTransaction() waits for its EndTxn, which a failed batch does not fail.
 */
export function becomeAbortable(d: ProducerDraft, out: Out): void {
  if (d.endTxn === 'ABORT') return;
  if (d.abortableError === null) d.abortableError = d.lastError ?? 'KafkaException';
  // a blocked commitTransaction() fails when its EndTxn is terminated, once no batch is incomplete;
  // close() and flush() are not failed by it: each waits for every record's result, failed ones
  // included (KafkaProducer.flush → RecordAccumulator.awaitFlushCompletion throws nothing)
  const call = d.waiting?.call;
  if (call && call !== 'commitTransaction' && call !== 'close' && call !== 'flush')
    replyToApp(d, out, false, d.lastError ?? 'KafkaException');
}

/**
 * What send()'s reply tells the application: the record's ref and partition; `waitedMs` after
 * waitOnMetadata held it, `failed` when it gave up there (the future failed with TimeoutException).
 */
const sendReplyExtra = (args: SendArgs, rec: { ref: number; topic: string; partition: number }) => ({
  ref: rec.ref,
  topic: rec.topic,
  partition: rec.partition,
  ...(args.metadataWaitMs !== undefined ? { waitedMs: args.metadataWaitMs } : {}),
  ...(args.metadataTimeoutMs !== undefined ? { failed: 'TimeoutException' } : {}),
  ...(args.bufferWaitMs !== undefined ? { bufferWaitedMs: args.bufferWaitMs } : {}),
  ...(args.bufferExhausted !== undefined ? { failed: 'BufferExhaustedException' } : {}),
});

const replyNow = (out: Out, from: string, call: string, ok: boolean, error: string | null = null, extra: Record<string, unknown> = {}) =>
  out.call(from, 'reply', { call, ok, error, ...extra });

/**
 * send(): accumulate the record; a transactional producer first adds a new partition to the
 * transaction. A record over max.request.size is refused instead: send() returns (its future failed),
 * and a transaction becomes abortable.
 */
const onSend = producerAction((d, call: EventOf<'send'>, out) => {
  const args = call.args.callback ? { ...call.args, callbackTo: call.from } : call.args;
  const refused = refuseBeforeAppend(d, args, call.now, out);
  if (refused) {
    replyNow(out, call.from, 'send', true, null, sendReplyExtra(call.args, refused));
    return d.transactional ? 'abortable' : 'none';
  }
  const rec = accumulate(d, args, call.now, out);
  maybeAddPartition(d, keyOf(rec));
  replyNow(out, call.from, 'send', true, null, sendReplyExtra(call.args, rec));
  // the Sender loop that follows sends it at once with linger.ms=0 (v2), or after AddPartitionsToTxn (v1)
  return 'none';
});

/**
 * send() of a transactional producer outside a transaction: the record is appended, then send() throws
 * maybeAddPartition's IllegalStateException (sendOutsideTransaction.ts). A record over max.request.size
 * never reaches the accumulator (ensureValidRecordSize comes first): its future fails with
 * RecordTooLargeException, then doSend's maybeTransitionToErrorState tries ABORTABLE_ERROR on the
 * application's thread — thrown, not poisoned, where that is invalid (UNINITIALIZED, READY; the model
 * counts INITIALIZING among them); a commit becomes abortable; an abort skips it.
 */
const sendOutsideTransaction = (state: StateOutsideTransaction) =>
  producerAction((d, call: EventOf<'send'>, out) => {
    const args = call.args.callback ? { ...call.args, callbackTo: call.from } : call.args;
    const refused = refuseBeforeAppend(d, args, call.now, out);
    if (refused) {
      const extra = sendReplyExtra(call.args, refused);
      if (d.inTransaction) {
        replyNow(out, call.from, 'send', true, null, extra);
        return state === 'COMMITTING_TRANSACTION' ? 'abortable' : 'none';
      }
      const reason = invalidTransitionMessage(d, state, 'ABORTABLE_ERROR');
      clientError(d, out, 'IllegalStateException', `send: ${reason}`);
      replyNow(out, call.from, 'send', false, reason, extra);
      return 'none';
    }
    const { rec, reason } = appendThenRefuse(d, args, state, call.now, out);
    replyNow(out, call.from, 'send', false, reason, { ref: rec.ref, topic: rec.topic, partition: rec.partition });
    return 'none';
  });

/** A call the producer refuses in its current state: IllegalStateException, or KafkaException after an error. */
const rejectCall = (reason: string, exception: 'IllegalStateException' | 'KafkaException' = 'IllegalStateException') =>
  producerAction((d, call: AppCall, out) => {
    clientError(d, out, exception, `${call.type}: ${reason}`);
    replyNow(out, call.from, call.type, false, reason);
    return 'none';
  });

/**
 * TransactionManager.maybeFailWithError, which every transactional call (and send's
 * maybeAddPartition) runs first in an error state: a ProducerFencedException or an
 * InvalidProducerEpochException is thrown as itself, an invalid transition that poisoned the producer
 * as a new IllegalStateException, anything else wrapped in a KafkaException
 * ("Cannot execute transactional method because we are in an error state"). The error that put the
 * producer there stays its last error.
 */
export function errorStateException(
  cause: string | null,
): 'ProducerFencedException' | 'InvalidProducerEpochException' | 'IllegalStateException' | 'KafkaException' {
  if (cause === 'PRODUCER_FENCED') return 'ProducerFencedException';
  if (cause === 'INVALID_PRODUCER_EPOCH') return 'InvalidProducerEpochException';
  // poisoned by an invalid transition on the Sender thread (sendOutsideTransaction.ts)
  if (cause === 'IllegalStateException') return 'IllegalStateException';
  return 'KafkaException';
}

/** The message of that exception: Kafka's own for the three not wrapped, else the model's `reason`. */
/** maybeFailWithError's KafkaException, which carries the error behind it as its cause. */
export const ERROR_STATE_MESSAGE = 'Cannot execute transactional method because we are in an error state';

/**
 * The message of the exception a call refused in an error state throws: Kafka's own for a fence, an
 * old epoch and a poisoned producer; otherwise the KafkaException's, with what the model says of its
 * cause (what the call cannot do, and what the application can do instead) in parentheses.
 */
function errorStateMessage(d: ProducerDraft, exception: ReturnType<typeof errorStateException>, reason: string): string {
  const who = `Producer with transactionalId '${d.config['transactional.id'] ?? ''}' and ProducerIdAndEpoch(producerId=${d.producerId}, epoch=${d.producerEpoch})`;
  if (exception === 'ProducerFencedException') return `${who} has been fenced by another producer with the same transactionalId`;
  if (exception === 'InvalidProducerEpochException') return `${who} attempted to produce with an old epoch`;
  if (exception === 'IllegalStateException')
    return `${who} cannot execute transactional method because of previous invalid state transition attempt`;
  return `${ERROR_STATE_MESSAGE} (${reason})`;
}

/**
 * A call refused in ABORTABLE_ERROR (`cause`: the abortable error) or FATAL_ERROR (the fatal one):
 * the exception maybeFailWithError throws, as the reply's error when it is thrown as itself.
 */
const rejectInErrorState = (state: 'abortable' | 'fatal', reason: string) =>
  producerAction((d, call: AppCall, out) =>
    refuseInErrorState(d, call, out, state === 'abortable' ? (d.abortableError ?? d.lastError) : d.lastError, reason),
  );

function refuseInErrorState(d: ProducerDraft, call: AppCall, out: Out, cause: string | null, reason: string): 'none' {
  const exception = errorStateException(cause);
  const message = errorStateMessage(d, exception, reason);
  out.fact({ kind: 'clientError', client: d.client, error: exception, during: `${call.type}: ${message}`, fatal: false });
  replyNow(out, call.from, call.type, false, exception === 'KafkaException' ? reason : exception, { cause });
  return 'none';
}

const ABORTABLE_SEND_REASON = 'Cannot send: the transaction hit an abortable error; call abortTransaction';

/**
 * send() in ABORTABLE_ERROR: the record is appended, then maybeAddPartition's maybeFailWithError throws;
 * the Sender loop that follows fails the record with the abortable error (abortUndrainedBatches). A
 * record over max.request.size only fails its future (ABORTABLE_ERROR → ABORTABLE_ERROR is valid).
 */
const sendInAbortableError = producerAction((d, call: EventOf<'send'>, out) => {
  const args = call.args.callback ? { ...call.args, callbackTo: call.from } : call.args;
  const refused = refuseBeforeAppend(d, args, call.now, out);
  if (refused) {
    replyNow(out, call.from, 'send', true, null, sendReplyExtra(call.args, refused));
    return 'none';
  }
  accumulate(d, args, call.now, out);
  // maybeAddPartition's KafkaException, caught in doSend: errors.record() (record-error-total)
  countRecords(d, 'failed', 1);
  return refuseInErrorState(d, call, out, d.abortableError ?? d.lastError, ABORTABLE_SEND_REASON);
});

/**
 * A call in FATAL_ERROR: refused as in rejectInErrorState, but no Sender loop follows. Sender.runOnce
 * returns before any transactional request once hasFatalError() (`maybeAbortBatches(lastError)` —
 * done at the fatal error itself, `failEverything` — then `client.poll`), so a queued
 * AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit or EndTxn is never sent.
 */
const rejectWhenFatal = () =>
  handle((ctx: ProducerContext, call: AppCall, out: Out): ProducerContext => {
    const d: ProducerDraft = producerDraft(ctx);
    refuseInErrorState(d, call, out, d.lastError, fatalReason(d.lastError));
    return d;
  });

/**
 * send() in FATAL_ERROR: the record is appended, then refused as rejectWhenFatal refuses a call; the
 * Sender's next runOnce fails it with the fatal error (maybeAbortBatches), here at once.
 */
const sendWhenFatal = handle((ctx: ProducerContext, call: EventOf<'send'>, out: Out): ProducerContext => {
  const d: ProducerDraft = producerDraft(ctx);
  const args = call.args.callback ? { ...call.args, callbackTo: call.from } : call.args;
  if (!refuseBeforeAppend(d, args, call.now, out)) {
    appendThenAbortWhenFatal(d, args, call.now, out);
    // maybeAddPartition's KafkaException, caught in doSend: errors.record() (record-error-total)
    countRecords(d, 'failed', 1);
  }
  refuseInErrorState(d, call, out, d.lastError, fatalReason(d.lastError));
  // the record failed at once: its memory is back for a send() still waiting (another caller's)
  wakeBufferWaiters(d, call.now, out);
  return d;
});

/**
 * flush() in FATAL_ERROR: KafkaProducer.flush (beginFlush, awaitFlushCompletion) throws nothing; every
 * record already failed with the fatal error (Sender.maybeAbortBatches), so it returns at once.
 */
const flushWhenFatal = handle((ctx: ProducerContext, call: EventOf<'flush'>, out: Out): ProducerContext => {
  replyNow(out, call.from, 'flush', true);
  return ctx;
});

/** flush(): every waiting record is ready at once; the Sender loop that follows drains them. */
const onFlush = producerAction((d, call: EventOf<'flush'>) => {
  d.flushing = true;
  d.waiting = { call: 'flush', from: call.from };
  return 'none';
});

function completeFlushIfDone(d: ProducerDraft, out: Out): TxnSignal {
  if (d.waiting?.call !== 'flush') return 'none';
  if (!hasIncompleteRecords(d)) {
    d.flushing = false;
    replyToApp(d, out, true);
  }
  return 'none';
}

/**
 * A ProduceResponse, handled in NetworkClient.poll; the Sender loop that follows sends the next
 * transactional request, then data — after an error that made the transaction abortable, the
 * records never drained fail first (maybeSendAndPollTransactionalRequest → abortUndrainedBatches).
 */
const onProduceResponseEvent = producerAction((d, ev: EventOf<'ProduceResponse'>, out) => {
  const outcome = onProduceResponse(d, ev.payload, ev.now, out);
  return outcome === 'ok' ? 'none' : outcome;
});

/** The answer to a Metadata request: leaders and epochs as the cluster knows them now; the drain that follows sends to them. */
const onMetadataResponseEvent = producerAction((d, ev: EventOf<'MetadataResponse'>, out) => {
  onProducerMetadataResponse(d, ev.payload, ev.now, out);
  return 'none';
});

/** send() to a topic whose metadata the producer does not know: it blocks in waitOnMetadata (waitOnMetadata.ts). */
const onSendAwaitingMetadata = producerAction((d, call: EventOf<'send'>, out) => {
  holdSend(d, call, out);
  return 'none';
});

/** send() whose new batch finds no room in buffer.memory: it blocks in BufferPool.allocate (bufferPool.ts). */
const onSendAwaitingBuffer = producerAction((d, call: EventOf<'send'>, out) => {
  holdForBuffer(d, call, out);
  return 'none';
});

/**
 * send() whose new batch is larger than buffer.memory (batch.size above it): BufferPool.allocate's
 * IllegalArgumentException, which send() throws. Nothing else changes, so no Sender loop follows.
 */
const refuseAllocation = handle((ctx: ProducerContext, call: EventOf<'send'>, out: Out): ProducerContext => {
  const d: ProducerDraft = producerDraft(ctx);
  const message = hardLimitMessage(allocationFor(d, call.args), d.config['buffer.memory']);
  const rec = refuseHardLimit(d, call.args, message, call.now, out);
  replyNow(out, call.from, 'send', false, 'IllegalArgumentException', {
    ref: rec.ref,
    topic: rec.topic,
    partition: rec.partition,
    message,
  });
  return d;
});

/** retry.backoff.ms (or metadata.max.age.ms) passed: the update goes out now. */
const onMetadataUpdateDue = producerAction(() => 'none');

const onCoordinatorResponseEvent = producerAction((d, e: CoordinatorResponseEvent, out) => onCoordinatorResponse(d, e, out));

/** A transactional request holds the data back, and with it this expiry: it is owed (`expiryDeferred`). */
function expiryHeld(d: ProducerDraft): boolean {
  if (!dataHeldByTransactionalRequest(d)) return false;
  d.expiryDeferred = true;
  return true;
}

/**
 * linger.ms or a retry's backoff passed, a broker's reconnect backoff ended, or an idle connection
 * closed: the Sender loop that follows drains what is ready (the wrapper takes the connection news).
 */
const onTimerDrain = producerAction(() => 'none');

/**
 * Records waiting in the accumulator reached delivery.timeout.ms: what can go is drained first, as the
 * Sender does, the rest fail — unless a transactional request holds the data back, and with it the
 * expiry (`expiryDeferred`, done when the data may go again).
 */
const onAccumulatorExpiry = producerAction((d, ev: EventOf<'accumulatorExpiry'>, out) => {
  if (expiryHeld(d)) return 'none';
  drain(d, ev.now, out);
  const outcome = expireQueued(d, ev.data.tp, ev.now, out);
  return outcome === 'ok' ? 'none' : outcome;
});

const onDeliveryTimeoutEvent = producerAction((d, ev: EventOf<'deliveryTimeout'>, out) => {
  if (expiryHeld(d)) return 'none';
  const outcome = onDeliveryTimeout(d, ev.data.batchId, ev.now, out);
  drain(d, ev.now, out);
  return outcome === 'ok' ? 'none' : outcome;
});

/**
 * A request completed as a disconnect: its connection was closed — by NetworkClient after a request
 * on it passed request.timeout.ms (REQUEST_TIMED_OUT), or because it broke (NETWORK_EXCEPTION) — or
 * it never opened: a refused connection attempt (the broker is down), whose Produce requests never
 * left as far as Kafka is concerned (`onConnectRefused`: no attempt counted, no error).
 * NetworkClient completes every request of the closed connection in the same poll, before the
 * Sender drains again (processDisconnection → cancelInFlightRequests), so the first notice fails
 * every batch in flight to that broker — all were on that connection — and the notices of the
 * others then find nothing in flight. Failing them one notice at a time would let a new batch of a
 * partition go out on the next connection ahead of that partition's retries.
 */
const onDisconnected = producerAction((d, e: DisconnectedEvent, out) => {
  const error = disconnectError(e);
  const correlationId = (e.payload as { correlationId?: number }).correlationId ?? -1;
  if (e.rpc === 'Metadata') {
    onMetadataLost(d, correlationId, e.now);
    return 'none';
  }
  if (onCoordinatorRequestLost(d, correlationId, error, out)) return 'none';
  // a request of a batch that expired in flight counts too: it was still on the connection
  const onConnection = (b: ProducerBatch) => b.broker === e.to;
  const ours = (b: ProducerBatch) => b.correlationId === correlationId;
  if (!d.batches.some((b) => b.inFlight && ours(b)) && !d.expiredInFlight.some(ours)) return 'none';
  const sameConnection = [...d.batches.filter((b) => b.inFlight && onConnection(b)), ...d.expiredInFlight.filter(onConnection)].map(
    (b) => b.correlationId as number,
  );
  // a refused connection attempt: its Produce requests never left (Sender drains nothing for a node
  // NetworkClient.ready refuses) — no attempt, no error; the batches wait out the reconnect backoff
  if (e.reason === 'refused') {
    onConnectRefused(d, e.to, sameConnection);
    drain(d, e.now, out);
    return 'none';
  }
  const outcome = onConnectionLost(d, e.to, error, e.now, out, sameConnection);
  drain(d, e.now, out);
  return outcome === 'ok' ? 'none' : outcome;
});

const onTxnRetry = producerAction((d, _ev, out) => {
  d.txnRetryArmed = false;
  return maybeSendTxnRequest(d, out);
});

const startIdempotent = producerAction((d, _ev, out) => {
  d.initPending = true;
  return maybeSendTxnRequest(d, out);
});

const onInitTransactions = producerAction((d, call: EventOf<'initTransactions'>, out) => {
  d.initPending = true;
  d.waiting = { call: 'initTransactions', from: call.from };
  return maybeSendTxnRequest(d, out);
});

const onBeginTransaction = producerAction((d, call: EventOf<'beginTransaction'>, out) => {
  d.inTransaction = true;
  d.txnPartitions = [];
  d.pendingPartitions = [];
  d.transactionStarted = false;
  replyNow(out, call.from, 'beginTransaction', true);
  return 'none';
});

const onSendOffsets = producerAction((d, call: EventOf<'sendOffsetsToTransaction'>, out) => {
  d.pendingOffsets = extend(call.args, { phase: 'AddOffsetsToTxn' as const });
  d.waiting = { call: 'sendOffsetsToTransaction', from: call.from };
  return maybeSendTxnRequest(d, out);
});

const onEndTransaction = (result: 'COMMIT' | 'ABORT') =>
  producerAction((d, call: EventOf<'commitTransaction' | 'abortTransaction'>, out) => {
    d.endTxn = result;
    d.waiting = { call: result === 'COMMIT' ? 'commitTransaction' : 'abortTransaction', from: call.from };
    if (result === 'ABORT') {
      // beginAbort: the abortable error is cleared; records never sent fail (TransactionAbortedException)
      d.abortableError = null;
      abortUndrained(d, out, 'TransactionAbortedException');
      d.pendingPartitions = [];
      d.pendingOffsets = null;
    } else d.flushing = true;
    // the Sender loop that follows: EndTxn once nothing is incomplete, else the data first
    return 'none';
  });

/**
 * close() while records are still owed a result, a transactional request is out or a transaction is
 * open: KafkaProducer.close() waits without a timeout (Long.MAX_VALUE) while the Sender sends what the
 * accumulator holds — at once, as a flush does — and every request in flight is answered (Sender.run:
 * `accumulator.hasUndrained() || client.inFlightRequestCount() > 0 || hasPendingTransactionalRequests()`);
 * then it aborts a transaction still open (`abortOnClose`) and waits for that too; the producer then
 * closes (`closeReady`).
 */
const beginClose = producerAction((d, call: EventOf<'close'>, out) => {
  const timeoutMs = call.args?.timeoutMs;
  d.waiting = { call: 'close', from: call.from };
  d.flushing = true;
  // close(Duration): `ioThread.join(timeoutMs)` — past it the producer closes forcefully (`onCloseTimeout`)
  if (timeoutMs !== undefined) {
    d.waiting = { ...d.waiting, forceCloseAt: call.now + timeoutMs, closeTimeoutMs: timeoutMs };
    out.timer(CLOSE_TIMEOUT_TIMER, 'closeTimeout', timeoutMs);
  }
  return 'none';
});

/**
 * Sender.run, once the records and transactional requests are done: "Aborting incomplete transaction
 * due to shutdown" — `transactionManager.beginAbort()` for a transaction ongoing and not completing
 * (IN_TRANSACTION, ABORTABLE_ERROR), as abortTransaction() would, but on the Sender's thread: nobody
 * awaits it with max.block.ms; close() returns once it is done (EndTxn(ABORT) answered, or completed
 * locally when nothing was sent in the transaction). A fatal error meanwhile ends it (FATAL_ERROR is
 * no ongoing transaction) and the producer closes.
 */
const abortOnClose = producerAction((d, _ev: EventOf<'closeNow'>, out) => {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: d.transactionStarted
      ? 'close(): the transaction is still open, so the Sender aborts it on shutdown ("Aborting incomplete transaction due to shutdown": EndTxn(ABORT)) and close() returns once the abort is done'
      : 'close(): the transaction is still open, so the Sender aborts it on shutdown ("Aborting incomplete transaction due to shutdown"); nothing was sent in it, so the abort completes without EndTxn',
  });
  d.endTxn = 'ABORT';
  d.abortableError = null;
  abortUndrained(d, out, 'TransactionAbortedException');
  d.pendingPartitions = [];
  d.pendingOffsets = null;
  return 'none';
});

/**
 * Sender.forceClose (forceClose.ts): close(Duration) whose timeout passed, or close(Duration.ZERO),
 * while something is still owed. No Sender loop runs: nothing more is sent, no answer waited for, no
 * transaction aborted; TransactionManager.close() fails the queued transactional requests, and
 * abortIncompleteBatches every incomplete batch, in flight or not; then the client closes (`closeNow`:
 * an answer that comes later finds the connection closed).
 */
function forceClose(ctx: ProducerContext, from: ActorId, timeoutMs: number, out: Out): ProducerContext {
  const d: ProducerDraft = producerDraft(ctx);
  let records = d.batches.reduce((n, b) => n + b.records.length, 0);
  for (const q of Object.values(d.accumulating)) records += queueSize(q);
  out.fact({ kind: 'note', actor: d.self, text: forceCloseNote(d, timeoutMs, records) });
  failPendingTransactionalRequests(d, out);
  abortIncompleteBatches(d, out);
  return closeNow(d, from, out);
}

/** close(Duration.ZERO) with something still owed: forced at once (KafkaProducer.close skips the join). */
const onCloseForced = handle((ctx: ProducerContext, ev: EventOf<'close'>, out: Out): ProducerContext => forceClose(ctx, ev.from, 0, out));

/** The close's timeout passed before it could finish: forced now. */
const onCloseTimeout = handle((ctx: ProducerContext, _ev: EventOf<'closeTimeout'>, out: Out): ProducerContext => {
  const w = ctx.waiting as NonNullable<ProducerContext['waiting']>;
  return forceClose(ctx, w.from, w.closeTimeoutMs ?? 0, out);
});

/** close(): a new KafkaProducer will be built (the application's "restart the producer"). */
const onClose = handle((ctx: ProducerContext, ev: EventOf<'close'>, out: Out): ProducerContext => closeNow(ctx, ev.from, out));

/** The close that waited for its records: the application waiting in close() is answered now. */
const finishClose = handle(
  (ctx: ProducerContext, _ev: unknown, out: Out): ProducerContext => closeNow(ctx, (ctx.waiting as { from: ActorId }).from, out),
);

function closeNow(ctx: ProducerContext, from: ActorId, out: Out): ProducerContext {
  // the NetworkClient closes: what is still in flight (an expired batch's request) is forgotten
  out.disconnect();
  for (const b of ctx.batches) out.cancel(`delivery:${b.id}`);
  for (const tp of Object.keys(ctx.accumulating)) {
    out.cancel(`linger:${tp}`);
    out.cancel(`expire:${tp}`);
  }
  out.cancel('retry');
  out.cancel('txnRetry');
  out.cancel(METADATA_TIMER);
  // a transactional call still waiting (Kafka Streams closes the producer when its abort gives up)
  if (ctx.waiting?.deadline !== undefined) out.cancel(MAX_BLOCK_TIMER);
  // close(Duration) that finished in time (or is being forced): its timeout is not needed any more
  if (ctx.waiting?.forceCloseAt !== undefined) out.cancel(CLOSE_TIMEOUT_TIMER);
  if (ctx.heldSend) out.cancel(SEND_MAX_BLOCK_TIMER);
  cancelBufferWaits(ctx, out);
  replyNow(out, from, 'close', true);
  return { ...initialProducerContext(inputOf(ctx)), nextCorrelationId: ctx.nextCorrelationId, nextRef: ctx.nextRef };
}

function inputOf(ctx: ProducerContext): ProducerInput {
  return {
    self: ctx.self,
    app: ctx.app,
    client: ctx.client,
    meta: ctx.meta,
    config: ctx.config,
    transactionVersion: ctx.transactionVersion,
  };
}

/**
 * FATAL_ERROR's NetworkClient: Sender.runOnce returns after `client.poll` once hasFatalError(), but
 * that poll still handles a Metadata answer or its loss and sends a metadata update that is due — the
 * NetworkClient does not look at the transaction state — so a send() waiting in waitOnMetadata is
 * served, and gives up at max.block.ms as before. No transactional request, no data. *The model sends a
 * Metadata request in FATAL_ERROR only for a send() waiting on it* (Kafka's poll would also refresh
 * for other reasons; nothing a fenced producer does depends on it).
 */
const onNetworkWhenFatal = handle((ctx: ProducerContext, ev: ProducerEvent, out: Out): ProducerContext => {
  const d: ProducerDraft = producerDraft(ctx);
  noteConnectionEvent(d, ev, producerTopics, nodeOf, out);
  if (ev.type === 'MetadataResponse') onProducerMetadataResponse(d, ev.payload, ev.now, out);
  else if (ev.type === 'disconnected' && ev.rpc === 'Metadata')
    onMetadataLost(d, (ev.payload as { correlationId?: number }).correlationId ?? -1, ev.now);
  else if (ev.type === 'maxBlockExpired' && ev.data.call === 'send') onSendMaxBlockExpired(d, ev.now, out);
  else if (ev.type === 'maxBlockExpired' && ev.data.call === BUFFER_WAIT_CALL) onBufferMaxBlockExpired(d, ev.data, ev.now, out);
  // a sendOffsetsToTransaction() whose request the fatal error left queued: TimeoutException at max.block.ms
  else if (ev.type === 'maxBlockExpired') onMaxBlockExpired(d, ev, out);
  else if (ev.type === 'AddOffsetsToTxnResponse' || ev.type === 'TxnOffsetCommitResponse') onOffsetsAnswerWhenFatal(d, ev, out);
  else if (ev.type === 'send') holdSend(d, ev, out);
  if (d.heldSend) maybeUpdateMetadata(d, producerTopics(d), ev.now, out, d.newTopics);
  wakeBufferWaiters(d, ev.now, out);
  noteConnectionAttempts(d, out.effects, ev.now, nodeOf);
  return d;
});

/** max.block.ms passed for the waiting transactional call: it throws TimeoutException (maxBlock.ts). */
const onMaxBlock = producerAction((d, ev: EventOf<'maxBlockExpired'>, out) => {
  if (ev.data.call === 'send') onSendMaxBlockExpired(d, ev.now, out);
  else if (ev.data.call === BUFFER_WAIT_CALL) onBufferMaxBlockExpired(d, ev.data, ev.now, out);
  else onMaxBlockExpired(d, ev, out);
  return 'none';
});

/**
 * The call that timed out, called again: handleCachedTransactionRequestResult returns the same
 * result — no new request, no state check (its transition was made by the first call). No Sender
 * loop follows: nothing became sendable.
 */
const resumeTimedOutCall = handle((ctx: ProducerContext, call: AppCall, out: Out): ProducerContext => {
  const d: ProducerDraft = producerDraft(ctx);
  resumePending(d, call, out);
  armMaxBlock(d, call.now, out);
  return d;
});

/** Another transactional call while one that timed out must be retried: IllegalStateException, nothing else changes. */
const refuseWhilePending = handle((ctx: ProducerContext, call: AppCall, out: Out): ProducerContext => {
  const reason = pendingRefusal(producerDraft(ctx), call.type);
  out.fact({ kind: 'clientError', client: ctx.client, error: 'IllegalStateException', during: `${call.type}: ${reason}`, fatal: false });
  replyNow(out, call.from, call.type, false, reason);
  return ctx;
});

/** The transactional calls TransactionManager checks against a pending transition first. */
const TRANSACTIONAL_CALLS = [
  'initTransactions',
  'beginTransaction',
  'sendOffsetsToTransaction',
  'commitTransaction',
  'abortTransaction',
] as const;

/**
 * A state's handlers, with those of the transactional calls preceded by the pending transition's
 * (handleCachedTransactionRequestResult, throwIfPendingState): the retry of the call that timed out,
 * and the refusal of any other while it is pending.
 */
function withPendingTransition<const T extends Record<string, unknown>>(on: T): T {
  const wrapped: Record<string, unknown> = { ...on };
  for (const call of TRANSACTIONAL_CALLS) {
    const own = on[call];
    wrapped[call] = [
      { guard: 'retriesPending', actions: resumeTimedOutCall },
      { guard: 'otherPending', actions: refuseWhilePending },
      ...(own === undefined ? [] : Array.isArray(own) ? own : [own]),
    ];
  }
  return wrapped as T;
}

/**
 * A live state's handlers, with send() preceded by waitOnMetadata's — a topic not known holds it — and
 * then by BufferPool.allocate's (after ensureValidRecordSize, which refuseBeforeAppend does): a new
 * batch larger than buffer.memory throws, one the pool has no room for waits.
 */
function withWaitOnMetadata<const T extends Record<string, unknown>>(on: T): T {
  const own = on.send;
  if (own === undefined) return on;
  return {
    ...on,
    send: [
      { guard: 'awaitsMetadata', actions: onSendAwaitingMetadata },
      { guard: 'exceedsBufferMemory', actions: refuseAllocation },
      { guard: 'awaitsBuffer', actions: onSendAwaitingBuffer },
      ...(Array.isArray(own) ? own : [own]),
    ],
  };
}

/**
 * A call whose transition TransactionManager.State.isTransitionValid refuses: transitionTo throws
 * IllegalStateException on the application's thread and the state stays as it was.
 */
const invalidTransition = (from: string, to: string) => rejectCall(`Invalid transition attempted from state ${from} to state ${to}`);

/** initTransactions() on a producer without transactional.id (KafkaProducer.throwIfNoTransactionManager, ensureTransactional). */
const notTransactional = rejectCall(
  'Cannot use transactional methods without enabling transactions by setting the transactional.id configuration property',
);

/** sendOffsetsToTransaction() outside a transaction (TransactionManager.sendOffsetsToTransaction). */
const noTransactionInProgress = (state: string) =>
  rejectCall(`Cannot send offsets if a transaction is not in progress (currentState= ${state})`);

/**
 * COMMITTING_TRANSACTION and ABORTING_TRANSACTION refuse the same calls alike: send() outside a
 * transaction, beginTransaction() and initTransactions() as invalid transitions, sendOffsetsToTransaction()
 * with no transaction in progress — each message naming the state.
 */
const whileEndingTransaction = (state: 'COMMITTING_TRANSACTION' | 'ABORTING_TRANSACTION') =>
  withWaitOnMetadata(
    withPendingTransition({
      send: { actions: sendOutsideTransaction(state) },
      beginTransaction: { actions: invalidTransition(state, 'IN_TRANSACTION') },
      initTransactions: { actions: invalidTransition(state, 'INITIALIZING') },
      sendOffsetsToTransaction: { actions: noTransactionInProgress(state) },
    }),
  );

/**
 * The producer's statechart. `live` holds what every TransactionManager state from UNINITIALIZED
 * to ABORTABLE_ERROR does alike — responses, timers, connection loss, flush(), close(), a crash —
 * and the transitions that follow a handler's outcome are guarded by it (`fatal` from any of them,
 * `initialized`, `completed`, `abortable` where Kafka's TransactionManager.State allows them).
 * FATAL_ERROR is outside `live`: a fenced producer handles nothing but close().
 */
export const producerMachine = setup({
  types: {} as { context: ProducerContext; input: ProducerInput; events: ProducerEvent },
  guards: {
    idempotentOnly: ({ context }) => context.idempotent && !context.transactional,
    notIdempotent: ({ context }) => !context.idempotent,
    initialized: ({ context }) => context.txnSignal === 'initialized',
    completed: ({ context }) => context.txnSignal === 'completed',
    abortable: ({ context }) => context.txnSignal === 'abortable',
    fatal: ({ context }) => context.txnSignal === 'fatal',
    epochBump: ({ context }) => context.txnSignal === 'epochBump',
    transactional: ({ context }) => context.transactional,
    closesAtOnce: ({ context }) => closeMayFinish(context),
    /** FATAL_ERROR: no transaction is ongoing any more; the records (all failed by now) are all it waits for. */
    closeDone: ({ context }) => context.waiting?.call === 'close' && !hasIncompleteRecords(context),
    closeReady: ({ context }) => context.waiting?.call === 'close' && closeMayFinish(context),
    closeAborts: ({ context }) => context.waiting?.call === 'close' && closeMustAbort(context),
    /** close(Duration.ZERO): KafkaProducer.close does not join the Sender thread, it forces the close at once. */
    closeForcedAtOnce: ({ event }) => event.type === 'close' && event.args?.timeoutMs === 0,
    /** The waiting close(Duration)'s timeout, not a stale one. */
    closeTimedOut: ({ context, event }) =>
      event.type === 'closeTimeout' && context.waiting?.call === 'close' && context.waiting.forceCloseAt === event.now,
    retriesPending: ({ context, event }) => retriesPending(context, event.type),
    otherPending: ({ context, event }) => otherThanPending(context, event.type),
    awaitsMetadata: ({ context, event }) => awaitsMetadata(context, event),
    awaitsBuffer: ({ context, event }) => awaitsBuffer(context, event),
    exceedsBufferMemory: ({ context, event }) => exceedsBufferMemory(context, event),
    metadataLost: ({ event }) => event.type === 'disconnected' && event.rpc === 'Metadata',
  },
}).createMachine({
  id: 'producer',
  context: ({ input }) => initialProducerContext(input),
  initial: 'created',
  states: {
    created: {
      on: { boot: 'restarting' },
    },
    /** Transient: where a new KafkaProducer starts (at boot, after close(), after a restart). */
    restarting: {
      always: [
        { guard: 'notIdempotent', target: 'live.READY' },
        // an idempotent producer asks for a producer id as soon as it starts
        { guard: 'idempotentOnly', target: 'live.INITIALIZING', actions: startIdempotent },
        { target: 'live.UNINITIALIZED' },
      ],
    },
    live: {
      initial: 'UNINITIALIZED',
      always: { guard: 'fatal', target: 'FATAL_ERROR' },
      on: {
        ProduceResponse: { actions: onProduceResponseEvent },
        MetadataResponse: { actions: onMetadataResponseEvent },
        metadataUpdateDue: { actions: onMetadataUpdateDue },
        InitProducerIdResponse: { actions: onCoordinatorResponseEvent },
        AddPartitionsToTxnResponse: { actions: onCoordinatorResponseEvent },
        AddOffsetsToTxnResponse: { actions: onCoordinatorResponseEvent },
        TxnOffsetCommitResponse: { actions: onCoordinatorResponseEvent },
        EndTxnResponse: { actions: onCoordinatorResponseEvent },
        FindCoordinatorResponse: { actions: onCoordinatorResponseEvent },
        lingerExpired: { actions: onTimerDrain },
        retryBackoffExpired: { actions: onTimerDrain },
        reconnectBackoffExpired: { actions: onTimerDrain },
        connectionClosed: { actions: onTimerDrain },
        deliveryTimeout: { actions: onDeliveryTimeoutEvent },
        accumulatorExpiry: { actions: onAccumulatorExpiry },
        txnRetryBackoffExpired: { actions: onTxnRetry },
        disconnected: { actions: onDisconnected },
        flush: { actions: onFlush },
        close: [
          { guard: 'closesAtOnce', target: 'restarting', actions: onClose },
          { guard: 'closeForcedAtOnce', target: 'restarting', actions: onCloseForced },
          { actions: beginClose },
        ],
        closeNow: { guard: 'closeReady', target: 'restarting', actions: finishClose },
        closeTimeout: { guard: 'closeTimedOut', target: 'restarting', actions: onCloseTimeout },
        maxBlockExpired: { actions: onMaxBlock },
        crash: { target: 'down' },
      },
      states: {
        UNINITIALIZED: {
          on: withWaitOnMetadata(
            withPendingTransition({
              initTransactions: { target: 'INITIALIZING', actions: onInitTransactions },
              send: [{ guard: 'idempotentOnly', actions: onSend }, { actions: sendOutsideTransaction('UNINITIALIZED') }],
              // TransactionManager.beginTransaction → transitionTo(IN_TRANSACTION) from UNINITIALIZED
              beginTransaction: { actions: invalidTransition('UNINITIALIZED', 'IN_TRANSACTION') },
              commitTransaction: { actions: invalidTransition('UNINITIALIZED', 'COMMITTING_TRANSACTION') },
              abortTransaction: { actions: invalidTransition('UNINITIALIZED', 'ABORTING_TRANSACTION') },
              sendOffsetsToTransaction: { actions: noTransactionInProgress('UNINITIALIZED') },
            }),
          ),
        },
        /** Asking for a producer id: the first one, or protocol v1's epoch bump that ends an abort ('completed'). */
        INITIALIZING: {
          always: [
            { guard: 'initialized', target: 'READY' },
            { guard: 'completed', target: 'READY' },
          ],
          on: withWaitOnMetadata(
            withPendingTransition({
              send: [{ guard: 'idempotentOnly', actions: onSend }, { actions: sendOutsideTransaction('INITIALIZING') }],
              // a transactional producer's second initTransactions() waits for the same result (handleCachedTransactionRequestResult)
              initTransactions: { guard: 'idempotentOnly', actions: notTransactional },
              beginTransaction: { actions: invalidTransition('INITIALIZING', 'IN_TRANSACTION') },
              commitTransaction: { actions: invalidTransition('INITIALIZING', 'COMMITTING_TRANSACTION') },
              abortTransaction: { actions: invalidTransition('INITIALIZING', 'ABORTING_TRANSACTION') },
              sendOffsetsToTransaction: { actions: noTransactionInProgress('INITIALIZING') },
            }),
          ),
        },
        READY: {
          on: withWaitOnMetadata(
            withPendingTransition({
              send: [
                { guard: 'notIdempotent', actions: onSend },
                { guard: 'idempotentOnly', actions: onSend },
                { actions: sendOutsideTransaction('READY') },
              ],
              beginTransaction: [
                { guard: 'transactional', target: 'IN_TRANSACTION', actions: onBeginTransaction },
                { actions: notTransactional },
              ],
              // READY → INITIALIZING is not a valid transition: a producer initialises its transactions once
              initTransactions: [
                { guard: 'transactional', actions: invalidTransition('READY', 'INITIALIZING') },
                { actions: notTransactional },
              ],
              commitTransaction: [
                { guard: 'transactional', actions: invalidTransition('READY', 'COMMITTING_TRANSACTION') },
                { actions: notTransactional },
              ],
              abortTransaction: [
                { guard: 'transactional', actions: invalidTransition('READY', 'ABORTING_TRANSACTION') },
                { actions: notTransactional },
              ],
              sendOffsetsToTransaction: [
                { guard: 'transactional', actions: noTransactionInProgress('READY') },
                { actions: notTransactional },
              ],
            }),
          ),
        },
        IN_TRANSACTION: {
          always: { guard: 'abortable', target: 'ABORTABLE_ERROR' },
          on: withWaitOnMetadata(
            withPendingTransition({
              send: { actions: onSend },
              sendOffsetsToTransaction: { actions: onSendOffsets },
              commitTransaction: { target: 'COMMITTING_TRANSACTION', actions: onEndTransaction('COMMIT') },
              abortTransaction: { target: 'ABORTING_TRANSACTION', actions: onEndTransaction('ABORT') },
              closeNow: { guard: 'closeAborts', target: 'ABORTING_TRANSACTION', actions: abortOnClose },
              beginTransaction: { actions: invalidTransition('IN_TRANSACTION', 'IN_TRANSACTION') },
              initTransactions: { actions: invalidTransition('IN_TRANSACTION', 'INITIALIZING') },
            }),
          ),
        },
        COMMITTING_TRANSACTION: {
          always: [
            { guard: 'completed', target: 'READY' },
            { guard: 'abortable', target: 'ABORTABLE_ERROR' },
          ],
          on: whileEndingTransaction('COMMITTING_TRANSACTION'),
        },
        ABORTING_TRANSACTION: {
          // an abortable error is skipped while aborting (transitionToAbortableError)
          always: [
            { guard: 'completed', target: 'READY' },
            { guard: 'epochBump', target: 'INITIALIZING' },
          ],
          on: whileEndingTransaction('ABORTING_TRANSACTION'),
        },
        ABORTABLE_ERROR: {
          on: withWaitOnMetadata(
            withPendingTransition({
              abortTransaction: { target: 'ABORTING_TRANSACTION', actions: onEndTransaction('ABORT') },
              closeNow: { guard: 'closeAborts', target: 'ABORTING_TRANSACTION', actions: abortOnClose },
              commitTransaction: {
                actions: rejectInErrorState('abortable', 'Cannot commit: the transaction hit an abortable error; call abortTransaction'),
              },
              send: { actions: sendInAbortableError },
              sendOffsetsToTransaction: {
                actions: rejectInErrorState('abortable', 'Cannot send offsets: the transaction hit an abortable error'),
              },
              // maybeFailWithError comes first: the abortable error is thrown
              beginTransaction: {
                actions: rejectInErrorState('abortable', 'Cannot begin: the transaction hit an abortable error; call abortTransaction'),
              },
              initTransactions: {
                actions: rejectInErrorState(
                  'abortable',
                  'Cannot initialize: the transaction hit an abortable error; call abortTransaction',
                ),
              },
            }),
          ),
        },
      },
    },
    FATAL_ERROR: {
      on: withPendingTransition({
        // a close() that was waiting when the producer was fenced: every record has failed by now
        closeNow: { guard: 'closeDone', target: 'restarting', actions: finishClose },
        closeTimeout: { guard: 'closeTimedOut', target: 'restarting', actions: onCloseTimeout },
        close: { target: 'restarting', actions: onClose },
        crash: 'down',
        // waitOnMetadata comes before maybeAddPartition's maybeFailWithError (KafkaProducer.doSend)
        send: [
          { guard: 'awaitsMetadata', actions: onNetworkWhenFatal },
          { guard: 'exceedsBufferMemory', actions: refuseAllocation },
          { actions: sendWhenFatal },
        ],
        MetadataResponse: { actions: onNetworkWhenFatal },
        metadataUpdateDue: { actions: onNetworkWhenFatal },
        maxBlockExpired: { actions: onNetworkWhenFatal },
        AddOffsetsToTxnResponse: { actions: onNetworkWhenFatal },
        TxnOffsetCommitResponse: { actions: onNetworkWhenFatal },
        disconnected: { guard: 'metadataLost', actions: onNetworkWhenFatal },
        commitTransaction: { actions: rejectWhenFatal() },
        abortTransaction: { actions: rejectWhenFatal() },
        sendOffsetsToTransaction: { actions: rejectWhenFatal() },
        flush: { actions: flushWhenFatal },
        beginTransaction: { actions: rejectWhenFatal() },
        initTransactions: { actions: rejectWhenFatal() },
      }),
    },
    /** The process is down: everything in memory is gone. */
    down: {
      // refs and correlation ids keep counting so that records of different sessions never share one
      entry: handle((ctx: ProducerContext) => ({
        ...initialProducerContext(inputOf(ctx)),
        nextCorrelationId: ctx.nextCorrelationId,
        nextRef: ctx.nextRef,
      })),
      on: {
        restart: 'restarting',
      },
    },
  },
});
