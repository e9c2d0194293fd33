/**
 * The stream thread's context and the glue its handlers share. The handlers live in restore.ts
 * (initialising and restoring the task), processing.ts (the poll–process–commit loop) and
 * migration.ts (closing the task dirty after a TaskMigratedException); the decisions between states
 * are the guards of streamThreadGuards.ts. Where the thread is — polling, processing, committing,
 * inside a transaction or not, restoring which call — is the machine's state, not a field here.
 */

import type { Mutable } from '../actors/draft';
import type { Call } from '../actors/events';
import { handle, type Out } from '../actors/out';
import {
  type CallReply,
  type GroupMetadata,
  type LifecycleEvent,
  type LoopTimer,
  type PollAnswer,
  type ReplyEvent,
  replyOf as replyArgs,
} from '../application/applicationLoop';
import type { ActorId } from '../kernel/envelope';
import type { RecordForApp, TopicPartition } from '../protocol/messages';

import { taskId } from './streamsTopology';

/** A count per key. */
export type Store = Readonly<Record<string, number>>;
/** Each task's store, by the task's partition. */
export type Stores = Readonly<Record<number, Store>>;

export type ProcessingGuarantee = 'at_least_once' | 'exactly_once_v2';

export type Step =
  | { readonly kind: 'repartition'; readonly i: number }
  /** groupBy selected a null key: the repartition topic's filter drops the record. */
  | { readonly kind: 'filter'; readonly i: number }
  | { readonly kind: 'count'; readonly i: number }
  /** count() skips a record with a null key or value (dropped-records). */
  | { readonly kind: 'drop'; readonly i: number }
  | { readonly kind: 'changelog'; readonly i: number }
  | { readonly kind: 'output'; readonly i: number }
  | { readonly kind: 'commit' };

/** What the main consumer's poll() returns. */
export type PollReply = PollAnswer;

export interface StreamThreadInput {
  readonly self: ActorId;
  readonly consumer: ActorId;
  readonly restoreConsumer: ActorId;
  readonly producer: ActorId;
  readonly client: string;
  readonly guarantee: ProcessingGuarantee;
  readonly commitIntervalMs: number;
  readonly inputTopic: string;
  readonly outputTopic: string;
  readonly changelogTopic: string;
  readonly repartitionTopic: string | null;
  readonly groupBy: 'key' | 'value' | null;
}

export interface StreamThreadContext extends StreamThreadInput {
  /**
   * The state stores, one per task — by the task's partition (its input partition, or the
   * repartition topic's after a groupBy): a count per key. Each task has its own store and changelog
   * partition (ProcessorStateManager), so a key arriving on two partitions is counted in two stores.
   */
  readonly stores: Stores;
  /**
   * The stores the restore under way rebuilds, by partition: the tasks newly assigned (a running
   * task keeps its store, its work and its transaction); null: every store of the changelog (every
   * store was wiped: the restore after a TaskCorruptedException).
   */
  readonly restoring: readonly number[] | null;
  /** The changelog's end offsets the restore reads to (the log end offset), once known: the restored stores' partitions only. */
  readonly restoreEnd: Readonly<Record<string, number>> | null;
  /** The restore consumer's positions on the changelog. */
  readonly restorePositions: Readonly<Record<string, number>>;
  readonly restoredRecords: number;
  /** The input positions the commit under way covers (taken when it started). */
  readonly commitOffsets: Readonly<Record<string, number>>;
  /** Records processed since the last commit. */
  readonly uncommitted: number;
  readonly lastCommitAt: number;
  readonly batch: readonly RecordForApp[];
  /** The main consumer's positions after the batch being processed. */
  readonly positions: Readonly<Record<string, number>>;
  readonly groupMetadata: GroupMetadata | null;
  readonly plan: readonly Step[];
  readonly step: number;
  /** New counts computed by the count steps of the current batch, by record index. */
  readonly counts: Readonly<Record<number, number>>;
  /** A poll() of the main consumer has not been answered yet. */
  readonly pollOutstanding: boolean;
  /** A poll() answer that arrived while the task was initialising or restoring: processed once it runs. */
  readonly heldBatch: PollReply | null;
  /**
   * The input partitions of the last assignment (onPartitionsAssigned: the tasks TaskManager.handleAssignment
   * keeps or creates), by name; none after a start, until the main consumer's first assignment.
   */
  readonly assigned: readonly string[];
  /**
   * The input partitions whose tasks exist here, their stores restored: a partition of `assigned`
   * outside them is a task newly assigned to this instance (assignment.ts newTasks).
   */
  readonly owned: readonly string[];
  /**
   * The input partitions of the tasks the state updater restores next to the running ones
   * (stateUpdater.ts): created, not running yet, their input partitions paused.
   */
  readonly updating: readonly string[];
  /**
   * What poll() returned of the paused partitions (the model's main consumer has no pause()): kept,
   * uncommitted, until the task runs; `positions` are those partitions' positions after them.
   */
  readonly paused: PollReply | null;
  /** Kafka Streams' dropped-records metric: records count() skipped. */
  readonly droppedRecords: number;
  /**
   * exactly_once_v2: initTransactions() has returned for the thread's current producer
   * (StreamsProducer.transactionInitialized; false again once that producer is closed).
   */
  readonly transactionsInitialized: boolean;
  /**
   * When the task stops retrying a producer call that timed out (StreamTask's task timeout:
   * the first TimeoutException + task.timeout.ms; taskTimeout.ts). Null while none has timed out.
   */
  readonly taskTimeoutDeadline: number | null;
  /** The main consumer waits in onPartitionsRevoked for the commit under way (revocation.ts). */
  readonly revocationPending: boolean;
  /**
   * The main consumer is between its JoinGroup and its next assignment (TaskManager's
   * `rebalanceInProgress`, revocation.ts): StreamThread.maybeCommit does not commit.
   */
  readonly rebalanceInProgress: boolean;
  /** at_least_once: the exception of a failed send, kept until the next send() or flush() throws it (sendErrors.ts). */
  readonly sendException?: string | null;
  /** The time of the last event (events raised inside a step carry none). */
  readonly clock: number;
  readonly stopped: string | null;
}

