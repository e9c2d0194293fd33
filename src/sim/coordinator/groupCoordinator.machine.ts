/**
 * The group coordinator (classic protocol) and `__consumer_offsets`.
 *
 * Membership: JoinGroup / SyncGroup with generations, heartbeats, and session.timeout.ms (a member
 * that stops heartbeating is removed and the group rebalances). Assignment: range, per topic, over
 * members sorted by id (in Kafka the group leader's client computes it; here the coordinator does).
 *
 * Offsets: OffsetCommit writes committed offsets; TxnOffsetCommit writes them as part of a
 * transaction, *pending* until the transaction's marker reaches this partition: COMMIT makes them
 * the group's committed offsets, ABORT drops them. OffsetFetch (requireStable, as the Java consumer
 * sends it) answers UNSTABLE_OFFSET_COMMIT while a partition has pending offsets. A stale
 * generation gets ILLEGAL_GENERATION (KIP-447 for TxnOffsetCommit).
 */
import { setup } from 'xstate';
import { handle, type Out, type PendingRequest, pendingRequest } from '../actors/out';
import { type ClusterMetadata, CONSUMER_OFFSETS_TOPIC } from '../cluster/metadata';
import { BROKER_REQUEST_TIMEOUT_MS } from '../config/clusterConfig';
import type { CallEvent, DisconnectedEvent, RpcEvent, TimerEvent } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { appendMarker, appendProducerBatch, type PartitionLog, partitionName } from '../log/partitionLog';
import { coordinatorPartitionFor } from '../producer/partitioner';
import type { KafkaError } from '../protocol/errors';
import type {
  HeartbeatRequest,
  JoinGroupRequest,
  OffsetCommitRequest,
  OffsetFetchRequest,
  SyncGroupRequest,
  TopicPartition,
  TxnOffsetCommitRequest,
  WriteTxnMarkersRequest,
} from '../protocol/messages';

export type GroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

export interface GroupMember {
  readonly memberId: string;
  readonly clientId: string;
  readonly sessionTimeoutMs: number;
  readonly topics: readonly string[];
  /** Waiting JoinGroup / SyncGroup requests, answered when the phase completes. */
  readonly joinRequest: PendingRequest | null;
  readonly syncRequest: PendingRequest | null;
  readonly assignment: readonly TopicPartition[];
  /** The member is removed if no heartbeat (or join/sync) arrives before this time. */
  readonly sessionDeadline: number;
}

export interface PendingTxnOffsets {
  readonly producerId: number;
  readonly offsets: Readonly<Record<string, number>>;
}

export interface ConsumerGroup {
  readonly groupId: string;
  readonly state: GroupState;
  readonly generationId: number;
  readonly leader: string | null;
  readonly members: Readonly<Record<string, GroupMember>>;
  readonly committed: Readonly<Record<string, number>>;
  /** TxnOffsetCommit offsets waiting for their transaction's marker, per producer id. */
  readonly pending: readonly PendingTxnOffsets[];
  readonly nextMemberSeq: number;
  /** A new group's first join phase stays open until this time (group.initial.rebalance.delay.ms). */
  readonly joinOpenUntil: number;
}

export interface GroupCoordinatorConfig {
  /** group.initial.rebalance.delay.ms: a new group waits this long for more members. */
  readonly initialRebalanceDelayMs: number;
  /** The rebalance timeout (the members' max.poll.interval.ms). */
  readonly rebalanceTimeoutMs: number;
  /** Protocol v2: a TxnOffsetCommit first adds the offsets partition to the transaction itself. */
  readonly transactionVersion: 1 | 2;
}

export const DEFAULT_GROUP_COORDINATOR_CONFIG: GroupCoordinatorConfig = {
  initialRebalanceDelayMs: 3000,
  rebalanceTimeoutMs: 300000,
  transactionVersion: 2,
};

