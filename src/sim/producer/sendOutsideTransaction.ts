/**
 * send() on a transactional producer outside a transaction, as KafkaProducer.doSend does it: the record
 * is appended to the accumulator first (`accumulator.append`), and only then does
 * TransactionManager.maybeAddPartition throw — so send() throws, yet the record stays in its
 * partition's batch. The drain holds that batch back while the partition is not in a transaction
 * (isSendToPartitionAllowed; the model's `partitionSendable`): a later transaction that adds the
 * partition carries it out, to commit or abort with it; else it expires after delivery.timeout.ms,
 * and on the Sender thread the invalid transition to ABORTABLE_ERROR poisons the producer into
 * FATAL_ERROR (`poisonOnInvalidTransition`).
 */
import type { Out } from '../actors/out';
import { keyOf } from '../protocol/topicPartition';
import { pendingRefusal } from './maxBlock';
import type { PendingRecord } from './producerContext';
import { accumulate, clientError, failEverything, type ProducerDraft, type SendArgs } from './sender';
import { replyToApp } from './transactionManager';

/** The TransactionManager states in which send() appends its record, then maybeAddPartition throws IllegalStateException. */
export type StateOutsideTransaction = 'UNINITIALIZED' | 'INITIALIZING' | 'READY' | 'COMMITTING_TRANSACTION' | 'ABORTING_TRANSACTION';

/**
 * maybeAddPartition's IllegalStateException, in Kafka's words (the double space is Kafka's): before a
 * producer id (UNINITIALIZED, the first INITIALIZING), or in any state but IN_TRANSACTION.
 */
export function addPartitionRefusal(d: ProducerDraft, state: StateOutsideTransaction, tp: string): string {
  if (d.producerId < 0) return `Cannot add partition ${tp} to transaction before completing a call to initTransactions`;
  return `Cannot add partition ${tp} to transaction while in state  ${state}`;
}

/** Kafka's state name while no transaction is open (`inTransaction` false). */
export function stateOutsideTransaction(d: ProducerDraft): 'UNINITIALIZED' | 'INITIALIZING' | 'READY' {
  if (d.initPending || d.epochBumpInit) return 'INITIALIZING';
  return d.producerId < 0 ? 'UNINITIALIZED' : 'READY';
}

/** TransactionManager.transitionTo's message for a transition State.isTransitionValid refuses. */
export function invalidTransitionMessage(d: ProducerDraft, from: string, to: string): string {
  const id = d.config['transactional.id'];
  return `${id === null ? '' : `TransactionalId ${id}: `}Invalid transition attempted from state ${from} to state ${to}`;
}

/**
 * The record goes into the accumulator, then send() fails with maybeAddPartition's IllegalStateException
 * (the clientError fact; the caller replies with `reason`). Its batch waits for a transaction that adds
 * its partition. While a timed-out commitTransaction, abortTransaction or initTransactions must be
 * retried, maybeAddPartition's throwIfPendingState("send") throws first, with its own message.
 */
export function appendThenRefuse(
  d: ProducerDraft,
  args: SendArgs,
  state: StateOutsideTransaction,
  now: number,
  out: Out,
): { rec: PendingRecord; reason: string } {
  const rec = accumulate(d, args, now, out);
  const reason = d.pendingTransition !== null ? pendingRefusal(d, 'send') : addPartitionRefusal(d, state, keyOf(rec));
  clientError(d, out, 'IllegalStateException', `send: ${reason}`);
  return { rec, reason };
}

/**
 * A batch failed (its records expired) while no transaction is open: TransactionManager.handleFailedBatch
 * → maybeTransitionToErrorState → transitionToAbortableError, and READY (or UNINITIALIZED) →
 * ABORTABLE_ERROR is no valid transition. The Sender thread runs with setPoisonStateOnInvalidTransition(true)
 * (Sender.run), so transitionTo sets currentState = FATAL_ERROR and lastError = IllegalStateException;
 * the next runOnce fails every record left with it (maybeAbortBatches: the caller's failEverything), and
 * every transactional call then throws it (maybeFailWithError). *Simplification*: in INITIALIZING Kafka
 * moves to ABORTABLE_ERROR (a valid transition) and is poisoned only when InitProducerId's answer tries
 * READY; the model poisons it at once.
 */
export function poisonOnInvalidTransition(d: ProducerDraft, out: Out): 'fatal' {
  clientError(d, out, 'IllegalStateException', invalidTransitionMessage(d, stateOutsideTransaction(d), 'ABORTABLE_ERROR'), true);
  d.abortableError = null;
  // a waiting initTransactions() fails with it; flush() and close() return once every record has failed
  const call = d.waiting?.call;
  if (call && call !== 'flush' && call !== 'close') replyToApp(d, out, false, 'IllegalStateException');
  return 'fatal';
}

/**
 * send() in FATAL_ERROR: the record is appended, maybeAddPartition's maybeFailWithError throws, and the
 * Sender's next runOnce (hasFatalError → maybeAbortBatches(lastError)) fails it with the fatal error.
 */
export function appendThenAbortWhenFatal(d: ProducerDraft, args: SendArgs, now: number, out: Out): PendingRecord {
  const rec = accumulate(d, args, now, out);
  out.cancel(`linger:${keyOf(rec)}`);
  failEverything(d, (d.lastError ?? 'KafkaException') as Parameters<typeof failEverything>[1], out);
  return rec;
}
