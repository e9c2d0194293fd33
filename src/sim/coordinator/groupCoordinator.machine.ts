/**
 * The group coordinator (classic protocol) and `__consumer_offsets`.
 *
 * Membership (classicGroup.ts): JoinGroup / SyncGroup with generations, heartbeats, session and
 * rebalance timeouts, and the GroupMetadata record a new coordinator loads after a failover.
 *
 * Offsets: OffsetCommit writes committed offsets; TxnOffsetCommit writes them as part of a
 * transaction, *pending* until the transaction's marker reaches this partition: COMMIT makes them
 * the group's committed offsets, ABORT drops them. OffsetFetch (requireStable, as the Java consumer
 * sends it) answers UNSTABLE_OFFSET_COMMIT while a partition has pending offsets. A stale
 * generation gets ILLEGAL_GENERATION (KIP-447 for TxnOffsetCommit). A TxnOffsetCommit is verified
 * with the transaction coordinator before it is written (KIP-890), as a transactional Produce is,
 * and through the same queue: its broker's AddPartitionsToTxnManager (txnOffsetVerification.ts).
 */
import { setup } from 'xstate';
import type { Mutable } from '../actors/draft';
import type { Lifecycle, Rpc, Timer } from '../actors/events';
import { handle, type Out, type PendingRequest, pendingRequest } from '../actors/out';
import { EMPTY_VERIFICATION_QUEUE, type VerificationQueue } from '../broker/verificationQueue';
import { type ClusterMetadata, CONSUMER_OFFSETS_TOPIC } from '../cluster/metadata';
import type { DisconnectedEvent, RpcEvent, TimerEvent } from '../kernel/effects';
import type { ActorId, RpcName } from '../kernel/envelope';
import { extend } from '../kernel/extend';
import { appendMarker, appendProducerBatch, type PartitionLog } from '../log/partitionLog';
import { coordinatorPartitionFor } from '../producer/partitioner';
import type { KafkaError } from '../protocol/errors';
import type {
  AddPartitionsToTxnBatchResponse,
  CommittedOffset,
  HeartbeatRequest,
  JoinGroupRequest,
  LeaveGroupRequest,
  OffsetCommitRequest,
  OffsetFetchRequest,
  SyncGroupRequest,
  TopicPartition,
  TxnOffsetCommitRequest,
  WriteTxnMarkersRequest,
} from '../protocol/messages';
import { keyOf, parseTopicPartition, topicPartitionKey } from '../protocol/topicPartition';
import { markerAppendFact } from '../trace/facts';
import {
  type ConsumerGroup,
  emptyGroup,
  type GroupCoordinatorConfig,
  heartbeat,
  isPendingMember,
  join,
  keepSessionOnCommit,
  leavePending,
  loadGroup,
  onJoinTimer,
  onLoaded,
  onSessionTimer,
  onSyncTimer,
  removeMember,
  sync,
  validateMember,
} from './classicGroup';
import { addPendingTxnOffsets, commitPlainOffsets, completePendingTxnOffsets, offsetRecordValue, offsetsOf } from './groupOffsets';
import { offsetCommitGroupError, txnOffsetCommitGroupError } from './offsetCommitValidation';
import { notInactive, offsetsToReset, type ResetOffsetsEvent, resetNote, resettable } from './offsetReset';
import type { OffsetsHostedState } from './offsetsHosted';
import { onVerificationAnswered, startVerification, type VerificationAnswer } from './txnOffsetVerification';

export type { ConsumerGroup, GroupCoordinatorConfig, GroupMember, GroupState, PendingTxnOffsets } from './classicGroup';
export { DEFAULT_GROUP_COORDINATOR_CONFIG, rangeAssign } from './classicGroup';
export { offsetCommitGroupError, txnOffsetCommitGroupError } from './offsetCommitValidation';