export interface GroupCoordinatorContext {
  readonly id: ActorId;
  readonly meta: ClusterMetadata;
  readonly config: GroupCoordinatorConfig;
  readonly groups: Readonly<Record<string, ConsumerGroup>>;
  readonly logs: Readonly<Record<string, PartitionLog>>;
  /** TxnOffsetCommits waiting for the transaction coordinator to add the offsets partition (protocol v2). */
  readonly verifying: readonly {
    readonly correlationId: number;
    readonly request: PendingRequest;
    readonly commit: TxnOffsetCommitRequest;
  }[];
  readonly nextCorrelationId: number;
}

export interface GroupCoordinatorInput {
  readonly id: ActorId;
  readonly meta: ClusterMetadata;
  readonly config: GroupCoordinatorConfig;
  readonly logs: readonly PartitionLog[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Draft = Mutable<GroupCoordinatorContext>;

function emptyGroup(groupId: string): ConsumerGroup {
  return {
    groupId,
    state: 'Empty',
    generationId: 0,
    leader: null,
    members: {},
    committed: {},
    pending: [],
    nextMemberSeq: 0,
    joinOpenUntil: 0,
  };
}

function offsetsLogKey(d: Draft, groupId: string): string {
  return partitionName(CONSUMER_OFFSETS_TOPIC, coordinatorPartitionFor(groupId, d.meta.consumerOffsetsPartitions));
}

function putGroup(d: Draft, g: ConsumerGroup): void {
  d.groups = { ...d.groups, [g.groupId]: g };
}

/** Range assignment: per topic, members sorted by id take contiguous ranges; the first n%c take one more. */
export function rangeAssign(members: readonly GroupMember[], meta: ClusterMetadata): Record<string, TopicPartition[]> {
  const out: Record<string, TopicPartition[]> = {};
  for (const m of members) out[m.memberId] = [];
  const topics = [...new Set(members.flatMap((m) => m.topics))].sort();
  for (const topic of topics) {
    const subscribed = members.filter((m) => m.topics.includes(topic)).sort((a, b) => (a.memberId < b.memberId ? -1 : 1));
    const n = meta.topics[topic]?.partitions ?? 0;
    const c = subscribed.length;
    if (c === 0) continue;
    let p = 0;
    subscribed.forEach((m, i) => {
      const count = Math.floor(n / c) + (i < n % c ? 1 : 0);
      for (let k = 0; k < count; k++) (out[m.memberId] as TopicPartition[]).push({ topic, partition: p++ });
    });
  }
  return out;
}

/** Pushes a member's session deadline forward (a heartbeat, a join, a sync). */
function renewSession(out: Out, groupId: string, m: GroupMember, now: number): GroupMember {
  const renewed = { ...m, sessionDeadline: now + m.sessionTimeoutMs };
  // periodic: a live member keeps pushing this deadline forward, so it alone does not keep the run going
  out.timer(`session:${groupId}:${m.memberId}`, 'sessionExpired', m.sessionTimeoutMs, { groupId, memberId: m.memberId }, true);
  return renewed;
}

/** While the group waits for a member to rejoin, that member's session expiry is what the run waits for. */
function awaitMissingMembers(g: ConsumerGroup, now: number, out: Out): void {
  for (const m of Object.values(g.members))
    if (m.joinRequest === null)
      out.timer(`session:${g.groupId}:${m.memberId}`, 'sessionExpired', Math.max(0, m.sessionDeadline - now), {
        groupId: g.groupId,
        memberId: m.memberId,
      });
}

/** Moves a group to PreparingRebalance; members learn it from their next heartbeat and rejoin. */
function prepareRebalance(d: Draft, g: ConsumerGroup, reason: string, now: number, out: Out): ConsumerGroup {
  const delay = g.state === 'Empty' ? d.config.initialRebalanceDelayMs : 0;
  const next: ConsumerGroup = { ...g, state: 'PreparingRebalance', joinOpenUntil: now + delay };
  out.timer(`join:${g.groupId}`, 'joinPhaseCheck', delay, { groupId: g.groupId, deadline: delay + d.config.rebalanceTimeoutMs });
  awaitMissingMembers(next, now, out);
  out.fact({ kind: 'note', actor: d.id, text: `group ${g.groupId} is rebalancing: ${reason}` });
  return next;
}

/** The join phase ends when every member has rejoined (or the rebalance timeout removed the others). */
function maybeCompleteJoin(_d: Draft, g: ConsumerGroup, now: number, force: boolean, out: Out): ConsumerGroup {
  if (g.state !== 'PreparingRebalance') return g;
  const all = Object.values(g.members);
  const joined = all.filter((m) => m.joinRequest !== null);
  if (!force && (joined.length < all.length || now < g.joinOpenUntil)) return g;
  if (joined.length === 0) return { ...g, state: 'Empty', members: {}, leader: null };
  const members = Object.fromEntries(joined.map((m) => [m.memberId, m]));
  const generationId = g.generationId + 1;
  const leader = [...joined].sort((a, b) => (a.memberId < b.memberId ? -1 : 1))[0]?.memberId ?? null;
  for (const m of joined)
    if (m.joinRequest)
      out.reply(m.joinRequest, 'JoinGroupResponse', { error: 'NONE', generationId, memberId: m.memberId, leader: leader ?? '' });
  // answering the join reschedules each member's session expiry, as Kafka does
  const cleared = Object.fromEntries(
    Object.entries(members).map(([k, m]) => [k, renewSession(out, g.groupId, { ...m, joinRequest: null }, now)]),
  );
  out.fact({ kind: 'rebalance', groupId: g.groupId, generationId, members: Object.keys(cleared).sort(), reason: 'join phase complete' });
  return { ...g, state: 'CompletingRebalance', generationId, leader, members: cleared };
}

function maybeCompleteSync(d: Draft, g: ConsumerGroup, out: Out): ConsumerGroup {
  if (g.state !== 'CompletingRebalance') return g;
  const all = Object.values(g.members);
  if (all.some((m) => m.syncRequest === null)) return g;
  const assignment = rangeAssign(all, d.meta);
  const members: Record<string, GroupMember> = {};
  for (const m of all) {
    const mine = assignment[m.memberId] ?? [];
    if (m.syncRequest) out.reply(m.syncRequest, 'SyncGroupResponse', { error: 'NONE', assignment: mine });
    members[m.memberId] = { ...m, syncRequest: null, assignment: mine };
  }
  return { ...g, state: 'Stable', members };
}

const onJoinGroup = (ctx: GroupCoordinatorContext, ev: RpcEvent<JoinGroupRequest>, out: Out): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  let g = d.groups[req.groupId] ?? emptyGroup(req.groupId);
  let memberId = req.memberId;
  if (!memberId || !g.members[memberId]) {
    if (memberId && !g.members[memberId] && g.state !== 'Empty') {
      out.reply(pendingRequest(ev), 'JoinGroupResponse', { error: 'UNKNOWN_MEMBER_ID', generationId: -1, memberId: '', leader: '' });
      return d;
    }
    // the coordinator names new members (Kafka: client.id + a UUID; here client id + a counter)
    memberId = `${ev.from.split('.')[0]}-${g.nextMemberSeq}`;
    g = { ...g, nextMemberSeq: g.nextMemberSeq + 1 };
  }
  const existing = g.members[memberId];
  const member = renewSession(
    out,
    g.groupId,
    {
      memberId,
      clientId: ev.from,
      sessionTimeoutMs: req.sessionTimeoutMs,
      topics: req.topics,
      joinRequest: pendingRequest(ev),
      syncRequest: null,
      assignment: existing?.assignment ?? [],
      sessionDeadline: ev.now + req.sessionTimeoutMs,
    },
    ev.now,
  );
  g = { ...g, members: { ...g.members, [memberId]: member } };
  if (g.state !== 'PreparingRebalance') g = prepareRebalance(d, g, existing ? `${memberId} rejoined` : `${memberId} joined`, ev.now, out);
  g = maybeCompleteJoin(d, g, ev.now, false, out);
  putGroup(d, g);
  return d;
};

const onJoinPhaseCheck = (
  ctx: GroupCoordinatorContext,
  ev: TimerEvent<{ groupId: string; deadline: number }>,
  out: Out,
): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  const g = d.groups[ev.data.groupId];
  if (!g || g.state !== 'PreparingRebalance') return ctx;
  if (ev.data.deadline === 0) {
    // the rebalance timeout passed: members that did not rejoin are dropped
    putGroup(d, maybeCompleteJoin(d, g, ev.now, true, out));
    return d;
  }
  const after = maybeCompleteJoin(d, g, ev.now, false, out);
  // otherwise wait for the others until the rebalance timeout; checked again as each rejoins
  if (after === g) out.timer(`join:${g.groupId}`, 'joinPhaseCheck', d.config.rebalanceTimeoutMs, { groupId: g.groupId, deadline: 0 }, true);
  putGroup(d, after);
  return d;
};

