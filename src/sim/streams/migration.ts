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
import { type Draft, type Ev, replier, replyOf, stop } from './streamThreadContext';

/** The errors that Kafka Streams turns into a TaskMigratedException. */
const MIGRATED = new Set([
  'PRODUCER_FENCED',
  'INVALID_PRODUCER_EPOCH',
  'INVALID_PRODUCER_ID_MAPPING',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'CommitFailedException',
]);

/** The producer's refusal once it is fenced: KafkaProducer rethrows the fencing exception. */
const FENCED_REFUSAL = /fatal error state \(fenced\)/;

export function isTaskMigrated(error: string | null): boolean {
  return error !== null && (MIGRATED.has(error) || FENCED_REFUSAL.test(error));
}

/** KafkaProducer.abortTransaction() blocks at most max.block.ms (default 60000). */
export const MAX_BLOCK_MS = 60000;

/** A call to the producer failed: TaskMigratedException (close dirty and rejoin) or StreamsException (the thread dies). */
export function failTask(d: Draft, out: Out, call: string, error: string | null): void {
  if (!isTaskMigrated(error)) {
    stop(d, out, `${call} failed with ${error}: StreamsException, the stream thread dies`);
    return;
  }
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `TaskMigratedException (${call} failed with ${error}): the task is closed dirty — its transaction aborted, its store wiped — the producer is re-created and the thread rejoins the group`,
  });
  out.raise({ type: 'migrate' });
}

function closeProducer(d: Draft, out: Out): void {
  d.migration = 'close';
  out.call(d.producer, 'close');
}

/** Closes the task dirty: abort the open transaction (if any), then replace the producer, then rejoin. */
export function closeDirty(d: Draft, out: Out): void {
  dropTaskWork(d, out);
  // answers to poll() calls made before the rejoin are read from positions that are gone
  d.discardPolls = true;
  if (!d.inTransaction) {
    closeProducer(d, out);
    return;
  }
  d.migration = 'abort';
  out.call(d.producer, 'abortTransaction');
  out.timer('abortTimeout', 'abortTimeout', MAX_BLOCK_MS);
}

/** abortTransaction() did not return within max.block.ms: Streams swallows the TimeoutException. */
export function onAbortTimeout(d: Draft, out: Out): void {
  if (d.migration !== 'abort') return;
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `abortTransaction() did not return within max.block.ms=${MAX_BLOCK_MS}: the TimeoutException is swallowed and the coordinator aborts the transaction after transaction.timeout.ms`,
  });
  d.inTransaction = false;
  closeProducer(d, out);
}

/** While migrating: the abort, the new producer and the rejoin, one after the other. */
export function onMigrationReply(d: Draft, ev: Ev, out: Out): void {
  const r = replyOf(ev);
  const who = replier(d, ev);
  if (who === 'consumer' && r.call === 'poll') {
    d.pollOutstanding = false;
    return;
  }
  if (who === 'producer' && r.call === 'abortTransaction' && d.migration === 'abort') {
    // a fenced producer cannot abort: the error is expected and swallowed (StreamsProducer.abortTransaction)
    out.cancel('abortTimeout');
    d.inTransaction = false;
    closeProducer(d, out);
    return;
  }
  if (who === 'producer' && r.call === 'close' && d.migration === 'close') {
    d.migration = 'resubscribe';
    out.call(d.consumer, 'resubscribe');
    return;
  }
  if (who === 'consumer' && r.call === 'resubscribe' && d.migration === 'resubscribe') {
    d.migration = null;
    d.discardPolls = false;
    out.raise({ type: 'migrated' });
  }
}
