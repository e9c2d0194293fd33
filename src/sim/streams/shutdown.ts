/**
 * A stream thread that dies (a StreamsException) shuts down before it is DEAD.
 *
 * `StreamThread.run`: `catch (Throwable e)` → `requestLeaveGroupDuringShutdown()` (KAFKA-12738: a
 * dying thread leaves the group at once, so that its tasks move without waiting for
 * session.timeout.ms) and the uncaught-exception handler (4.0's default: SHUTDOWN_CLIENT); `finally`
 * → `completeShutdown(false)`:
 * 1. `TaskManager.shutdown(false)`: every active task closed dirty (`closeTaskDirty`: prepareCommit's
 *    flush, suspend, closeDirty — under exactly_once_v2 `RecordCollectorImpl.closeDirty` →
 *    `StreamsProducer.abortTransaction()` when a transaction is in flight, its errors swallowed, at
 *    most max.block.ms), then `ActiveTaskCreator.close()` → `StreamsProducer.close()` →
 *    `producer.close()`;
 * 2. `mainConsumer.unsubscribe()` (leaveGroupRequested) → `ConsumerCoordinator.onLeavePrepare` and
 *    `maybeLeaveGroup`: a LeaveGroup; then `mainConsumer.close()` — which sends none itself, Streams
 *    setting `internal.leave.group.on.close=false`;
 * 3. `restoreConsumer.close()`.
 *
 * The model's consumer `close()` sends the LeaveGroup `maybeLeaveGroup` would (a member with a
 * member id, not UNJOINED, to a known coordinator): unsubscribe() and close() as one call.
 */
import type { Out } from '../actors/out';
import { MAX_BLOCK_MS } from './migration';
import { type Draft, eos, type StreamThreadContext } from './streamThreadContext';

/** Under exactly_once_v2, a transaction is in flight: work processed since the last commit (StreamsProducer.transactionInFlight). */
export function transactionInFlight(ctx: StreamThreadContext): boolean {
  return eos(ctx) && ctx.uncommitted > 0;
}

/** completeShutdown begins: the task is closed dirty — under exactly_once_v2 its open transaction aborted (`abort`). */
export function closeTasksForShutdown(d: Draft, out: Out, abort: boolean): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: abort
      ? 'the stream thread shuts down: its task is closed dirty — its open transaction aborted — then its producer, its main consumer (leaving the group) and its restore consumer are closed'
      : 'the stream thread shuts down: its task is closed dirty, then its producer, its main consumer (leaving the group) and its restore consumer are closed',
  });
  out.cancel('continue');
  out.cancel('commitDue');
  d.plan = [];
  d.step = 0;
  d.uncommitted = 0;
  d.revocationPending = false;
  if (abort) {
    out.call(d.producer, 'abortTransaction');
    out.timer('abortTimeout', 'abortTimeout', MAX_BLOCK_MS);
  } else out.call(d.producer, 'close');
}

/** The main consumer is closed: unsubscribe()'s LeaveGroup goes out, so its partitions move at once. */
export function closeMainConsumer(d: Draft, out: Out): void {
  out.call(d.consumer, 'close');
}

/** The restore consumer is closed last. */
export function closeRestoreConsumer(d: Draft, out: Out): void {
  out.call(d.restoreConsumer, 'close');
}