export interface GroupCoordinatorContext {
  readonly id: ActorId;
  readonly meta: ClusterMetadata;
  readonly config: GroupCoordinatorConfig;
  readonly groups: Readonly<Record<string, ConsumerGroup>>;
  readonly logs: Readonly<Record<string, PartitionLog>>;
  /** TxnOffsetCommits waiting for the transaction coordinator to verify (v1) or add (v2) the offsets partition. */
  readonly verifying: readonly {
    readonly correlationId: number;
    readonly request: PendingRequest;
    readonly commit: TxnOffsetCommitRequest;
  }[];
  readonly nextCorrelationId: number;
  /** The standalone coordinator's AddPartitionsToTxnManager queue (a hosted one uses its broker's): txnOffsetVerification.ts. */
  readonly verificationQueue: VerificationQueue;
  /** Present only on a coordinator hosted by a broker (offsets.topic.replication.factor > 1): offsetsWrites.ts. */
  readonly hosted?: OffsetsHostedState;
}

export interface GroupCoordinatorInput {
  readonly id: ActorId;
  readonly meta: ClusterMetadata;
  readonly config: GroupCoordinatorConfig;
  readonly logs: readonly PartitionLog[];
}

export type Draft = Mutable<GroupCoordinatorContext>;

export function offsetsLogKey(d: Pick<GroupCoordinatorContext, 'meta'>, groupId: string): string {
  return topicPartitionKey(CONSUMER_OFFSETS_TOPIC, coordinatorPartitionFor(groupId, d.meta.consumerOffsetsPartitions));
}

export function putGroup(d: Draft, g: ConsumerGroup): void {
  d.groups = { ...d.groups, [g.groupId]: g };
}

/** The brokers' group.min.session.timeout.ms and group.max.session.timeout.ms (defaults; not configurable in the model). */
export const GROUP_MIN_SESSION_TIMEOUT_MS = 6000;
export const GROUP_MAX_SESSION_TIMEOUT_MS = 1800000;

/** A JoinGroup refused before any group logic: the member keeps its id, nothing in the coordinator changes. */
function refuseJoin(
  ctx: GroupCoordinatorContext,
  ev: RpcEvent<JoinGroupRequest>,
  error: 'INVALID_SESSION_TIMEOUT' | 'UNKNOWN_MEMBER_ID',
  out: Out,
): GroupCoordinatorContext {
  out.reply(pendingRequest(ev), 'JoinGroupResponse', { error, generationId: -1, memberId: ev.payload.memberId, leader: '' });
  return ctx;
}

export const onJoinGroup = (ctx: GroupCoordinatorContext, ev: RpcEvent<JoinGroupRequest>, out: Out): GroupCoordinatorContext => {
  const req = ev.payload;
  // GroupCoordinatorService.joinGroup: a session timeout outside the brokers' range is refused
  // before any group logic runs (the group and its members are untouched)
  if (req.sessionTimeoutMs < GROUP_MIN_SESSION_TIMEOUT_MS || req.sessionTimeoutMs > GROUP_MAX_SESSION_TIMEOUT_MS)
    return refuseJoin(ctx, ev, 'INVALID_SESSION_TIMEOUT', out);
  // classicGroupJoinToClassicGroup: only a member without an id creates the group
  // (getOrMaybeCreateClassicGroup(groupId, isUnknownMember)); one with an id gets UNKNOWN_MEMBER_ID
  // (GroupIdNotFoundException) with its own id, and nothing is created or written
  if (!ctx.groups[req.groupId] && req.memberId !== '') return refuseJoin(ctx, ev, 'UNKNOWN_MEMBER_ID', out);
  const d: Draft = { ...ctx };
  const g = d.groups[req.groupId] ?? emptyGroup(req.groupId);
  // every client of the model sends JoinGroup v9: a new dynamic member is answered MEMBER_ID_REQUIRED
  // first (JoinGroupRequest.requiresKnownMemberId: v4+)
  const request = { ...req, rebalanceTimeoutMs: req.rebalanceTimeoutMs ?? d.config.rebalanceTimeoutMs, requiresKnownMemberId: true };
  putGroup(d, join(d, g, request, pendingRequest(ev), ev.from, ev.now, out));
  return d;
};

export const onJoinPhaseCheck = (
  ctx: GroupCoordinatorContext,
  ev: TimerEvent<{ groupId: string; initial: boolean; delay?: number; remaining?: number }>,
  out: Out,
): GroupCoordinatorContext => {
  const g = ctx.groups[ev.data.groupId];
  if (!g) return ctx;
  const d: Draft = { ...ctx };
  putGroup(d, onJoinTimer(d, g, ev.data, ev.now, out));
  return d;
};

