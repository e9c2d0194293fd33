/**
 * StreamsRebalanceListener, as the main consumer calls it. The main consumer rebalances
 * COOPERATIVELY, Kafka 4.x's default for Streams (StreamsPartitionAssignor.supportedProtocols;
 * consumer/membership.ts): ConsumerCoordinator.onJoinPrepare revokes nothing — the JoinGroup carries
 * the owned partitions, the tasks go on processing through the rebalance — unless the generation is
 * gone (onPartitionsLost, below); ConsumerCoordinator.onJoinComplete calls onPartitionsRevoked with
 * only the owned partitions the new assignment lacks, before taking it, and then requests a rejoin:
 * the follow-up rebalance in which StreamsPartitionAssignor gives the task to its new owner
 * (coordinator/streamsAssignor.ts).
 *
 * - onPartitionsRevoked → TaskManager.handleRevocation: every task that needs a commit is committed
 *   before its partitions go (`commitOffsetsOrTransaction`): under exactly_once_v2 the open
 *   transaction with the input offsets, under at_least_once flush() + commitSync(). The records the
 *   task processed since its last commit are therefore not read again from older committed offsets
 *   when the partitions come back, nor by the instance they move to.
 * - onPartitionsLost (the member's generation is gone) → TaskManager.handleLostAll, under both
 *   guarantees: nothing can be committed any more; every active task is closed dirty
 *   (closeRunningTasksDirty) — its uncommitted work dropped, to be processed again from the committed
 *   offsets — and created again at the next assignment. Under exactly_once_v2 the open transaction is
 *   aborted, the store wiped and the producer re-created (reInitializeProducer), as after a
 *   TaskMigratedException (migration.ts); under at_least_once there is no transaction and no producer
 *   to replace.
 * - Between the JoinGroup and the assignment the thread does not commit: TaskManager.handleRebalanceStart
 *   (StreamsPartitionAssignor.subscriptionUserData, as the JoinGroup is built: the consumer's call
 *   `onRebalanceStart`, or the listener's answer after onPartitionsLost) sets
 *   `rebalanceInProgress`, handleRebalanceComplete (onPartitionsAssigned) clears it, and while it is
 *   set `commitTasksAndMaybeUpdateCommittableOffsets` returns -1: StreamThread.maybeCommit skips the
 *   commit and tries again on a later loop. (The listener's own commit, above, goes straight to
 *   TaskExecutor.commitOffsetsOrTransaction, before the JoinGroup.)
 *
 * The listener runs inside poll(), so the thread has a poll() out when it is called: it is running
 * (polling, pollingInTransaction, or committing while polling) or not running yet.
 */
import type { Out } from '../actors/out';
import { type Draft, type Ev, eos, type StreamThreadContext } from './streamThreadContext';

function revocation(ev: Ev): { readonly lost: boolean } | null {
  return ev.type === 'onPartitionsRevoked' ? ev.args : null;
}

/** onPartitionsRevoked with work the task has not committed: it commits before the partitions go. */
export function revokedWithWork(ctx: StreamThreadContext, ev: Ev): boolean {
  const r = revocation(ev);
  return r !== null && !r.lost && ctx.uncommitted > 0;
}

/** onPartitionsLost with an exactly_once_v2 transaction open: the task is closed dirty. */
export function lostInTransaction(ctx: StreamThreadContext, ev: Ev): boolean {
  return revocation(ev)?.lost === true && eos(ctx) && ctx.uncommitted > 0;
}

/**
 * onPartitionsLost under exactly_once_v2 with nothing uncommitted: handleLostAll still closes the
 * task dirty (its store wiped) and re-creates the producer (ActiveTaskCreator.reInitializeProducer),
 * though no transaction is open.
 */
export function lostWithoutWork(ctx: StreamThreadContext, ev: Ev): boolean {
  return revocation(ev)?.lost === true && eos(ctx) && ctx.uncommitted === 0;
}

/**
 * onPartitionsLost under at_least_once, with work or without: handleLostAll closes the task dirty
 * too (closeRunningTasksDirty does not look at the processing mode) — no transaction to abort, no
 * producer to replace.
 */
export function lostAtLeastOnce(ctx: StreamThreadContext, ev: Ev): boolean {
  return revocation(ev)?.lost === true && !eos(ctx);
}

/**
 * handleLostAll under at_least_once: the listener returns, the task's uncommitted work is dropped
 * (its commit timer with it), and the task is created again — its store restored from the changelog
 * (restore.ts dropTaskWork, then startTask); the input is processed again from the committed offsets.
 */
export function tasksLostAtLeastOnce(d: Draft, out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text:
      d.uncommitted > 0
        ? `onPartitionsLost (this member's generation is gone): its task is closed dirty — ${d.uncommitted} record(s) processed since the last commit dropped, to be processed again from the committed offsets — and created again, its store restored from the changelog`
        : "onPartitionsLost (this member's generation is gone): its task is closed dirty — nothing uncommitted — and created again, its store restored from the changelog",
  });
  answerRevocation(d, out);
}

/** handleLostAll with no transaction open: the listener returns, the task is closed dirty and the producer replaced. */
export function tasksLostWithoutWork(d: Draft, out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: "onPartitionsLost (this member's generation is gone): its task is closed dirty — nothing uncommitted, no transaction open, but its store is wiped — the producer is re-created and the task created again at the next assignment",
  });
  answerRevocation(d, out);
}

/**
 * The listener returns: after onPartitionsLost the main consumer rejoins — it sends its JoinGroup,
 * where Streams' assignor calls TaskManager.handleRebalanceStart: no commit until the assignment;
 * after onJoinComplete's revocation the rebalance is still in progress until onPartitionsAssigned.
 */
export function answerRevocation(d: Draft, out: Out): void {
  d.revocationPending = false;
  d.rebalanceInProgress = true;
  out.call(d.consumer, 'partitionsRevokedDone');
}

/**
 * handleRevocation: the listener returns once the commit under way, or the one that starts now, has
 * ended (processing.ts committed) — or the task failed meanwhile (migration.ts closeDirty).
 */
export function answerAfterCommit(d: Draft, ev: Ev): void {
  d.revocationPending = true;
  // at onJoinComplete (COOPERATIVE) the commit carries the generation that SyncGroup completed
  const metadata = ev.type === 'onPartitionsRevoked' ? ev.args.groupMetadata : undefined;
  if (metadata) d.groupMetadata = metadata;
}

/** The answer a commit's end or a dirty close owes the main consumer, if it waits. */
export function answerPendingRevocation(d: Draft, out: Out): void {
  if (d.revocationPending) answerRevocation(d, out);
}

/** handleLostAll: the listener returns at once; the task is closed dirty (migration.ts closeDirty follows). */
export function tasksLost(d: Draft, out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: "onPartitionsLost (this member's generation is gone): its task is closed dirty — its open transaction aborted, its store wiped — and created again at the next assignment",
  });
  answerRevocation(d, out);
}

/**
 * onPartitionsAssigned → TaskManager.handleRebalanceComplete: the rebalance completed, so commits
 * may go out again (the assignment, assignment.ts takeAssignment).
 */
export function rebalanceCompleted(d: Draft): void {
  d.rebalanceInProgress = false;
}

/** TaskManager.handleRebalanceStart, from the COOPERATIVE main consumer's JoinGroup: no commit until the assignment. */
export function rebalanceStarted(d: Draft): void {
  d.rebalanceInProgress = true;
}
