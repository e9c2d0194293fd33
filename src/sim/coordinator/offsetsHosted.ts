/**
 * The group coordinator hosted by a broker when `__consumer_offsets` is replicated
 * (offsets.topic.replication.factor > 1), as Kafka 4.x's CoordinatorRuntime runs it: one coordinator
 * state per `__consumer_offsets` partition the broker leads (GroupCoordinatorService.onElection →
 * CoordinatorRuntime.scheduleLoadOperation), loaded from the broker's own replica, and every write
 * operation answered only once the partition's high watermark passes its records.
 *
 * - *Ownership* (CoordinatorRuntime.withActiveContextOrThrow): a group of a partition not led here →
 *   NOT_COORDINATOR; one still loading → COORDINATOR_LOAD_IN_PROGRESS.
 * - *Writes* (CoordinatorPartitionWriter.append: acks=1, no min ISR check; the answer waits for the HW,
 *   `deferredEventQueue`, at most offsets.commit.timeout.ms): the handler of the one-replica
 *   coordinator runs unchanged; the records it wrote (offset commits, a GroupMetadata record when the
 *   group's stored generation changed) go to the host in one in-process call, and everything the
 *   handler emitted is held until the host answers. On NONE the group state it produced becomes the
 *   coordinator's; so on REQUEST_TIMED_OUT (appended, the HW did not pass it in time: OperationTimeout
 *   fails only the answer), its answers carrying the error; when the append failed the state stays
 *   what it was (CoordinatorRuntime reverts to its snapshot) and only the answers go out, carrying the
 *   error mapped by handleOperationException.
 * - *One write at a time per partition*: operations on a partition with a write in flight wait (Kafka
 *   runs them on the uncommitted state and holds their answers behind the same HW); so does an
 *   OffsetFetch with requireStable (a write operation in Kafka, read at the uncommitted end), while
 *   one without reads the last written state at once (Kafka reads at the last committed offset).
 */