export const onSyncExpired = (
  ctx: GroupCoordinatorContext,
  ev: TimerEvent<{ groupId: string; generationId: number }>,
  out: Out,
): GroupCoordinatorContext => {
  const g = ctx.groups[ev.data.groupId];
  if (!g) return ctx;
  const d: Draft = { ...ctx };
  putGroup(d, onSyncTimer(d, g, ev.data.generationId, ev.now, out));
  return d;
};

export const onSyncGroup = (ctx: GroupCoordinatorContext, ev: RpcEvent<SyncGroupRequest>, out: Out): GroupCoordinatorContext => {
  const req = ev.payload;
  const g = ctx.groups[req.groupId];
  if (!g) {
    out.reply(pendingRequest(ev), 'SyncGroupResponse', { error: 'UNKNOWN_MEMBER_ID', assignment: [] });
    return ctx;
  }
  const d: Draft = { ...ctx };
  putGroup(d, sync(d, g, req.memberId, req.generationId, pendingRequest(ev), ev.now, out, req.groupInstanceId));
  return d;
};

export const onHeartbeat = (ctx: GroupCoordinatorContext, ev: RpcEvent<HeartbeatRequest>, out: Out): GroupCoordinatorContext => {
  const req = ev.payload;
  const { group, error } = heartbeat(ctx.groups[req.groupId], req.memberId, req.generationId, ev.now, out, req.groupInstanceId);
  out.reply(pendingRequest(ev), 'HeartbeatResponse', { error }, { background: true });
  if (!group || group === ctx.groups[req.groupId]) return ctx;
  const d: Draft = { ...ctx };
  putGroup(d, group);
  return d;
};

export const onSessionExpired = (
  ctx: GroupCoordinatorContext,
  ev: TimerEvent<{ groupId: string; memberId: string }>,
  out: Out,
): GroupCoordinatorContext => {
  const g = ctx.groups[ev.data.groupId];
  if (!g || (!g.members[ev.data.memberId] && !isPendingMember(g, ev.data.memberId))) return ctx;
  const d: Draft = { ...ctx };
  putGroup(d, onSessionTimer(d, g, ev.data.memberId, ev.now, out));
  return d;
};

export const onLeaveGroup = (ctx: GroupCoordinatorContext, ev: RpcEvent<LeaveGroupRequest>, out: Out): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  const { groupId, memberId, groupInstanceId } = ev.payload;
  const g = d.groups[groupId];
  // a pending member (MEMBER_ID_REQUIRED answered, not joined yet) is checked before validateMember
  const pending = g !== undefined && isPendingMember(g, memberId);
  // ClassicGroup.validateMember(memberId, groupInstanceId, "leave-group"): a replaced static
  // member's id is FENCED_INSTANCE_ID
  const error = pending ? null : validateMember(g, memberId, groupInstanceId);
  if (g && pending) putGroup(d, leavePending(d, g, memberId, ev.now, out));
  else if (g && !error) putGroup(d, removeMember(d, g, memberId, `${memberId} left the group`, ev.now, out, true));
  // classicGroupLeaveToClassicGroup answers per member: one it does not know (validateMember), or any
  // of a group it does not know (GroupCoordinatorService.leaveGroup), is UNKNOWN_MEMBER_ID in its entry
  out.reply(pendingRequest(ev), 'LeaveGroupResponse', {
    error: 'NONE',
    members: [{ memberId, error: error ?? 'NONE' }],
  });
  return d;
};

/** Writes offset commit records to the group's `__consumer_offsets` partition. */
function writeOffsets(
  d: Draft,
  groupId: string,
  offsets: readonly CommittedOffset[],
  producer: { producerId: number; producerEpoch: number } | null,
  now: number,
): KafkaError | null {
  const key = offsetsLogKey(d, groupId);
  const batch = {
    producerId: producer?.producerId ?? -1,
    producerEpoch: producer?.producerEpoch ?? -1,
    baseSequence: -1,
    isTransactional: producer !== null,
    records: offsets.map((o) => ({
      key: `${groupId}/${keyOf(o)}`,
      value: offsetRecordValue(o),
      headers: {},
      timestamp: now,
    })),
  };
  // hosted: the batch goes to the host broker's leader replica once the handler is done (offsetsHosted.ts)
  if (d.hosted) {
    d.hosted = { ...d.hosted, appending: [...d.hosted.appending, batch] };
    return null;
  }
  const log = d.logs[key];
  if (!log) return null;
  const { log: next, outcome } = appendProducerBatch(log, batch, now);
  if (outcome.kind === 'rejected') return outcome.error;
  d.logs = { ...d.logs, [key]: next };
  return null;
}