function checkMember(g: ConsumerGroup | undefined, memberId: string, generationId: number): KafkaError | null {
  if (!g || !g.members[memberId]) return 'UNKNOWN_MEMBER_ID';
  if (generationId !== g.generationId) return 'ILLEGAL_GENERATION';
  return null;
}

const onSyncGroup = (ctx: GroupCoordinatorContext, ev: RpcEvent<SyncGroupRequest>, out: Out): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  const g = d.groups[req.groupId];
  const error = checkMember(g, req.memberId, req.generationId);
  if (error || !g) {
    out.reply(pendingRequest(ev), 'SyncGroupResponse', { error: error ?? 'UNKNOWN_MEMBER_ID', assignment: [] });
    return d;
  }
  if (g.state === 'PreparingRebalance') {
    out.reply(pendingRequest(ev), 'SyncGroupResponse', { error: 'REBALANCE_IN_PROGRESS', assignment: [] });
    return d;
  }
  if (g.state === 'Stable') {
    out.reply(pendingRequest(ev), 'SyncGroupResponse', { error: 'NONE', assignment: g.members[req.memberId]?.assignment ?? [] });
    return d;
  }
  const member = renewSession(out, g.groupId, { ...(g.members[req.memberId] as GroupMember), syncRequest: pendingRequest(ev) }, ev.now);
  putGroup(d, maybeCompleteSync(d, { ...g, members: { ...g.members, [req.memberId]: member } }, out));
  return d;
};

