/**
 * A send that failed, as Kafka Streams' RecordCollectorImpl handles it under at_least_once.
 *
 * The producer's Callback (`recordSendError`) keeps the exception (`sendException`); the next
 * `send()` or `flush()` of the collector throws it (`checkForException`) — so the commit that
 * follows a failed send never commits the input offsets past it. What is kept:
 * - ProducerFencedException, InvalidProducerEpochException, InvalidPidMappingException,
 *   OutOfOrderSequenceException (UnknownProducerIdException is one): a TaskMigratedException;
 * - a RetriableException (a TimeoutException after delivery.timeout.ms, NOT_ENOUGH_REPLICAS …),
 *   which the DefaultProductionExceptionHandler answers RETRY: a TaskCorruptedException;
 * - any other: the handler answers FAIL, a StreamsException — the thread dies.
 *
 * A TaskCorruptedException (`StreamThread.runLoop` → `TaskManager.handleCorruption` →
 * `closeDirtyAndRevive`): the task is closed dirty — its uncommitted work dropped, its changelog
 * marked corrupted, so the revived task restores its store from the changelog from scratch — and its
 * input partitions are reset to the committed offsets (`addPartitionsForOffsetReset`): the records
 * since the last commit, the failed one among them, are processed again. At least once: no record is
 * lost, and the ones processed again are counted again (the changelog still holds their increments).
 *
 * *Simplified*: only at_least_once asks for the Callback. Under exactly_once_v2 (whose producer has
 * delivery.timeout.ms = Integer.MAX_VALUE, so a retriable failure does not end a send) a failed send
 * makes the transaction abortable, and the commitTransaction() that follows fails with the same
 * outcome the model already gives it (migration.ts). The check before a send is made before the
 * record is processed (Kafka's comes at the send() after the store update, which the dirty close
 * drops anyway).
 */
import type { Out } from '../actors/out';
import { KAFKA_ERRORS, type KafkaError } from '../protocol/errors';
import { isTaskMigrated } from './migration';
import { dropTaskWork, startRestore } from './restore';
import { answerPendingRevocation } from './revocation';
import { type Draft, eos, type StreamThreadContext, stop } from './streamThreadContext';

export type SendErrorKind = 'migrated' | 'corrupted' | 'fatal';

/** What RecordCollectorImpl.recordSendError makes of a send's exception. */
export function sendErrorKind(error: string): SendErrorKind {
  if (isTaskMigrated(error)) return 'migrated';
  const retriable = error === 'TimeoutException' || (KAFKA_ERRORS[error as KafkaError]?.retriable ?? false);
  return retriable ? 'corrupted' : 'fatal';
}

/** The send exception the collector holds, under at_least_once, and what it makes. */
export function pendingSendError(d: StreamThreadContext): SendErrorKind | null {
  if (eos(d) || d.sendException === undefined || d.sendException === null) return null;
  return sendErrorKind(d.sendException);
}

/** The producer's Callback: a send failed (RecordCollectorImpl.recordSendError keeps the exception). */
export function onSendFailed(d: Draft, error: string): void {
  d.sendException = error;
}

const heldError = (d: Draft): string => d.sendException ?? 'an error';

/**
 * TaskCorruptedException: the task is closed dirty (its work dropped, its store wiped to be restored
 * from the changelog) and the main consumer goes back to the committed offsets; then the restore.
 */
export function taskCorrupted(d: Draft, out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `TaskCorruptedException (a send failed with ${heldError(d)}, retriable: the production exception handler answers RETRY): the task is closed dirty — its uncommitted work dropped, its store restored from the changelog from scratch — and its input goes back to the committed offsets, so the records since the last commit are processed again`,
  });
  d.sendException = null;
  answerPendingRevocation(d, out);
  dropTaskWork(d, out);
  out.call(d.consumer, 'seekToCommitted');
}

/** The consumer is back at the committed offsets: the store is restored from the changelog. */
export function restoreAfterCorruption(d: Draft, out: Out): void {
  d.restoredRecords = 0;
  startRestore(d, out);
}

/** TaskMigratedException from a send (at_least_once): closed dirty, and the thread rejoins (migration.ts). */
export function sendMigrated(d: Draft, out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `TaskMigratedException (a send failed with ${heldError(d)}): the task is closed dirty — its uncommitted work dropped, to be processed again from the committed offsets — and the thread rejoins the group`,
  });
  d.sendException = null;
  answerPendingRevocation(d, out);
  dropTaskWork(d, out);
  out.call(d.consumer, 'resubscribe');
}

/** Any other send exception: the handler answers FAIL, a StreamsException; the thread dies. */
export function sendFatal(d: Draft, out: Out): void {
  stop(
    d,
    out,
    `a send failed with ${heldError(d)}: the production exception handler answers FAIL, a StreamsException — the stream thread dies`,
  );
}