export const onOffsetCommit = (ctx: GroupCoordinatorContext, ev: RpcEvent<OffsetCommitRequest>, out: Out): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  // members may commit while the group prepares a rebalance (before they rejoin), not while it
  // completes one; a consumer that assign()s commits without a generation (offsetCommitValidation.ts)
  let error: KafkaError | null = offsetCommitGroupError(d.groups[req.groupId], req);
  // an unknown group asked without a generation is created Empty (a "simple" group)
  let g = d.groups[req.groupId] ?? emptyGroup(req.groupId);
  if (!error && g.state !== 'Empty') {
    // a valid commit keeps the member's session, as a heartbeat does (Stable, PreparingRebalance)
    g = keepSessionOnCommit(g, req.memberId, ev.now, out);
    putGroup(d, g);
  }
  if (!error) error = writeOffsets(d, req.groupId, req.offsets, null, ev.now);
  if (!error) {
    const { offsets, epochs } = offsetsOf(req.offsets);
    g = commitPlainOffsets(g, offsets, epochs);
    putGroup(d, g);
    out.fact({
      kind: 'offsetsCommitted',
      groupId: req.groupId,
      generationId: req.generationId,
      offsets: req.offsets,
      transactional: false,
    });
  }
  out.reply(pendingRequest(ev), 'OffsetCommitResponse', { error: error ?? 'NONE' });
  return d;
};

/**
 * An operator's `kafka-consumer-groups.sh --reset-offsets --execute` (coordinator/offsetReset.ts):
 * refused unless the group is inactive; else the offsets the tool prepares are committed as its
 * OffsetCommit (generation −1, no member) is: written to `__consumer_offsets`, the group's committed
 * offsets. What the tool printed is a note either way.
 */
export const onResetOffsets = (
  ctx: GroupCoordinatorContext,
  ev: ResetOffsetsEvent & { now: number },
  out: Out,
): GroupCoordinatorContext => {
  const printed = (text: string) => out.fact({ kind: 'note', actor: ctx.id, text: resetNote(ev, { printed: text }) });
  const existing = ctx.groups[ev.groupId];
  // a group the coordinator does not know describes as Dead: the tool resets it (created Empty)
  if (existing && !resettable(existing.state)) {
    printed(notInactive(ev.groupId, existing.state));
    return ctx;
  }
  const g = existing ?? emptyGroup(ev.groupId);
  const prepared = offsetsToReset(ev, ev.bounds ?? {}, g.committed);
  if (!prepared.ok) {
    printed(prepared.why);
    return ctx;
  }
  const d: Draft = { ...ctx };
  const error = writeOffsets(d, ev.groupId, prepared.offsets, null, ev.now);
  if (error) {
    printed(`Error: the OffsetCommit failed with ${error}`);
    return ctx;
  }
  putGroup(d, commitPlainOffsets(g, Object.fromEntries(prepared.offsets.map((o) => [keyOf(o), o.offset]))));
  out.fact({
    kind: 'offsetsCommitted',
    groupId: ev.groupId,
    generationId: -1,
    offsets: prepared.offsets,
    transactional: false,
    operatorReset: true,
  });
  out.fact({
    kind: 'note',
    actor: ctx.id,
    text: resetNote(ev, { reset: prepared.offsets.map((o) => `${keyOf(o)}=${o.offset}`).join(', ') }),
  });
  return d;
};

/** A reset while the coordinator loads its partition: the tool's DescribeGroups gets COORDINATOR_LOAD_IN_PROGRESS (the model does not retry it). */
const onResetWhileLoading = (ctx: GroupCoordinatorContext, ev: ResetOffsetsEvent, out: Out): GroupCoordinatorContext => {
  out.fact({
    kind: 'note',
    actor: ctx.id,
    text: resetNote(ev, { printed: 'Error: COORDINATOR_LOAD_IN_PROGRESS' }),
  });
  return ctx;
};

