/**
 * What the stream thread does when a commit or a send fails under exactly_once_v2.
 *
 * `StreamsProducer.commitTransaction` (and `send`, `maybeBeginTransaction`) turn a fenced producer —
 * ProducerFencedException, InvalidProducerEpochException, InvalidPidMappingException — and a
 * CommitFailedException into a TaskMigratedException; `RecordCollectorImpl.recordSendError` does the
 * same for a send that failed with one of those or OutOfOrderSequenceException. Any other
 * KafkaException becomes a StreamsException: the thread dies.
 *
 * `StreamThread.handleTaskMigrated`: `TaskManager.handleLostAll()` closes every task dirty
 * (`RecordCollectorImpl.closeDirty` aborts the transaction, swallowing a fenced error; under EOS
 * `StateManagerUtil.closeStateManager` wipes the store), `ActiveTaskCreator.reInitializeProducer()`
 * replaces the producer with a new one (`StreamsProducer.resetProducer`), and the main consumer
 * unsubscribes and subscribes again, rejoining the group. The task is created again on the next
 * assignment: initTransactions() on the new producer, a full restore, then processing from the
 * committed offsets.
 */
import type { Out } from '../actors/out';
import { dropTaskWork } from './restore';
import { answerPendingRevocation } from './revocation';
import { type Draft, type Reply, stop } from './streamThreadContext';
import { clearTaskTimeout } from './taskTimeout';

/** The errors that Kafka Streams turns into a TaskMigratedException. */
const MIGRATED = new Set([
  'PRODUCER_FENCED',
  'INVALID_PRODUCER_EPOCH',
  'INVALID_PRODUCER_ID_MAPPING',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'CommitFailedException',
  // what a call refused in an error state throws as itself (TransactionManager.maybeFailWithError)
  'ProducerFencedException',
  'InvalidProducerEpochException',
]);

/**
 * The producer's refusal once it is fenced (KafkaProducer rethrows the fencing exception) or its
 * producer id is unknown to the coordinator (a KafkaException caused by InvalidPidMappingException,
 * which StreamsProducer also turns into TaskMigratedException).
 */
const FENCED_REFUSAL = /fatal error state \((?:fenced|INVALID_PRODUCER_ID_MAPPING\b)/;

export function isTaskMigrated(error: string | null): boolean {
  return error !== null && (MIGRATED.has(error) || FENCED_REFUSAL.test(error));
}

/** KafkaProducer.abortTransaction() blocks at most max.block.ms (default 60000). */
export const MAX_BLOCK_MS = 60000;

/** A call to the producer failed with an error Streams does not turn into a TaskMigratedException: the thread dies. */
export function streamsException(d: Draft, r: Reply, out: Out): void {
  stop(d, out, `${r.call} failed with ${r.error ?? null}: StreamsException, the stream thread dies`);
}

/** A call to the producer failed with TaskMigratedException: the task is closed dirty and the thread rejoins. */
export function taskMigrated(d: Draft, r: Reply, out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `TaskMigratedException (${r.call} failed with ${r.error ?? null}): the task is closed dirty — its transaction aborted, its store wiped — the producer is re-created and the thread rejoins the group`,
  });
}

/**
 * Closes the task dirty (the machine enters migrating.aborting): drop its work, abort the open
 * transaction — a task fails only inside one, under exactly_once_v2 — within max.block.ms.
 */
export function closeDirty(d: Draft, out: Out): void {
  // a commit the main consumer's onPartitionsRevoked waited for failed: the listener returns
  answerPendingRevocation(d, out);
  dropTaskWork(d, out);
  out.call(d.producer, 'abortTransaction');
  out.timer('abortTimeout', 'abortTimeout', MAX_BLOCK_MS);
}

/**
 * at_least_once: commitSync failed with CommitFailedException (TaskExecutor.commitOffsetsOrTransaction
 * → TaskMigratedException): handleLostAll closes the task dirty — its uncommitted work dropped, the
 * store kept (wiped only under EOS; the model restores it from the changelog, which holds every
 * update already written) — no producer to re-create, and the main consumer rejoins.
 */
export function commitSyncMigrated(d: Draft, r: Reply, out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `TaskMigratedException (${r.call} failed with ${r.error ?? null}): the task is closed dirty — its uncommitted work dropped, to be processed again from the committed offsets — and the thread rejoins the group`,
  });
  answerPendingRevocation(d, out);
  dropTaskWork(d, out);
  resubscribe(d, out);
}

/** abortTransaction() did not return within max.block.ms: Streams swallows the TimeoutException. */
export function onAbortTimeout(d: Draft, out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `abortTransaction() did not return within max.block.ms=${MAX_BLOCK_MS}: the TimeoutException is swallowed and the coordinator aborts the transaction after transaction.timeout.ms`,
  });
  closeProducer(d, out);
}

/** A fenced producer cannot abort: the error is expected and swallowed (StreamsProducer.abortTransaction). */
export function aborted(d: Draft, out: Out): void {
  out.cancel('abortTimeout');
  closeProducer(d, out);
}

/**
 * The old producer is closed and a new one created (ActiveTaskCreator.reInitializeProducer); its
 * transactions are initialised when a task is created again (StreamsProducer.close resets
 * `transactionInitialized`).
 */
export function closeProducer(d: Draft, out: Out): void {
  d.transactionsInitialized = false;
  clearTaskTimeout(d);
  out.call(d.producer, 'close');
}

/** The main consumer unsubscribes and subscribes again: the thread rejoins the group. */
export function resubscribe(d: Draft, out: Out): void {
  out.call(d.consumer, 'resubscribe');
}

/** A poll() answer while migrating was read from positions that are gone: it is dropped. */
export function dropPoll(d: Draft): void {
  d.pollOutstanding = false;
}