/** The stream thread's events: its clients' replies, its timers, and the kernel's lifecycle events. */
/** The main consumer's rebalance listener (StreamsRebalanceListener), called from its onJoinPrepare. */
export type RevocationCall = Call<
  'onPartitionsRevoked',
  {
    readonly partitions: readonly unknown[];
    readonly lost: boolean;
    /** COOPERATIVE onJoinComplete's revocation: the main consumer's groupMetadata() then, the new generation. */
    readonly groupMetadata?: GroupMetadata;
  }
>;

/** The producer's Callback for a send that failed (asked for under at_least_once; sendErrors.ts). */
export type SendFailedCall = Call<'sendFailed', { readonly error: string; readonly topic: string; readonly partition: number }>;

/** The main consumer's StreamsRebalanceListener.onPartitionsAssigned, called from its onJoinComplete with the new assignment. */
export type AssignmentCall = Call<'onPartitionsAssigned', { readonly partitions: readonly TopicPartition[] }>;

/**
 * The main consumer, COOPERATIVE, rejoins keeping its partitions: StreamsPartitionAssignor.subscriptionUserData,
 * as the JoinGroup is built, calls TaskManager.handleRebalanceStart (revocation.ts).
 */
export type RebalanceStartCall = Call<'onRebalanceStart'>;

export type Ev =
  | ReplyEvent
  | LoopTimer<'continue' | 'commitDue' | 'abortTimeout'>
  | LifecycleEvent
  | RevocationCall
  | AssignmentCall
  | RebalanceStartCall
  | SendFailedCall;
export type Draft = Mutable<StreamThreadContext>;

export function initialContext(input: StreamThreadInput): StreamThreadContext {
  return {
    ...input,
    stores: {},
    restoring: null,
    restoreEnd: null,
    restorePositions: {},
    restoredRecords: 0,
    commitOffsets: {},
    uncommitted: 0,
    lastCommitAt: 0,
    batch: [],
    positions: {},
    groupMetadata: null,
    plan: [],
    step: 0,
    counts: {},
    pollOutstanding: false,
    heldBatch: null,
    assigned: [],
    owned: [],
    updating: [],
    paused: null,
    droppedRecords: 0,
    transactionsInitialized: false,
    taskTimeoutDeadline: null,
    revocationPending: false,
    rebalanceInProgress: false,
    clock: 0,
    stopped: null,
  };
}

/** Each task's store by its task id (`0_2`, or `1_2` after a groupBy), in partition order. */
export function storesByTask(d: Pick<StreamThreadContext, 'stores' | 'repartitionTopic'>): Record<string, Store> {
  return Object.fromEntries(
    Object.entries(d.stores)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([p, s]) => [taskId(d.repartitionTopic !== null, Number(p)), s]),
  );
}

export function eos(d: StreamThreadContext): boolean {
  return d.guarantee === 'exactly_once_v2';
}

/** Who answered a call: the thread's producer, its main consumer or its restore consumer. */
export function replier(d: StreamThreadContext, ev: Ev): 'producer' | 'consumer' | 'restore' | null {
  if (ev.type !== 'reply') return null;
  if (ev.from === d.producer) return 'producer';
  if (ev.from === d.consumer) return 'consumer';
  if (ev.from === d.restoreConsumer) return 'restore';
  return null;
}

export type Reply = CallReply;

/** The reply an event carries (a timer or lifecycle event carries none: an empty answer). */
export function replyOf(ev: Ev): Reply {
  return replyArgs(ev) ?? { call: '', ok: false };
}

/** The time of an event (a lifecycle event may carry none: the last known time). */
export function eventTime(ctx: StreamThreadContext, ev: Ev): number {
  const now = ev.now;
  return typeof now === 'number' && Number.isFinite(now) ? now : ctx.clock;
}

/**
 * A handler as an XState action, on a draft copy of the context. `now` is the event's time, or for
 * an event raised inside a step (which carries none) the time of the step that raised it: a
 * deadline is never computed from a missing time.
 */
export const act = (fn: (d: Draft, now: number, ev: Ev, out: Out) => void) =>
  handle((ctx: StreamThreadContext, ev: Ev, out: Out) => {
    const d: Draft = { ...ctx, clock: eventTime(ctx, ev) };
    fn(d, d.clock, ev, out);
    return d;
  });

/** The thread dies (a StreamsException): it says why (the guard that chose `stopped` decided it). */
export function stop(d: Draft, out: Out, why: string): void {
  d.stopped = why;
  out.fact({ kind: 'note', actor: d.self, text: why });
}