/**
 * The write operation of a TxnOffsetCommit (GroupCoordinatorShard.commitTransactionalOffset), run
 * once its verification is done: the group checks as the group is *now*, then the pending offsets.
 */
function commitTxnOffsets(d: Draft, req: TxnOffsetCommitRequest, now: number): KafkaError | null {
  return txnOffsetCommitGroupError(d.groups[req.groupId], req) ?? writeTxnOffsets(d, req, now);
}

function writeTxnOffsets(d: Draft, req: TxnOffsetCommitRequest, now: number): KafkaError | null {
  const g = d.groups[req.groupId] ?? emptyGroup(req.groupId);
  const error = writeOffsets(d, req.groupId, req.offsets, { producerId: req.producerId, producerEpoch: req.producerEpoch }, now);
  if (error) return error;
  const { offsets, epochs } = offsetsOf(req.offsets);
  putGroup(d, addPendingTxnOffsets(g, req.producerId, offsets, epochs));
  return null;
}

/**
 * Whether a TxnOffsetCommit must first be verified with the transaction coordinator
 * (CoordinatorRuntime.scheduleTransactionalWriteOperation → CoordinatorPartitionWriter
 * .maybeStartTransactionVerification → ReplicaManager.maybeStartTransactionVerificationForPartition):
 * always under protocol v2 (which adds the partition), under v1 only with
 * transaction.partition.verification.enable; never when the offsets partition already holds an
 * ongoing transaction of this producer epoch (UnifiedLog.hasOngoingTransaction).
 */
export function needsTxnVerification(config: GroupCoordinatorConfig, log: PartitionLog | undefined, req: TxnOffsetCommitRequest): boolean {
  if (config.transactionVersion === 1 && !config.verification) return false;
  const entry = log?.producers.get(req.producerId);
  return !(entry !== undefined && entry.currentTxnFirstOffset !== null && entry.producerEpoch === req.producerEpoch);
}

/**
 * What a TxnOffsetCommit is answered when its verification failed: AddPartitionsToTxnManager maps
 * PRODUCER_FENCED to INVALID_PRODUCER_EPOCH and keeps TRANSACTION_ABORTABLE for TxnOffsetCommit v4+
 * (the 4.x client's; older versions got INVALID_TXN_STATE); GroupCoordinatorService's
 * handleOperationException turns NETWORK_EXCEPTION (the coordinator unreachable) into
 * COORDINATOR_LOAD_IN_PROGRESS so that the client retries, and NOT_LEADER_OR_FOLLOWER (the broker
 * no longer leads the offsets partition) into NOT_COORDINATOR.
 */
export function txnOffsetCommitVerificationError(error: KafkaError): KafkaError {
  switch (error) {
    case 'PRODUCER_FENCED':
    case 'INVALID_PRODUCER_EPOCH':
      return 'INVALID_PRODUCER_EPOCH';
    case 'NETWORK_EXCEPTION':
    case 'REQUEST_TIMED_OUT':
      return 'COORDINATOR_LOAD_IN_PROGRESS';
    // the host no longer leads the offsets partition (Partition.maybeStartTransactionVerification)
    case 'NOT_LEADER_OR_FOLLOWER':
      return 'NOT_COORDINATOR';
    default:
      return error;
  }
}

export const onTxnOffsetCommit = (
  ctx: GroupCoordinatorContext,
  ev: RpcEvent<TxnOffsetCommitRequest>,
  out: Out,
): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  // CoordinatorRuntime.scheduleTransactionalWriteOperation: the verification first, and the write
  // operation — the group checks included — once it is done (the group may have moved on meanwhile)
  if (needsTxnVerification(d.config, d.logs[offsetsLogKey(d, req.groupId)], req)) {
    // v1: is the offsets partition in this transaction (AddOffsetsToTxn)? v2: add it on the client's
    // behalf. Through the AddPartitionsToTxnManager of the broker the coordinator runs on
    const correlationId = d.nextCorrelationId;
    d.nextCorrelationId += 1;
    d.verifying = [...d.verifying, { correlationId, request: pendingRequest(ev), commit: req }];
    const partition = { topic: CONSUMER_OFFSETS_TOPIC, partition: coordinatorPartitionFor(req.groupId, d.meta.consumerOffsetsPartitions) };
    const txn = { transactionalId: req.transactionalId, producerId: req.producerId, producerEpoch: req.producerEpoch };
    const verifyOnly = d.config.transactionVersion === 1;
    startVerification(d, { ...txn, verifyOnly, partitions: [partition] }, correlationId, out, answerVerifiedAt(ev.now));
    return d;
  }
  const error = commitTxnOffsets(d, req, ev.now);
  out.reply(pendingRequest(ev), 'TxnOffsetCommitResponse', { error: error ?? 'NONE' });
  return d;
};