const onHeartbeat = (ctx: GroupCoordinatorContext, ev: RpcEvent<HeartbeatRequest>, out: Out): GroupCoordinatorContext => {
  const req = ev.payload;
  const g = ctx.groups[req.groupId];
  const member = g?.members[req.memberId];
  let error: KafkaError = checkMember(g, req.memberId, req.generationId) ?? 'NONE';
  if (error === 'NONE' && g?.state === 'PreparingRebalance') error = 'REBALANCE_IN_PROGRESS';
  out.reply(pendingRequest(ev), 'HeartbeatResponse', { error }, { background: true });
  if (!g || !member) return ctx;
  const d: Draft = { ...ctx };
  putGroup(d, { ...g, members: { ...g.members, [member.memberId]: renewSession(out, g.groupId, member, ev.now) } });
  return d;
};

function removeMember(d: Draft, g: ConsumerGroup, memberId: string, reason: string, now: number, out: Out): void {
  const { [memberId]: _gone, ...members } = g.members;
  out.cancel(`session:${g.groupId}:${memberId}`);
  let next: ConsumerGroup = { ...g, members };
  if (Object.keys(members).length === 0) {
    next = { ...next, state: 'Empty', leader: null, generationId: g.generationId + 1 };
    out.fact({ kind: 'rebalance', groupId: g.groupId, generationId: next.generationId, members: [], reason });
  } else {
    next = prepareRebalance(d, next.state === 'Empty' ? { ...next, state: 'Stable' } : next, reason, now, out);
    next = maybeCompleteJoin(d, next, now, false, out);
  }
  putGroup(d, next);
}

const onSessionExpired = (
  ctx: GroupCoordinatorContext,
  ev: TimerEvent<{ groupId: string; memberId: string }>,
  out: Out,
): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  const g = d.groups[ev.data.groupId];
  const m = g?.members[ev.data.memberId];
  if (!g || !m) return ctx;
  removeMember(d, g, m.memberId, `member ${m.memberId} sent no heartbeat for session.timeout.ms=${m.sessionTimeoutMs}`, ev.now, out);
  return d;
};