import { Out } from '../actors/out';
import type { Effect, RpcEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import type { ProducedBatch } from '../log/recordBatch';
import { coordinatorPartitionFor } from '../producer/partitioner';
import type { KafkaError } from '../protocol/errors';
import type { ConsumerGroup, StoredGroup } from './classicGroup';
import type { GroupCoordinatorContext } from './groupCoordinator.machine';

/** offsets.commit.timeout.ms (GroupCoordinatorConfig.OFFSET_COMMIT_TIMEOUT_MS_DEFAULT): how long a write waits for the HW. */
export const OFFSET_COMMIT_TIMEOUT_MS = 5000;

/** A group event the hosted coordinator could not run yet (a write of its partition was in flight). */
export interface QueuedGroupEvent {
  readonly type: string;
  readonly event: unknown;
}

/** A write of one operation, waiting for the host's answer. */
export interface PendingOffsetsWrite {
  readonly id: number;
  readonly partition: number;
  readonly coordinatorEpoch: number;
  /** The groups of the partition as the operation left them: the coordinator's once the write succeeds. */
  readonly groups: Readonly<Record<string, ConsumerGroup>>;
  /** Everything the operation emitted: out when the write succeeds; only its answers (with the error) when it fails. */
  readonly deferred: readonly Effect[];
}

/** One `__consumer_offsets` record batch as a load reads it from the replica. */
export interface OffsetsBatch {
  readonly producerId: number;
  readonly transactional: boolean;
  /** COMMIT / ABORT for a transaction marker, null for records. */
  readonly control: 'COMMIT' | 'ABORT' | null;
  readonly records: readonly { readonly key: string; readonly value: string }[];
}

export interface OffsetsHostedState {
  readonly host: ActorId;
  /** The partitions this broker leads: their coordinator epoch (the leader epoch) and, while loading, the batches read. */
  readonly owned: Readonly<Record<number, { readonly coordinatorEpoch: number; readonly loading: readonly OffsetsBatch[] | null }>>;
  readonly writes: Readonly<Record<number, PendingOffsetsWrite>>;
  readonly queued: Readonly<Record<number, readonly QueuedGroupEvent[]>>;
  readonly nextWriteId: number;
  /** Scratch: the batches the running handler wrote (collected by writeOffsets). */
  readonly appending: readonly ProducedBatch[];
}

export function emptyHostedState(host: ActorId): OffsetsHostedState {
  return { host, owned: {}, writes: {}, queued: {}, nextWriteId: 0, appending: [] };
}

/**
 * CoordinatorOperationExceptionHelper.handleOperationException (GroupCoordinatorService's write
 * operations, e.g. commitOffsets, commitTransactionalOffsets): the partition cannot take the write
 * now → COORDINATOR_NOT_AVAILABLE (the client retries); this broker no longer leads it →
 * NOT_COORDINATOR (the client looks the coordinator up again); NETWORK_EXCEPTION (a verification) →
 * COORDINATOR_LOAD_IN_PROGRESS; anything else as it is.
 */
export function groupCoordinatorErrorFor(error: KafkaError): KafkaError {
  switch (error) {
    case 'UNKNOWN_TOPIC_OR_PARTITION':
    case 'NOT_ENOUGH_REPLICAS':
    case 'REQUEST_TIMED_OUT':
      return 'COORDINATOR_NOT_AVAILABLE';
    case 'NOT_LEADER_OR_FOLLOWER':
    case 'KAFKA_STORAGE_ERROR':
      return 'NOT_COORDINATOR';
    case 'NETWORK_EXCEPTION':
      return 'COORDINATOR_LOAD_IN_PROGRESS';
    // MESSAGE_TOO_LARGE / RECORD_LIST_TOO_LARGE → UNKNOWN_SERVER_ERROR cannot occur: the model has no size limits
    default:
      return error;
  }
}

export const partitionOfGroup = (ctx: Pick<GroupCoordinatorContext, 'meta'>, groupId: string) =>
  coordinatorPartitionFor(groupId, ctx.meta.consumerOffsetsPartitions);

const hostedOf = (ctx: GroupCoordinatorContext) => ctx.hosted as OffsetsHostedState;

const EMPTY_STORED: StoredGroup = { generationId: 0, leader: null, members: [] };

/**
 * The GroupMetadata record of a group (GroupCoordinatorRecordHelpers.newGroupMetadataRecord): key the
 * group id, value its stored generation (and the model's member-id counter, standing in for Kafka's
 * random member ids so a new coordinator hands out no id twice).
 */
export function groupMetadataRecord(g: ConsumerGroup): { key: string; value: string } {
  return { key: g.groupId, value: JSON.stringify({ ...g.stored, nextMemberSeq: g.nextMemberSeq }) };
}

/** Groups of `partition` whose stored generation the operation changed: each needs a GroupMetadata record. */
function metadataRecords(ctx: GroupCoordinatorContext, next: GroupCoordinatorContext, partition: number) {
  const out: { key: string; value: string }[] = [];
  for (const g of Object.values(next.groups)) {
    if (partitionOfGroup(ctx, g.groupId) !== partition) continue;
    const before = ctx.groups[g.groupId];
    const was = JSON.stringify(before ? before.stored : EMPTY_STORED);
    if (JSON.stringify(g.stored) !== was) out.push(groupMetadataRecord(g));
  }
  return out;
}

/**
 * Runs one operation of a group (of `__consumer_offsets` partition `partition`) on the hosted coordinator: refused (not led here, loading), queued
 * (a write of the partition in flight), or run with its effects held until its write, if it wrote.
 * `isRequest`: refusals are answered; a timer or internal event of a group not led here is dropped.
 */
export function runGroupOperation<E>(
  ctx: GroupCoordinatorContext,
  type: string,
  ev: E,
  partition: number | null,
  fn: (ctx: GroupCoordinatorContext, ev: E, out: Out) => GroupCoordinatorContext,
  out: Out,
  refuse: ((error: KafkaError) => void) | null,
): GroupCoordinatorContext {
  const h = hostedOf(ctx);
  if (partition === null) return fn(ctx, ev, out);
  const owned = h.owned[partition];
  if (!owned || owned.loading) {
    refuse?.(owned ? 'COORDINATOR_LOAD_IN_PROGRESS' : 'NOT_COORDINATOR');
    return ctx;
  }
  if (h.writes[partition]) {
    return { ...ctx, hosted: { ...h, queued: { ...h.queued, [partition]: [...(h.queued[partition] ?? []), { type, event: ev }] } } };
  }
  const inner = new Out();
  const next = fn({ ...ctx, hosted: { ...h, appending: [] } }, ev, inner);
  const nh = hostedOf(next);
  const metadata = metadataRecords(ctx, next, partition);
  const batches: ProducedBatch[] = [...nh.appending];
  if (metadata.length > 0)
    batches.push({
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      isTransactional: false,
      records: metadata.map((r) => ({ ...r, headers: {}, timestamp: (ev as { now?: number }).now ?? 0 })),
    });
  if (batches.length === 0) {
    out.effects.push(...inner.effects);
    return { ...next, hosted: { ...nh, appending: [] } };
  }
  const id = nh.nextWriteId;
  out.call(h.host, 'appendConsumerOffsets', { writeId: id, partition, batches, timeoutMs: OFFSET_COMMIT_TIMEOUT_MS });
  const groups = Object.fromEntries(Object.entries(next.groups).filter(([g]) => partitionOfGroup(ctx, g) === partition));
  const write: PendingOffsetsWrite = { id, partition, coordinatorEpoch: owned.coordinatorEpoch, groups, deferred: inner.effects };
  return {
    ...next,
    groups: ctx.groups,
    hosted: { ...nh, appending: [], nextWriteId: id + 1, writes: { ...nh.writes, [partition]: write } },
  };
}

const isAnswer = (e: Effect): e is Extract<Effect, { type: 'send' }> => e.type === 'send' && e.inReplyTo !== undefined;

/** The answers among held effects, carrying `error` instead of what the operation would have answered. */
function failedAnswers(deferred: readonly Effect[], error: KafkaError): Effect[] {
  return deferred.flatMap((e) => (isAnswer(e) ? [{ ...e, payload: { ...e.payload, error } }] : []));
}

/**
 * The host answered a write (CoordinatorRuntime: the HW passed its records, or the append or the
 * wait failed). NONE: the operation's state and effects take hold. REQUEST_TIMED_OUT (appended, the
 * HW did not pass it within offsets.commit.timeout.ms): the state and effects take hold too, and its
 * answers carry the mapped error (COORDINATOR_NOT_AVAILABLE). Another error (not appended, or the
 * partition unloaded): the state stays as it was, the answers carry the mapped error. Then the
 * partition's queued operations run.
 */
export function onOffsetsWriteAnswered(
  ctx: GroupCoordinatorContext,
  writeId: number,
  appendError: KafkaError | 'NONE',
  out: Out,
  rerun: (ctx: GroupCoordinatorContext, queued: QueuedGroupEvent, out: Out) => GroupCoordinatorContext,
): GroupCoordinatorContext {
  const h = hostedOf(ctx);
  const w = Object.values(h.writes).find((x) => x.id === writeId);
  if (!w) return ctx;
  const { [w.partition]: _done, ...writes } = h.writes;
  const owned = h.owned[w.partition];
  // led again under a new epoch since: NOT_COORDINATOR (the runtime failed it when it unloaded)
  const error: KafkaError | 'NONE' =
    appendError !== 'NONE'
      ? groupCoordinatorErrorFor(appendError)
      : owned?.coordinatorEpoch === w.coordinatorEpoch
        ? 'NONE'
        : 'NOT_COORDINATOR';
  let next: GroupCoordinatorContext = { ...ctx, hosted: { ...h, writes } };
  // the wait for the HW timed out, the records still in this coordinator's log (CoordinatorRuntime's
  // OperationTimeout only fails the answer; state is reverted only when the append itself fails)
  const appendedAndKept = appendError === 'REQUEST_TIMED_OUT' && owned?.coordinatorEpoch === w.coordinatorEpoch;
  if (error === 'NONE') {
    next = { ...next, groups: { ...next.groups, ...w.groups } };
    out.effects.push(...w.deferred);
  } else if (appendedAndKept) {
    out.fact({
      kind: 'note',
      actor: ctx.id,
      text: `write to __consumer_offsets-${w.partition} timed out waiting for the high watermark → ${error}; the clients hear it failed, but its records stay in this broker's log and this coordinator keeps what it wrote (until it unloads the partition, if another broker leads it now)`,
    });
    next = { ...next, groups: { ...next.groups, ...w.groups } };
    out.effects.push(...w.deferred.map((e) => (isAnswer(e) ? { ...e, payload: { ...e.payload, error } } : e)));
  } else {
    out.fact({
      kind: 'note',
      actor: ctx.id,
      text: `write to __consumer_offsets-${w.partition} failed: ${appendError === 'NONE' ? 'the coordinator epoch changed' : appendError} → ${error}; the groups stay as they were`,
    });
    out.effects.push(...failedAnswers(w.deferred, error));
  }
  return drainQueue(next, w.partition, out, rerun);
}

/** Runs the operations that waited for a partition's write, until one of them writes again. */
function drainQueue(
  ctx: GroupCoordinatorContext,
  partition: number,
  out: Out,
  rerun: (ctx: GroupCoordinatorContext, queued: QueuedGroupEvent, out: Out) => GroupCoordinatorContext,
): GroupCoordinatorContext {
  let next = ctx;
  for (;;) {
    const h = hostedOf(next);
    const queue = h.queued[partition] ?? [];
    if (queue.length === 0 || h.writes[partition]) return next;
    const [first, ...rest] = queue as [QueuedGroupEvent, ...QueuedGroupEvent[]];
    next = rerun({ ...next, hosted: { ...h, queued: { ...h.queued, [partition]: rest } } }, first, out);
  }
}

/** Refuses a request event (an RPC with a payload) with a coordinator error; null for timers and internal events. */
export function refusalFor(ev: unknown, out: Out, refuse: (ev: RpcEvent, error: KafkaError, out: Out) => void) {
  const e = ev as RpcEvent;
  return e.envelopeId !== undefined && e.from !== undefined ? (error: KafkaError) => refuse(e, error, out) : null;
}