/** A TxnOffsetCommit's verification answered: its write operation runs (on the group as it is now), or it is refused. */
function answerVerified(d: Draft, correlationId: number, verification: KafkaError, now: number, out: Out): void {
  const pending = d.verifying.find((v) => v.correlationId === correlationId);
  if (!pending) return;
  d.verifying = d.verifying.filter((v) => v !== pending);
  let error: KafkaError | null = null;
  if (verification === 'NONE') error = commitTxnOffsets(d, pending.commit, now);
  else {
    error = txnOffsetCommitVerificationError(verification);
    out.fact({
      kind: 'note',
      actor: d.id,
      text: `TxnOffsetCommit of producerId ${pending.commit.producerId} (epoch ${pending.commit.producerEpoch}) for group ${pending.commit.groupId} not written: transaction verification answered ${verification}${verification === 'TRANSACTION_ABORTABLE' ? ' (the offsets partition is not in an ongoing transaction)' : ''}`,
    });
  }
  out.reply(pending.request, 'TxnOffsetCommitResponse', { error: error ?? 'NONE' });
}

const answerVerifiedAt =
  (now: number): VerificationAnswer =>
  (d, id, error, out) =>
    answerVerified(d, id, error, now, out);

/** The standalone coordinator's AddPartitionsToTxn (v4+) is answered: each of its TxnOffsetCommits goes on. */
export const onAddedToTxn = (
  ctx: GroupCoordinatorContext,
  ev: RpcEvent<AddPartitionsToTxnBatchResponse & { correlationId: number }>,
  out: Out,
): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  return onVerificationAnswered(d, ev.payload.correlationId, ev.payload, out, answerVerifiedAt(ev.now)) ? d : ctx;
};

/** The transaction coordinator could not be reached: every verification of the request gets NETWORK_EXCEPTION. */
export const onVerificationLost = (ctx: GroupCoordinatorContext, ev: DisconnectedEvent, out: Out): GroupCoordinatorContext => {
  const correlationId = (ev.payload as { correlationId?: number }).correlationId;
  if (ev.rpc !== 'AddPartitionsToTxn' || typeof correlationId !== 'number') return ctx;
  const d: Draft = { ...ctx };
  return onVerificationAnswered(d, correlationId, null, out, answerVerifiedAt(ev.now)) ? d : ctx;
};

/** A hosted coordinator's verification answered by its broker (in-process: `txnOffsetCommitVerified`). */
export const onTxnOffsetCommitVerified = (
  ctx: GroupCoordinatorContext,
  ev: { now: number; args: { id: number; error: KafkaError } },
  out: Out,
): GroupCoordinatorContext => {
  if (!ctx.verifying.some((v) => v.correlationId === ev.args.id)) return ctx;
  const d: Draft = { ...ctx };
  answerVerified(d, ev.args.id, ev.args.error, ev.now, out);
  return d;
};

export const onOffsetFetch = (ctx: GroupCoordinatorContext, ev: RpcEvent<OffsetFetchRequest>, out: Out): GroupCoordinatorContext => {
  const req = ev.payload;
  const g = ctx.groups[req.groupId];
  const offsets = req.partitions.map((p) => {
    const name = keyOf(p);
    const unstable = req.requireStable && (g?.pending ?? []).some((x) => x.offsets[name] !== undefined);
    // OffsetMetadataManager.fetchOffsets: the offset with its committedLeaderEpoch (−1, left out here, when it has none)
    const epoch = unstable ? undefined : g?.committedEpochs?.[name];
    return {
      ...p,
      offset: unstable ? -1 : (g?.committed[name] ?? -1),
      ...(epoch !== undefined ? { committedLeaderEpoch: epoch } : {}),
      error: (unstable ? 'UNSTABLE_OFFSET_COMMIT' : 'NONE') satisfies KafkaError,
    };
  });
  const anyUnstable = offsets.some((o) => o.error !== 'NONE');
  out.reply(pendingRequest(ev), 'OffsetFetchResponse', { error: anyUnstable ? 'UNSTABLE_OFFSET_COMMIT' : 'NONE', offsets });
  return ctx;
};