const onLeaveGroup = (
  ctx: GroupCoordinatorContext,
  ev: RpcEvent<{ groupId: string; memberId: string }>,
  out: Out,
): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  const g = d.groups[ev.payload.groupId];
  if (g?.members[ev.payload.memberId]) removeMember(d, g, ev.payload.memberId, `${ev.payload.memberId} left the group`, ev.now, out);
  out.reply(pendingRequest(ev), 'LeaveGroupResponse', { error: 'NONE' });
  return d;
};

/** Writes offset commit records to the group's `__consumer_offsets` partition. */
function writeOffsets(
  d: Draft,
  groupId: string,
  offsets: readonly (TopicPartition & { offset: number })[],
  producer: { producerId: number; producerEpoch: number } | null,
  now: number,
): KafkaError | null {
  const key = offsetsLogKey(d, groupId);
  const log = d.logs[key];
  if (!log) return null;
  const { log: next, outcome } = appendProducerBatch(
    log,
    {
      producerId: producer?.producerId ?? -1,
      producerEpoch: producer?.producerEpoch ?? -1,
      baseSequence: -1,
      isTransactional: producer !== null,
      records: offsets.map((o) => ({
        key: `${groupId}/${o.topic}-${o.partition}`,
        value: String(o.offset),
        headers: {},
        timestamp: now,
      })),
    },
    now,
  );
  if (outcome.kind === 'rejected') return outcome.error;
  d.logs = { ...d.logs, [key]: next };
  return null;
}

const onOffsetCommit = (ctx: GroupCoordinatorContext, ev: RpcEvent<OffsetCommitRequest>, out: Out): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  let g = d.groups[req.groupId] ?? emptyGroup(req.groupId);
  // a consumer without a group membership (assign()) commits with generation -1
  const standalone = req.generationId < 0 && !req.memberId;
  let error: KafkaError | null = standalone ? null : checkMember(g, req.memberId, req.generationId);
  // members may commit while the group prepares a rebalance (before they rejoin), not while it completes one
  if (!error && g.state === 'CompletingRebalance' && !standalone) error = 'REBALANCE_IN_PROGRESS';
  if (!error) error = writeOffsets(d, req.groupId, req.offsets, null, ev.now);
  if (!error) {
    const committed = { ...g.committed };
    for (const o of req.offsets) committed[partitionName(o.topic, o.partition)] = o.offset;
    g = { ...g, committed };
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

function writeTxnOffsets(d: Draft, req: TxnOffsetCommitRequest, now: number): KafkaError | null {
  let g = d.groups[req.groupId] ?? emptyGroup(req.groupId);
  const error = writeOffsets(d, req.groupId, req.offsets, { producerId: req.producerId, producerEpoch: req.producerEpoch }, now);
  if (error) return error;
  const offsets = Object.fromEntries(req.offsets.map((o) => [partitionName(o.topic, o.partition), o.offset]));
  const others = g.pending.filter((p) => p.producerId !== req.producerId);
  const mine = g.pending.find((p) => p.producerId === req.producerId);
  g = { ...g, pending: [...others, { producerId: req.producerId, offsets: { ...(mine?.offsets ?? {}), ...offsets } }] };
  putGroup(d, g);
  return null;
}

const onTxnOffsetCommit = (ctx: GroupCoordinatorContext, ev: RpcEvent<TxnOffsetCommitRequest>, out: Out): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  const req = ev.payload;
  const g = d.groups[req.groupId] ?? emptyGroup(req.groupId);
  // KIP-447: a transactional commit carries the member's generation; a stale one is fenced
  let error: KafkaError | null = req.generationId >= 0 || req.memberId ? checkMember(g, req.memberId, req.generationId) : null;
  if (!error && d.config.transactionVersion === 2) {
    // protocol v2: the group coordinator adds its offsets partition to the transaction on the client's behalf
    const correlationId = d.nextCorrelationId;
    d.nextCorrelationId += 1;
    out.send(
      d.meta.transactionCoordinator,
      'AddPartitionsToTxn',
      {
        correlationId,
        transactionalId: req.transactionalId,
        producerId: req.producerId,
        producerEpoch: req.producerEpoch,
        partitions: [{ topic: CONSUMER_OFFSETS_TOPIC, partition: coordinatorPartitionFor(req.groupId, d.meta.consumerOffsetsPartitions) }],
        verifyOnly: false,
      },
      { timeoutMs: BROKER_REQUEST_TIMEOUT_MS },
    );
    d.verifying = [...d.verifying, { correlationId, request: pendingRequest(ev), commit: req }];
    return d;
  }
  if (!error) error = writeTxnOffsets(d, req, ev.now);
  out.reply(pendingRequest(ev), 'TxnOffsetCommitResponse', { error: error ?? 'NONE' });
  return d;
};

