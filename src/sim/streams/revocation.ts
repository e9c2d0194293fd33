/**
 * StreamsRebalanceListener, as the main consumer calls it from ConsumerCoordinator.onJoinPrepare
 * before it rejoins (this model's main consumer rebalances eagerly: every partition is revoked at
 * every rebalance, as with `upgrade.from` set before 2.4; Kafka's default cooperative protocol
 * revokes only the partitions that move, and commits then too).
 *
 * - onPartitionsRevoked → TaskManager.handleRevocation: every task that needs a commit is committed
 *   before its partitions go (`commitOffsetsOrTransaction`): under exactly_once_v2 the open
 *   transaction with the input offsets, under at_least_once flush() + commitSync(). The records the
 *   task processed since its last commit are therefore not read again from older committed offsets
 *   when the partitions come back, nor by the instance they move to.
 * - onPartitionsLost (the member's generation is gone) → TaskManager.handleLostAll: nothing can be
 *   committed any more; the tasks are closed dirty — under exactly_once_v2 the open transaction is
 *   aborted and the store restored, as after a TaskMigratedException (migration.ts).
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

/** handleLostAll with no transaction open: the listener returns, the task is closed dirty and the producer replaced. */
export function tasksLostWithoutWork(d: Draft, out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: "onPartitionsLost (this member's generation is gone): its task is closed dirty — nothing uncommitted, no transaction open, but its store is wiped — the producer is re-created and the task created again at the next assignment",
  });
  answerRevocation(d, out);
}

/** The listener returns: the main consumer rejoins. */
export function answerRevocation(d: Draft, out: Out): void {
  d.revocationPending = false;
  out.call(d.consumer, 'partitionsRevokedDone');
}

/**
 * handleRevocation: the listener returns once the commit under way, or the one that starts now, has
 * ended (processing.ts committed) — or the task failed meanwhile (migration.ts closeDirty).
 */
export function answerAfterCommit(d: Draft): void {
  d.revocationPending = true;
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