/** A marker written to a __consumer_offsets partition: COMMIT materialises each group's pending offsets of the producer, ABORT drops them. */
export function applyMarker(d: Draft, key: string, producerId: number, result: 'COMMIT' | 'ABORT', out: Out): void {
  for (const g of Object.values(d.groups)) {
    if (offsetsLogKey(d, g.groupId) !== key) continue;
    const done = completePendingTxnOffsets(g, producerId, result);
    if (!done) continue;
    const materialised = Object.entries(done.materialised);
    if (materialised.length > 0)
      out.fact({
        kind: 'offsetsCommitted',
        groupId: g.groupId,
        generationId: g.generationId,
        offsets: materialised.map(([name, offset]) => ({ ...parseTopicPartition(name), offset })),
        transactional: true,
      });
    putGroup(d, done.group);
  }
}

const onWriteTxnMarkers = (ctx: GroupCoordinatorContext, ev: RpcEvent<WriteTxnMarkersRequest>, out: Out): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  const results: { producerId: number; partitions: (TopicPartition & { error: KafkaError })[] }[] = [];
  for (const m of ev.payload.markers) {
    const partitions: (TopicPartition & { error: KafkaError })[] = [];
    for (const tp of m.partitions) {
      const key = keyOf(tp);
      const log = d.logs[key];
      if (!log) {
        partitions.push(extend(tp, { error: 'NOT_LEADER_OR_FOLLOWER' as const }));
        continue;
      }
      const r = appendMarker(
        log,
        { producerId: m.producerId, producerEpoch: m.producerEpoch, controlType: m.result, coordinatorEpoch: m.coordinatorEpoch },
        ev.now,
      );
      if (r.outcome.kind === 'rejected') {
        partitions.push(extend(tp, { error: r.outcome.error }));
        continue;
      }
      d.logs = { ...d.logs, [key]: r.log };
      out.fact(markerAppendFact(tp, r.outcome, m));
      applyMarker(d, key, m.producerId, m.result, out);
      partitions.push(extend(tp, { error: 'NONE' as const }));
    }
    results.push({ producerId: m.producerId, partitions });
  }
  out.reply(pendingRequest(ev), 'WriteTxnMarkersResponse', { markers: results });
  return d;
};

/**
 * A request that reaches the coordinator's process before the coordinator has loaded its partition
 * again (its process is back, the restart not yet handled): Kafka's coordinator runtime answers
 * COORDINATOR_LOAD_IN_PROGRESS while it loads, and the client retries.
 */
const onRequestWhileLoading = (ctx: GroupCoordinatorContext, ev: RpcEvent, out: Out): GroupCoordinatorContext => {
  refuseRequest(ev, 'COORDINATOR_LOAD_IN_PROGRESS', out);
  return ctx;
};

/** A group request answered with a coordinator error (the response shape of each RPC). */
export function refuseRequest(ev: RpcEvent, error: KafkaError, out: Out): void {
  const answers: Partial<Record<string, [RpcName, object]>> = {
    JoinGroup: [
      'JoinGroupResponse',
      { error, generationId: -1, memberId: (ev.payload as { memberId?: string }).memberId ?? '', leader: '' },
    ],
    SyncGroup: ['SyncGroupResponse', { error, assignment: [] }],
    // GroupCoordinatorService.heartbeat: "The group is still loading, so blindly respond" (NONE)
    Heartbeat: ['HeartbeatResponse', { error: error === 'COORDINATOR_LOAD_IN_PROGRESS' ? 'NONE' : error }],
    LeaveGroup: ['LeaveGroupResponse', { error }],
    OffsetCommit: ['OffsetCommitResponse', { error }],
    TxnOffsetCommit: ['TxnOffsetCommitResponse', { error }],
    OffsetFetch: ['OffsetFetchResponse', { error, offsets: [] }],
  };
  const answer = answers[ev.type];
  if (answer) out.reply(pendingRequest(ev), answer[0], answer[1], { background: ev.type === 'Heartbeat' });
}

