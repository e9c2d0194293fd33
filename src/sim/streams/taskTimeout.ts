/**
 * A producer call of the stream thread that times out (max.block.ms: TimeoutException) is retried,
 * not fatal, until the task timeout. StreamsProducer.initTransaction and commitTransaction catch
 * TimeoutException and rethrow it as it is ("re-throw to trigger `task.timeout.ms`"); the TaskManager
 * (addTasksToStateUpdater for an initialisation, commit for a commit) catches it and calls
 * Task.maybeInitTaskTimeoutOrThrow: the first one sets the deadline, now + task.timeout.ms, and a
 * later one past it throws "did not make progress within task.timeout.ms"; the next loop of the
 * thread calls again, and the producer's kept result (handleCachedTransactionRequestResult) makes
 * initTransactions() and commitTransaction() wait for the request already under way.
 * sendOffsetsToTransaction keeps no result: the retried commit sends it again. Progress clears the
 * deadline (clearTaskTimeout). Simplified: the retry is called at once (Kafka's next loop first
 * polls), and task.timeout.ms is Kafka's default, not a scenario setting.
 */
import type { Out } from '../actors/out';
import { failed, replyOf, sendOffsetsArgs } from '../application/applicationLoop';
import { type Draft, type Ev, eventTime, type StreamThreadContext } from './streamThreadContext';

/** task.timeout.ms (StreamsConfig, default 300000). */
export const TASK_TIMEOUT_MS = 300000;

/** The calls whose TimeoutException starts the task timeout (StreamsProducer's rethrows). */
const RETRIED = ['initTransactions', 'sendOffsetsToTransaction', 'commitTransaction'] as const;

/** A producer call timed out and the task timeout has not passed: the call is made again. */
export function timedOutWithinTaskTimeout(context: StreamThreadContext, event: Ev): boolean {
  const r = replyOf(event);
  if (!r || r.error !== 'TimeoutException' || !RETRIED.some((call) => failed(event, call, context.producer))) return false;
  return context.taskTimeoutDeadline === null || eventTime(context, event) <= context.taskTimeoutDeadline;
}

/** Task.maybeInitTaskTimeoutOrThrow, then the next loop's call of the same method (see above). */
export function retryTimedOut(d: Draft, now: number, ev: Ev, out: Out): void {
  const r = replyOf(ev);
  if (!r) return;
  if (d.taskTimeoutDeadline === null) d.taskTimeoutDeadline = now + TASK_TIMEOUT_MS;
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `${r.call}() timed out (TimeoutException): the task retries it until task.timeout.ms=${TASK_TIMEOUT_MS} has passed since the first timeout, at ${d.taskTimeoutDeadline} ms`,
  });
  // a retried commit sends its offsets again: sendOffsetsToTransaction keeps no result to wait for
  if (r.call === 'sendOffsetsToTransaction') out.call(d.producer, r.call, sendOffsetsArgs(d.groupMetadata, d.commitOffsets));
  else out.call(d.producer, r.call);
}

/** Task.clearTaskTimeout: the call went through. */
export function clearTaskTimeout(d: Draft): void {
  d.taskTimeoutDeadline = null;
}