const onAddedToTxn = (
  ctx: GroupCoordinatorContext,
  ev: RpcEvent<{ correlationId: number; error: KafkaError; partitions: { error: KafkaError }[] }>,
  out: Out,
): GroupCoordinatorContext => {
  const pending = ctx.verifying.find((v) => v.correlationId === ev.payload.correlationId);
  if (!pending) return ctx;
  const d: Draft = { ...ctx, verifying: ctx.verifying.filter((v) => v !== pending) };
  const added = ev.payload.error !== 'NONE' ? ev.payload.error : (ev.payload.partitions[0]?.error ?? 'NONE');
  let error: KafkaError | null;
  if (added === 'NONE') error = writeTxnOffsets(d, pending.commit, ev.now);
  else if (added === 'PRODUCER_FENCED' || added === 'INVALID_PRODUCER_EPOCH') error = 'INVALID_PRODUCER_EPOCH';
  else if (added === 'CONCURRENT_TRANSACTIONS' || added === 'INVALID_PRODUCER_ID_MAPPING' || added === 'INVALID_TXN_STATE') error = added;
  else error = 'COORDINATOR_NOT_AVAILABLE';
  out.reply(pending.request, 'TxnOffsetCommitResponse', { error: error ?? 'NONE' });
  return d;
};

/**
 * The verification of a TxnOffsetCommit completed as a disconnect (no answer within the broker's
 * request.timeout.ms, or the transaction coordinator is unreachable): the commit is answered
 * COORDINATOR_NOT_AVAILABLE (GroupCoordinatorService.handleOperationException), and the producer
 * retries it.
 */
const onVerificationLost = (ctx: GroupCoordinatorContext, ev: DisconnectedEvent, out: Out): GroupCoordinatorContext => {
  const correlationId = (ev.payload as { correlationId?: number }).correlationId;
  const pending = ctx.verifying.find((v) => v.correlationId === correlationId);
  if (!pending) return ctx;
  out.reply(pending.request, 'TxnOffsetCommitResponse', { error: 'COORDINATOR_NOT_AVAILABLE' });
  return { ...ctx, verifying: ctx.verifying.filter((v) => v !== pending) };
};

const onOffsetFetch = (ctx: GroupCoordinatorContext, ev: RpcEvent<OffsetFetchRequest>, out: Out): GroupCoordinatorContext => {
  const req = ev.payload;
  const g = ctx.groups[req.groupId];
  const offsets = req.partitions.map((p) => {
    const name = partitionName(p.topic, p.partition);
    const unstable = req.requireStable && (g?.pending ?? []).some((x) => x.offsets[name] !== undefined);
    return {
      ...p,
      offset: unstable ? -1 : (g?.committed[name] ?? -1),
      error: (unstable ? 'UNSTABLE_OFFSET_COMMIT' : 'NONE') satisfies KafkaError,
    };
  });
  const anyUnstable = offsets.some((o) => o.error !== 'NONE');
  out.reply(pendingRequest(ev), 'OffsetFetchResponse', { error: anyUnstable ? 'UNSTABLE_OFFSET_COMMIT' : 'NONE', offsets });
  return ctx;
};

