/**
 * The stream thread's context and the glue its handlers share. The handlers live in restore.ts
 * (initialising and restoring the task), processing.ts (the poll–process–commit loop) and
 * migration.ts (closing the task dirty after a TaskMigratedException).
 */
import { handle, type Out } from '../actors/out';
import type { CallEvent, TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import type { RecordForApp, TopicPartition } from '../protocol/messages';

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
export interface PollReply {
  readonly records?: readonly RecordForApp[];
  readonly positions?: Readonly<Record<string, number>>;
  readonly groupMetadata?: StreamThreadContext['groupMetadata'];
}

/** Where closing the task dirty has got to (see migration.ts). */
export type MigrationStep = 'abort' | 'close' | 'resubscribe';

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
  /** The state store: a count per key. */
  readonly store: Readonly<Record<string, number>>;
  /** The changelog's end offsets the restore reads to (the log end offset), once known. */
  readonly restoreEnd: Readonly<Record<string, number>> | null;
  /** The restore consumer's positions on the changelog. */
  readonly restorePositions: Readonly<Record<string, number>>;
  readonly restoredRecords: number;
  /** The call the thread waits for from the restore consumer. */
  readonly restoreCall: string | null;
  readonly inTransaction: boolean;
  /** A commit (sendOffsetsToTransaction + commitTransaction, or flush + commitSync) is under way. */
  readonly committing: boolean;
  /** A batch arrived while committing: it starts once the commit is done, never inside it. */
  readonly batchWaiting: boolean;
  /** The input positions the commit under way covers (taken when it started). */
  readonly commitOffsets: Readonly<Record<string, number>>;
  /** Records processed since the last commit. */
  readonly uncommitted: number;
  readonly lastCommitAt: number;
  readonly batch: readonly RecordForApp[];
  /** The main consumer's positions after the batch being processed. */
  readonly positions: Readonly<Record<string, number>>;
  readonly groupMetadata: { groupId: string | null; generationId: number; memberId: string } | null;
  readonly plan: readonly Step[];
  readonly step: number;
  /** New counts computed by the count steps of the current batch, by record index. */
  readonly counts: Readonly<Record<number, number>>;
  /** A poll() of the main consumer has not been answered yet. */
  readonly pollOutstanding: boolean;
  /** A poll() answer that arrived while the task was initialising or restoring: processed once it runs. */
  readonly heldBatch: PollReply | null;
  /**
   * The thread is rejoining the group: poll() answers until the consumer confirms the rejoin were
   * read from positions that are gone, and are discarded.
   */
  readonly discardPolls: boolean;
  readonly migration: MigrationStep | null;
  /**
   * The input partitions the store has been kept for since its last restore: those of the last
   * poll() answer. A partition outside them is a task newly assigned to this instance.
   */
  readonly owned: readonly string[];
  /** The input offsets this thread itself last committed, per partition (kept by the model across a restart; see processing.ts). */
  readonly ownCommitted: Readonly<Record<string, number>>;
  /** A newly assigned task is being created: aborting the open transaction first, or waiting for a commit under way. */
  readonly recreate: 'abort' | 'after-commit' | null;
  /** Kafka Streams' dropped-records metric: records count() skipped. */
  readonly droppedRecords: number;
  /** The time of the last event (events raised inside a step carry none). */
  readonly clock: number;
  readonly stopped: string | null;
}

export type Ev =
  | CallEvent
  | TimerEvent
  | { type: 'boot' | 'crash' | 'initialized' | 'restored' | 'migrate' | 'migrated' | 'recreate' | 'halt' };
type Mutable<T> = { -readonly [K in keyof T]: T[K] };
export type Draft = Mutable<StreamThreadContext>;

export function initialContext(input: StreamThreadInput): StreamThreadContext {
  return {
    ...input,
    store: {},
    restoreEnd: null,
    restorePositions: {},
    restoredRecords: 0,
    restoreCall: null,
    inTransaction: false,
    committing: false,
    batchWaiting: false,
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
    discardPolls: false,
    migration: null,
    owned: [],
    ownCommitted: {},
    recreate: null,
    droppedRecords: 0,
    clock: 0,
    stopped: null,
  };
}

export function eos(d: StreamThreadContext): boolean {
  return d.guarantee === 'exactly_once_v2';
}

export const tpName = (tp: TopicPartition) => `${tp.topic}-${tp.partition}`;

/** Who answered a call: the thread's producer, its main consumer or its restore consumer. */
export function replier(d: StreamThreadContext, ev: Ev): 'producer' | 'consumer' | 'restore' | null {
  const from = (ev as CallEvent).from;
  if (from === d.producer) return 'producer';
  if (from === d.consumer) return 'consumer';
  if (from === d.restoreConsumer) return 'restore';
  return null;
}

export interface Reply {
  readonly call: string;
  readonly ok: boolean;
  readonly error?: string | null;
  readonly [k: string]: unknown;
}

export function replyOf(ev: Ev): Reply {
  return (ev as CallEvent<Reply>).args;
}

/**
 * A handler as an XState action, on a draft copy of the context. `now` is the event's time, or for
 * an event raised inside a step (which carries none) the time of the step that raised it: a
 * deadline is never computed from a missing time.
 */
export const act = (fn: (d: Draft, now: number, ev: Ev, out: Out) => void) =>
  handle((ctx: StreamThreadContext, ev: Ev, out: Out) => {
    const d: Draft = { ...ctx };
    const now = (ev as { now?: unknown }).now;
    if (typeof now === 'number' && Number.isFinite(now)) d.clock = now;
    fn(d, d.clock, ev, out);
    return d;
  });

/** The thread dies (a StreamsException): it says why and stops. */
export function stop(d: Draft, out: Out, why: string): void {
  d.stopped = why;
  out.fact({ kind: 'note', actor: d.self, text: why });
  out.raise({ type: 'halt' });
}