/** The coordinator is back: GroupMetadataManager.onLoaded schedules every loaded member's heartbeat expiry. */
export const onCoordinatorLoaded = (ctx: GroupCoordinatorContext, ev: { now: number }, out: Out): GroupCoordinatorContext => ({
  ...ctx,
  groups: Object.fromEntries(Object.entries(ctx.groups).map(([id, g]) => [id, onLoaded(g, ev.now, out)])),
});

/** Every event the group coordinator handles. */
export type GroupCoordinatorEvent =
  | Rpc<'JoinGroup', JoinGroupRequest>
  | Rpc<'SyncGroup', SyncGroupRequest>
  | Rpc<'Heartbeat', HeartbeatRequest>
  | Rpc<'LeaveGroup', LeaveGroupRequest>
  | Rpc<'OffsetCommit', OffsetCommitRequest>
  | Rpc<'TxnOffsetCommit', TxnOffsetCommitRequest>
  | Rpc<'AddPartitionsToTxnResponse'>
  | Rpc<'OffsetFetch', OffsetFetchRequest>
  | Rpc<'WriteTxnMarkers', WriteTxnMarkersRequest>
  | DisconnectedEvent
  | Timer<'joinPhaseCheck' | 'syncExpired' | 'sessionExpired'>
  | (ResetOffsetsEvent & { now: number })
  | Lifecycle;

export const groupCoordinatorMachine = setup({
  types: {} as {
    context: GroupCoordinatorContext;
    input: GroupCoordinatorInput;
    events: GroupCoordinatorEvent;
  },
}).createMachine({
  id: 'groupCoordinator',
  context: ({ input }) => ({
    id: input.id,
    meta: input.meta,
    config: input.config,
    groups: {},
    logs: Object.fromEntries(input.logs.map((l) => [keyOf(l), l])),
    verifying: [],
    nextCorrelationId: 0,
    verificationQueue: EMPTY_VERIFICATION_QUEUE,
  }),
  initial: 'serving',
  states: {
    serving: {
      on: {
        JoinGroup: { actions: handle(onJoinGroup) },
        SyncGroup: { actions: handle(onSyncGroup) },
        Heartbeat: { actions: handle(onHeartbeat) },
        LeaveGroup: { actions: handle(onLeaveGroup) },
        joinPhaseCheck: { actions: handle(onJoinPhaseCheck) },
        syncExpired: { actions: handle(onSyncExpired) },
        sessionExpired: { actions: handle(onSessionExpired) },
        OffsetCommit: { actions: handle(onOffsetCommit) },
        TxnOffsetCommit: { actions: handle(onTxnOffsetCommit) },
        AddPartitionsToTxnResponse: { actions: handle(onAddedToTxn) },
        disconnected: { actions: handle(onVerificationLost) },
        OffsetFetch: { actions: handle(onOffsetFetch) },
        WriteTxnMarkers: { actions: handle(onWriteTxnMarkers) },
        resetOffsets: { actions: handle(onResetOffsets) },
        crash: 'down',
      },
    },
    down: {
      // committed and pending offsets are in __consumer_offsets (kept as they are); membership goes
      // back to the last GroupMetadata record, as a new coordinator would load it
      entry: handle((ctx: GroupCoordinatorContext) => ({
        ...ctx,
        verifying: [],
        verificationQueue: EMPTY_VERIFICATION_QUEUE,
        groups: Object.fromEntries(Object.entries(ctx.groups).map(([id, g]) => [id, loadGroup(g)])),
      })),
      on: {
        restart: { target: 'serving', actions: handle(onCoordinatorLoaded) },
        // markers are appended by the partition's leader whatever the coordinator is doing
        WriteTxnMarkers: { actions: handle(onWriteTxnMarkers) },
        JoinGroup: { actions: handle(onRequestWhileLoading) },
        SyncGroup: { actions: handle(onRequestWhileLoading) },
        Heartbeat: { actions: handle(onRequestWhileLoading) },
        LeaveGroup: { actions: handle(onRequestWhileLoading) },
        OffsetCommit: { actions: handle(onRequestWhileLoading) },
        TxnOffsetCommit: { actions: handle(onRequestWhileLoading) },
        OffsetFetch: { actions: handle(onRequestWhileLoading) },
        resetOffsets: { actions: handle(onResetWhileLoading) },
      },
    },
  },
});