/** A transaction marker on `__consumer_offsets`: COMMIT materialises the producer's pending offsets, ABORT drops them. */
const onWriteTxnMarkers = (ctx: GroupCoordinatorContext, ev: RpcEvent<WriteTxnMarkersRequest>, out: Out): GroupCoordinatorContext => {
  const d: Draft = { ...ctx };
  const results: { producerId: number; partitions: (TopicPartition & { error: KafkaError })[] }[] = [];
  for (const m of ev.payload.markers) {
    const partitions: (TopicPartition & { error: KafkaError })[] = [];
    for (const tp of m.partitions) {
      const key = partitionName(tp.topic, tp.partition);
      const log = d.logs[key];
      if (!log) {
        partitions.push({ ...tp, error: 'NOT_LEADER_OR_FOLLOWER' });
        continue;
      }
      const r = appendMarker(
        log,
        { producerId: m.producerId, producerEpoch: m.producerEpoch, controlType: m.result, coordinatorEpoch: m.coordinatorEpoch },
        ev.now,
      );
      if (r.outcome.kind === 'rejected') {
        partitions.push({ ...tp, error: r.outcome.error });
        continue;
      }
      d.logs = { ...d.logs, [key]: r.log };
      out.fact({
        kind: 'append',
        topic: tp.topic,
        partition: tp.partition,
        baseOffset: r.outcome.baseOffset,
        lastOffset: r.outcome.lastOffset,
        producerId: m.producerId,
        producerEpoch: m.producerEpoch,
        baseSequence: -1,
        lastSequence: -1,
        transactional: true,
        control: m.result,
        eventIds: [],
        origins: [],
      });
      for (const g of Object.values(d.groups)) {
        if (offsetsLogKey(d, g.groupId) !== key) continue;
        const pending = g.pending.find((p) => p.producerId === m.producerId);
        if (!pending) continue;
        let committed = g.committed;
        if (m.result === 'COMMIT') {
          committed = { ...g.committed, ...pending.offsets };
          out.fact({
            kind: 'offsetsCommitted',
            groupId: g.groupId,
            generationId: g.generationId,
            offsets: Object.entries(pending.offsets).map(([name, offset]) => {
              const dash = name.lastIndexOf('-');
              return { topic: name.slice(0, dash), partition: Number(name.slice(dash + 1)), offset };
            }),
            transactional: true,
          });
        }
        putGroup(d, { ...g, committed, pending: g.pending.filter((p) => p !== pending) });
      }
      partitions.push({ ...tp, error: 'NONE' });
    }
    results.push({ producerId: m.producerId, partitions });
  }
  out.reply(pendingRequest(ev), 'WriteTxnMarkersResponse', { markers: results });
  return d;
};

export const groupCoordinatorMachine = setup({
  types: {} as {
    context: GroupCoordinatorContext;
    input: GroupCoordinatorInput;
    events: RpcEvent | TimerEvent | CallEvent | { type: 'crash' };
  },
}).createMachine({
  id: 'groupCoordinator',
  context: ({ input }) => ({
    id: input.id,
    meta: input.meta,
    config: input.config,
    groups: {},
    logs: Object.fromEntries(input.logs.map((l) => [partitionName(l.topic, l.partition), l])),
    verifying: [],
    nextCorrelationId: 0,
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
        sessionExpired: { actions: handle(onSessionExpired) },
        OffsetCommit: { actions: handle(onOffsetCommit) },
        TxnOffsetCommit: { actions: handle(onTxnOffsetCommit) },
        AddPartitionsToTxnResponse: { actions: handle(onAddedToTxn) },
        disconnected: { actions: handle(onVerificationLost) },
        OffsetFetch: { actions: handle(onOffsetFetch) },
        WriteTxnMarkers: { actions: handle(onWriteTxnMarkers) },
        crash: 'down',
      },
    },
    down: {
      // committed and pending offsets are in __consumer_offsets; membership is rebuilt as members rejoin
      entry: handle((ctx: GroupCoordinatorContext) => ({
        ...ctx,
        verifying: [],
        groups: Object.fromEntries(
          Object.entries(ctx.groups).map(([id, g]) => [id, { ...g, state: 'Empty' as GroupState, members: {}, leader: null }]),
        ),
      })),
      on: { restart: 'serving' },
    },
  },
});
