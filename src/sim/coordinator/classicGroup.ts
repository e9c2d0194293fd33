/**
 * Membership of a classic consumer group, as Kafka's group coordinator keeps it
 * (group-coordinator `GroupMetadataManager`, `classic/ClassicGroup`, `classic/ClassicGroupMember`):
 * the join phase, the sync phase, heartbeat expiry, the pending-sync expiry, and the group metadata
 * record that a new coordinator replays after a failover.
 *
 * Pure functions of (group, event) that emit their replies and timers through `Out`; the machine in
 * groupCoordinator.machine.ts routes requests and timers to them.
 *
 * Simplifications: the coordinator computes the assignment when the leader syncs (in Kafka the
 * leader's client computes it and sends it in its SyncGroup) — by range, or as Kafka Streams'
 * COOPERATIVE assignor when every member sent its owned partitions (streamsAssignor.ts).
 *
 * A new dynamic member's first JoinGroup (no member id; JoinGroup v4+, which every client of the model
 * sends) is answered MEMBER_ID_REQUIRED with a member id, which the group holds as a *pending member*
 * (ClassicGroup.pendingJoinMembers) until the client joins again with it — or until its session
 * timeout removes it (classicGroupJoinNewDynamicMember, removePendingMemberAndUpdateClassicGroup). A
 * join phase does not complete while a member is pending (ClassicGroup.hasAllMembersJoined).
 *
 * Static members (KIP-345, group.instance.id): the group maps each instance id to its current member
 * id (ClassicGroup.staticMembers; here read off the members, which carry their instance id). A join
 * without a member id whose instance id is mapped replaces that member (replaceStaticMember) — in a
 * Stable group without a rebalance; a request whose member id is not the one its instance id maps to
 * is FENCED_INSTANCE_ID (ClassicGroup.validateMember).
 */
import type { Out, PendingRequest } from '../actors/out';
import type { ClusterMetadata } from '../cluster/metadata';
import type { ActorId } from '../kernel/envelope';
import type { KafkaError } from '../protocol/errors';
import type { TopicPartition } from '../protocol/messages';
import { byMemberId, topicsToAssign } from './memberOrder';
import { streamsAssign } from './streamsAssignor';

export type GroupState = 'Empty' | 'PreparingRebalance' | 'CompletingRebalance' | 'Stable' | 'Dead';

export interface GroupMember {
  readonly memberId: string;
  /** group.instance.id of a static member (ClassicGroupMember.groupInstanceId); absent for a dynamic one. */
  readonly groupInstanceId?: string;
  readonly clientId: string;
  readonly sessionTimeoutMs: number;
  /** The member's max.poll.interval.ms; the group's rebalance timeout is the largest of them. */
  readonly rebalanceTimeoutMs: number;
  readonly topics: readonly string[];
  /**
   * Kafka Streams' main consumer (COOPERATIVE): the partitions it owned as it sent its last
   * JoinGroup (Subscription.ownedPartitions). Absent for a plain (EAGER) consumer.
   */
  readonly ownedPartitions?: readonly TopicPartition[];
  /** Waiting JoinGroup / SyncGroup requests, answered when the phase completes. */
  readonly joinRequest: PendingRequest | null;
  readonly syncRequest: PendingRequest | null;
  readonly assignment: readonly TopicPartition[];
  /** When its heartbeat expiry is due (the timer `session:<group>:<member>`). */
  readonly sessionDeadline: number;
  /** ClassicGroupMember.isNew: its first join has not completed; only such a member expires while it waits in a join. */
  readonly isNew: boolean;
  /** ClassicGroup.pendingSyncMembers: joined this generation and has not sent its SyncGroup yet. */
  readonly pendingSync: boolean;
}

/** What the last GroupMetadata record in `__consumer_offsets` says: what a new coordinator loads. */
export interface StoredGroup {
  readonly generationId: number;
  readonly leader: string | null;
  readonly members: readonly {
    readonly memberId: string;
    /** GroupMetadataValue.MemberMetadata.groupInstanceId: a loaded group keeps its static mapping. */
    readonly groupInstanceId?: string;
    readonly clientId: string;
    readonly sessionTimeoutMs: number;
    readonly rebalanceTimeoutMs: number;
    readonly topics: readonly string[];
    readonly assignment: readonly TopicPartition[];
  }[];
}

export interface PendingTxnOffsets {
  readonly producerId: number;
  readonly offsets: Readonly<Record<string, number>>;
  /** When each offset was written, in the group's `offsetWrites` order (its record offset, groupOffsets.ts). */
  readonly writtenAt: Readonly<Record<string, number>>;
  /** The offsets' committedLeaderEpoch, where the commit carried one (KIP-320). */
  readonly epochs?: Readonly<Record<string, number>>;
}

export interface ConsumerGroup {
  readonly groupId: string;
  readonly state: GroupState;
  readonly generationId: number;
  readonly leader: string | null;
  readonly members: Readonly<Record<string, GroupMember>>;
  readonly committed: Readonly<Record<string, number>>;
  /** The committed offsets' leader epochs (OffsetAndMetadata.leaderEpoch, KIP-320): only where the commit carried one. */
  readonly committedEpochs?: Readonly<Record<string, number>>;
  /** When each committed offset was written, in `offsetWrites` order (groupOffsets.ts). */
  readonly committedAt: Readonly<Record<string, number>>;
  /** How many offset records the group has written: the order of its record offsets. */
  readonly offsetWrites: number;
  /** TxnOffsetCommit offsets waiting for their transaction's marker, per producer id. */
  readonly pending: readonly PendingTxnOffsets[];
  readonly nextMemberSeq: number;
  /** This join phase started from Empty: it waits group.initial.rebalance.delay.ms (ClassicGroup.previousState == EMPTY). */
  readonly initialRebalance: boolean;
  /** A new member joined during the initial delay, which extends it (ClassicGroup.newMemberAdded). */
  readonly newMemberAdded: boolean;
  /**
   * Member ids no longer in the group that ClassicGroup.pendingSyncMembers still holds: a static
   * member replaced (replaceStaticMember) before it sent its SyncGroup leaves its old id there — only
   * ClassicGroup.remove and the next rebalance take ids out —, so the pending-sync expiry still finds
   * the group short of a SyncGroup and rebalances. Absent while there is none.
   */
  readonly pendingSyncGone?: readonly string[];
  /**
   * ClassicGroup.pendingJoinMembers: member ids handed out with MEMBER_ID_REQUIRED whose JoinGroup with
   * that id has not come yet, in the order given. Not in the GroupMetadata record (a loaded group has
   * none). Absent while there is none.
   */
  readonly pendingMembers?: readonly string[];
  readonly stored: StoredGroup;
}

export interface GroupCoordinatorConfig {
  /** group.initial.rebalance.delay.ms: a new group waits this long for more members. */
  readonly initialRebalanceDelayMs: number;
  /** The rebalance timeout when no member has said otherwise (max.poll.interval.ms' default). */
  readonly rebalanceTimeoutMs: number;
  /** group.classic.new.member.join.timeout.ms (GroupMetadataManager: 5 minutes): a new member waiting in a join expires after this. */
  readonly newMemberJoinTimeoutMs: number;
  /** Protocol v2: a TxnOffsetCommit first adds the offsets partition to the transaction itself. */
  readonly transactionVersion: 1 | 2;
  /** transaction.partition.verification.enable: protocol v1 verifies a TxnOffsetCommit with the transaction coordinator. */
  readonly verification: boolean;
}

export const DEFAULT_GROUP_COORDINATOR_CONFIG: GroupCoordinatorConfig = {
  initialRebalanceDelayMs: 3000,
  rebalanceTimeoutMs: 300000,
  newMemberJoinTimeoutMs: 300000,
  transactionVersion: 2,
  verification: true,
};

/** What the membership functions need of the coordinator. */
export interface GroupEnv {
  readonly id: ActorId;
  readonly meta: ClusterMetadata;
  readonly config: GroupCoordinatorConfig;
}

export function emptyGroup(groupId: string): ConsumerGroup {
  return {
    groupId,
    state: 'Empty',
    generationId: 0,
    leader: null,
    members: {},
    committed: {},
    committedAt: {},
    offsetWrites: 0,
    pending: [],
    nextMemberSeq: 0,
    initialRebalance: false,
    newMemberAdded: false,
    stored: { generationId: 0, leader: null, members: [] },
  };
}

/** Range assignment: per topic, members sorted by id take contiguous ranges; the first n%c take one more. */
export function rangeAssign(members: readonly GroupMember[], meta: ClusterMetadata): Record<string, TopicPartition[]> {
  const out: Record<string, TopicPartition[]> = {};
  for (const m of members) out[m.memberId] = [];
  for (const { topic, partitions: n, subscribed } of topicsToAssign(members, meta)) {
    const c = subscribed.length;
    let p = 0;
    subscribed.forEach((m, i) => {
      const count = Math.floor(n / c) + (i < n % c ? 1 : 0);
      for (let k = 0; k < count; k++) (out[m.memberId] as TopicPartition[]).push({ topic, partition: p++ });
    });
  }
  return out;
}

/**
 * The leader's assignment: Kafka Streams' (streamsAssignor.ts: sticky, a task another member still
 * owns held back for the follow-up rebalance) when every member sent its owned partitions (the
 * COOPERATIVE protocol of StreamsPartitionAssignor), else the range assignment.
 */
export function assign(members: readonly GroupMember[], meta: ClusterMetadata): Record<string, TopicPartition[]> {
  if (members.length > 0 && members.every((m) => m.ownedPartitions !== undefined))
    return streamsAssign(
      members.map((m) => ({ memberId: m.memberId, topics: m.topics, ownedPartitions: m.ownedPartitions ?? [] })),
      meta,
    );
  return rangeAssign(members, meta);
}

/** ClassicGroup.rebalanceTimeoutMs: the largest rebalance timeout of its members. */
export function rebalanceTimeout(env: GroupEnv, g: ConsumerGroup): number {
  const all = Object.values(g.members).map((m) => m.rebalanceTimeoutMs);
  return all.length ? Math.max(...all) : env.config.rebalanceTimeoutMs;
}

const sessionKey = (groupId: string, memberId: string) => `session:${groupId}:${memberId}`;
const joinKey = (groupId: string) => `join:${groupId}`;
const syncKey = (groupId: string) => `sync:${groupId}`;

/**
 * GroupMetadataManager.rescheduleClassicGroupMemberHeartbeat: the member expires unless something
 * reschedules this again. Background: a live member keeps pushing it forward, so it alone does not
 * keep a run going.
 */
export function scheduleHeartbeat(out: Out, groupId: string, m: GroupMember, now: number, timeoutMs = m.sessionTimeoutMs): GroupMember {
  out.timer(sessionKey(groupId, m.memberId), 'sessionExpired', timeoutMs, { groupId, memberId: m.memberId }, true);
  return { ...m, sessionDeadline: now + timeoutMs };
}

/** While the group waits for members to rejoin, their expiry is what the run waits for (foreground). */
function awaitMissingMembers(g: ConsumerGroup, now: number, out: Out): void {
  for (const m of Object.values(g.members))
    if (m.joinRequest === null)
      out.timer(sessionKey(g.groupId, m.memberId), 'sessionExpired', Math.max(0, m.sessionDeadline - now), {
        groupId: g.groupId,
        memberId: m.memberId,
      });
}

function withMembers(g: ConsumerGroup, members: readonly GroupMember[]): ConsumerGroup {
  return { ...g, members: Object.fromEntries(members.map((m) => [m.memberId, m])) };
}

/** The group's members with pending syncs answered by `error` (ClassicGroup.completeSyncFuture), their heartbeats rescheduled. */
function answerSyncs(g: ConsumerGroup, error: KafkaError, now: number, out: Out, assignments: Record<string, TopicPartition[]> | null) {
  return withMembers(
    g,
    Object.values(g.members).map((m) => {
      const assignment = assignments ? (assignments[m.memberId] ?? []) : [];
      const withAssignment = assignments ? { ...m, assignment } : { ...m, assignment: [] };
      if (!m.syncRequest) return withAssignment;
      out.reply(m.syncRequest, 'SyncGroupResponse', { error, assignment: error === 'NONE' ? assignment : [] });
      // GroupMetadataManager.propagateAssignment: the member's expiry starts again from its answer
      return scheduleHeartbeat(out, g.groupId, { ...withAssignment, syncRequest: null }, now);
    }),
  );
}

/**
 * GroupMetadataManager.prepareRebalance: members waiting in SyncGroup are answered
 * REBALANCE_IN_PROGRESS (resetAndPropagateAssignmentWithError) so that they rejoin, the pending-sync
 * expiry is cancelled, and the join phase starts: a group that was Empty waits
 * group.initial.rebalance.delay.ms, any other completes once every member has rejoined or the
 * rebalance timeout passes.
 */
export function prepareRebalance(env: GroupEnv, g0: ConsumerGroup, reason: string, now: number, out: Out): ConsumerGroup {
  let g = g0;
  if (g.state === 'CompletingRebalance') g = answerSyncs(g, 'REBALANCE_IN_PROGRESS', now, out, null);
  out.cancel(syncKey(g.groupId));
  // removeSyncExpiration: clearPendingSyncMembers
  g = withMembers(
    withoutGone(g),
    Object.values(g.members).map((m) => ({ ...m, pendingSync: false })),
  );
  const initial = g.state === 'Empty';
  g = { ...g, state: 'PreparingRebalance', initialRebalance: initial, newMemberAdded: false };
  out.fact({ kind: 'note', actor: env.id, text: `group ${g.groupId} is rebalancing: ${reason}` });
  awaitMissingMembers(g, now, out);
  if (initial) {
    const delay = env.config.initialRebalanceDelayMs;
    const remaining = Math.max(rebalanceTimeout(env, g) - delay, 0);
    out.timer(joinKey(g.groupId), 'joinPhaseCheck', delay, { groupId: g.groupId, initial: true, delay, remaining });
    return g;
  }
  if (allJoined(g)) return completeJoin(env, g, now, out, reason);
  out.timer(joinKey(g.groupId), 'joinPhaseCheck', rebalanceTimeout(env, g), { groupId: g.groupId, initial: false });
  return g;
}

/** ClassicGroup.hasAllMembersJoined: every member waits in a JoinGroup, and no member id handed out is still pending. */
function allJoined(g: ConsumerGroup): boolean {
  return Object.values(g.members).every((m) => m.joinRequest !== null) && (g.pendingMembers ?? []).length === 0;
}

/** Whether `memberId` was handed out with MEMBER_ID_REQUIRED and has not joined yet (ClassicGroup.isPendingMember). */
export function isPendingMember(g: ConsumerGroup | undefined, memberId: string): boolean {
  return (g?.pendingMembers ?? []).includes(memberId);
}

/** The group without `memberId` among its pending members (ClassicGroup.remove, ClassicGroup.add). */
function withoutPending(g: ConsumerGroup, memberId: string): ConsumerGroup {
  const rest = (g.pendingMembers ?? []).filter((id) => id !== memberId);
  const { pendingMembers: _pending, ...others } = g;
  return rest.length > 0 ? { ...others, pendingMembers: rest } : others;
}

/** GroupMetadataManager.maybePrepareRebalanceOrCompleteJoin. */
function rebalanceOrCompleteJoin(env: GroupEnv, g: ConsumerGroup, reason: string, now: number, out: Out): ConsumerGroup {
  if (g.state === 'PreparingRebalance') return maybeCompleteJoinPhase(env, g, now, out);
  return prepareRebalance(env, g, reason, now, out);
}

/** GroupMetadataManager.maybeCompleteJoinPhase: not during an initial rebalance, and only once every member has rejoined. */
function maybeCompleteJoinPhase(env: GroupEnv, g: ConsumerGroup, now: number, out: Out): ConsumerGroup {
  if (g.state !== 'PreparingRebalance' || g.initialRebalance || !allJoined(g)) return g;
  return completeJoin(env, g, now, out);
}

/**
 * GroupMetadataManager.completeClassicGroupJoin: the *dynamic* members that did not rejoin are
 * removed — a static member that did not rejoin stays (`notYetRejoinedMembers` filtered by
 * `!isStaticMember()`: only its session timeout removes it). If no member rejoined but static members
 * are left (ClassicGroup.maybeElectNewJoinedLeader finds nobody awaiting a join), the join phase waits
 * another rebalance timeout ("could not complete rebalance because no members rejoined"). Otherwise
 * the generation goes up; with nobody left the group is Empty (a GroupMetadata record is written),
 * else every waiting JoinGroup is answered and every member — a static one that did not rejoin too —
 * has its heartbeat rescheduled, is no longer new and is pending its SyncGroup; the group waits in
 * CompletingRebalance for SyncGroups, for at most the rebalance timeout.
 */
export function completeJoin(env: GroupEnv, g0: ConsumerGroup, now: number, out: Out, reason = 'join phase complete'): ConsumerGroup {
  out.cancel(joinKey(g0.groupId));
  let g = g0;
  for (const m of Object.values(g0.members)) if (m.joinRequest === null && m.groupInstanceId === undefined) g = dropMember(g, m, out);
  const joined = Object.values(g.members).filter((m) => m.joinRequest !== null);
  const left = Object.values(g.members);
  if (joined.length === 0 && left.length > 0) {
    // maybeElectNewJoinedLeader is false: wait until the static members rejoin or their sessions expire
    out.fact({
      kind: 'note',
      actor: env.id,
      text: `group ${g.groupId} could not complete its rebalance because no member rejoined; static member(s) ${left.map((m) => m.memberId).join(', ')} stay until they rejoin or their session expires`,
    });
    out.timer(joinKey(g.groupId), 'joinPhaseCheck', rebalanceTimeout(env, g), { groupId: g.groupId, initial: false });
    return g;
  }
  const generationId = g.generationId + 1;
  if (left.length === 0) {
    out.fact({ kind: 'rebalance', groupId: g.groupId, generationId, members: [], reason });
    return {
      ...g,
      state: 'Empty',
      generationId,
      leader: null,
      members: {},
      initialRebalance: false,
      newMemberAdded: false,
      stored: { generationId, leader: null, members: [] },
    };
  }
  // the leader stays the member that joined first (ClassicGroup.add sets it once); one that did not
  // rejoin is replaced by a member that did (maybeElectNewJoinedLeader)
  const leader = g.leader !== null && joined.some((m) => m.memberId === g.leader) ? g.leader : (joined[0]?.memberId ?? null);
  const members = left.map((m) => {
    if (m.joinRequest)
      out.reply(m.joinRequest, 'JoinGroupResponse', {
        error: 'NONE',
        generationId,
        memberId: m.memberId,
        leader: leader ?? '',
      });
    return scheduleHeartbeat(out, g.groupId, { ...m, joinRequest: null, isNew: false, pendingSync: true }, now);
  });
  out.fact({ kind: 'rebalance', groupId: g.groupId, generationId, members: members.map((m) => m.memberId).sort(), reason });
  const next = withMembers(
    { ...g, state: 'CompletingRebalance', generationId, leader, initialRebalance: false, newMemberAdded: false },
    members,
  );
  // GroupMetadataManager.schedulePendingSync: members that never send SyncGroup are removed
  out.timer(syncKey(g.groupId), 'syncExpired', rebalanceTimeout(env, next), { groupId: g.groupId, generationId });
  return next;
}

/** The join-phase timer: the initial delay (extended while new members keep arriving), or the rebalance timeout. */
export function onJoinTimer(
  env: GroupEnv,
  g: ConsumerGroup,
  data: { initial: boolean; delay?: number; remaining?: number },
  now: number,
  out: Out,
): ConsumerGroup {
  if (g.state !== 'PreparingRebalance') return g;
  const remaining = data.remaining ?? 0;
  if (data.initial && g.newMemberAdded && remaining > 0) {
    // GroupMetadataManager.tryCompleteInitialRebalanceElseSchedule
    const delay = Math.min(env.config.initialRebalanceDelayMs, remaining);
    out.timer(joinKey(g.groupId), 'joinPhaseCheck', delay, {
      groupId: g.groupId,
      initial: true,
      delay,
      remaining: Math.max(remaining - (data.delay ?? 0), 0),
    });
    return { ...g, newMemberAdded: false };
  }
  return completeJoin(env, g, now, out);
}

/** ClassicGroup.staticMemberId: the member id the group maps a group.instance.id to, if any. */
export function staticMemberId(g: ConsumerGroup, groupInstanceId: string): string | null {
  for (const m of Object.values(g.members)) if (m.groupInstanceId === groupInstanceId) return m.memberId;
  return null;
}

/**
 * ClassicGroup.validateMember: with a group.instance.id, one the group does not map is
 * UNKNOWN_MEMBER_ID and one mapped to another member id FENCED_INSTANCE_ID (the instance was
 * replaced by a newer one); then the member id must be in the group.
 */
export function validateMember(g: ConsumerGroup | undefined, memberId: string, groupInstanceId?: string): KafkaError | null {
  if (!g) return 'UNKNOWN_MEMBER_ID';
  if (groupInstanceId !== undefined) {
    const existing = staticMemberId(g, groupInstanceId);
    if (existing === null) return 'UNKNOWN_MEMBER_ID';
    if (existing !== memberId) return 'FENCED_INSTANCE_ID';
  }
  return g.members[memberId] ? null : 'UNKNOWN_MEMBER_ID';
}

/** The error a SyncGroup, Heartbeat or offset commit gets from ClassicGroup.validateMember and the generation check. */
export function memberError(
  g: ConsumerGroup | undefined,
  memberId: string,
  generationId: number,
  groupInstanceId?: string,
): KafkaError | null {
  const error = validateMember(g, memberId, groupInstanceId);
  if (error || !g) return error ?? 'UNKNOWN_MEMBER_ID';
  if (generationId !== g.generationId) return 'ILLEGAL_GENERATION';
  return null;
}

export interface JoinRequest {
  readonly memberId: string;
  /**
   * JoinGroupRequest.requiresKnownMemberId(apiVersion): JoinGroup v4 and later, whose new dynamic
   * member is answered MEMBER_ID_REQUIRED first. Every client of the model sends the latest version
   * (the machine's onJoinGroup sets it); left out, the request is an older client's, added at once.
   */
  readonly requiresKnownMemberId?: boolean;
  readonly groupInstanceId?: string;
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
  readonly topics: readonly string[];
  readonly ownedPartitions?: readonly TopicPartition[];
}

const sameTopics = (a: readonly string[], b: readonly string[]) => [...a].sort().join(',') === [...b].sort().join(',');
const ownedKey = (o: readonly TopicPartition[] | undefined) =>
  o === undefined
    ? ''
    : o
        .map((tp) => `${tp.topic}-${tp.partition}`)
        .sort()
        .join(',');

/**
 * ClassicGroupMember.matches: the member's protocol metadata is what it was — its topics, and (a
 * COOPERATIVE member's subscription carries them) its owned partitions: one that revoked a partition
 * since its last JoinGroup starts a rebalance with its next one.
 */
const sameMetadata = (m: GroupMember, req: JoinRequest) =>
  sameTopics(m.topics, req.topics) && ownedKey(m.ownedPartitions) === ownedKey(req.ownedPartitions);

/**
 * GroupMetadataManager.classicGroupJoinNewDynamicMember, JoinGroup v4+: the new member id goes to the
 * group's pending members (ClassicGroup.addPendingMember) with a heartbeat expiry of the request's
 * session timeout — a client that never joins with it is forgotten then — and the JoinGroup is
 * answered MEMBER_ID_REQUIRED with that id. Nothing else changes: no rebalance starts, none completes.
 */
function requireMemberId(g: ConsumerGroup, req: JoinRequest, memberId: string, request: PendingRequest, out: Out): ConsumerGroup {
  out.timer(sessionKey(g.groupId, memberId), 'sessionExpired', req.sessionTimeoutMs, { groupId: g.groupId, memberId }, true);
  out.reply(request, 'JoinGroupResponse', { error: 'MEMBER_ID_REQUIRED', generationId: -1, memberId, leader: '' });
  return { ...g, pendingMembers: [...(g.pendingMembers ?? []), memberId] };
}

/**
 * GroupMetadataManager.addMemberThenRebalanceOrCompleteJoin: a new member (a pending member joining
 * with its id, a new static member, or an older client's first join) is added, waiting in its
 * JoinGroup, no longer pending (ClassicGroup.add); its expiry is the new-member join timeout
 * ("we time out JoinGroup requests for new members"); a rebalance starts, or the join phase completes.
 */
function addMember(
  env: GroupEnv,
  g0: ConsumerGroup,
  req: JoinRequest,
  memberId: string,
  request: PendingRequest,
  clientId: string,
  now: number,
  out: Out,
): ConsumerGroup {
  const g = withoutPending(g0, memberId);
  const member = scheduleHeartbeat(
    out,
    g.groupId,
    {
      memberId,
      ...(req.groupInstanceId !== undefined ? { groupInstanceId: req.groupInstanceId } : {}),
      clientId,
      sessionTimeoutMs: req.sessionTimeoutMs,
      rebalanceTimeoutMs: req.rebalanceTimeoutMs,
      topics: req.topics,
      ...(req.ownedPartitions ? { ownedPartitions: req.ownedPartitions } : {}),
      joinRequest: request,
      syncRequest: null,
      assignment: [],
      sessionDeadline: now,
      isNew: true,
      pendingSync: false,
    },
    now,
    env.config.newMemberJoinTimeoutMs,
  );
  const newMemberAdded = g.newMemberAdded || (g.state === 'PreparingRebalance' && g.initialRebalance);
  const next = { ...g, newMemberAdded, members: { ...g.members, [memberId]: member } };
  return rebalanceOrCompleteJoin(env, next, `${memberId} joined`, now, out);
}

/**
 * GroupMetadataManager.classicGroupJoinToClassicGroup for the classic protocol. A new dynamic member
 * is answered MEMBER_ID_REQUIRED with a member id it holds pending (requireMemberId), and is added
 * when it joins again with that id (addMember: it may wait in the join for the new-member join
 * timeout); a known member rejoins; a
 * member id the group does not know gets UNKNOWN_MEMBER_ID (the client then joins as a new
 * member). A follower that rejoins a Stable or CompletingRebalance group with unchanged metadata
 * is told the current generation (it lost the previous answer); the leader, or a member whose
 * subscription changed, starts a rebalance.
 *
 * A static member (group.instance.id) without a member id (classicGroupJoinNewStaticMember): its
 * instance id mapped already → it replaces that member (replaceStaticJoin); not mapped → it is added
 * as a new member, its member id `<group.instance.id>-<n>` (Kafka: `<group.instance.id>-<UUID>`,
 * ClassicGroup.generateMemberId). With a member id, validateMember first: an instance id mapped to
 * another member id is FENCED_INSTANCE_ID (classicGroupJoinExistingMember).
 */
export function join(
  env: GroupEnv,
  g0: ConsumerGroup,
  req: JoinRequest,
  request: PendingRequest,
  clientId: string,
  now: number,
  out: Out,
): ConsumerGroup {
  let g = g0;
  if (!req.memberId) {
    // Kafka: client.id (a static member: its group.instance.id) + a UUID; here the client's process
    // (or the instance id) + a counter
    const prefix = req.groupInstanceId ?? clientId.split('.')[0];
    const memberId = `${prefix}-${g.nextMemberSeq}`;
    const counted = { ...g, nextMemberSeq: g.nextMemberSeq + 1 };
    const existingStatic = req.groupInstanceId !== undefined ? staticMemberId(g, req.groupInstanceId) : null;
    if (existingStatic !== null) return replaceStaticJoin(env, counted, req, existingStatic, memberId, request, now, out);
    if (req.groupInstanceId === undefined && req.requiresKnownMemberId) return requireMemberId(counted, req, memberId, request, out);
    return addMember(env, counted, req, memberId, request, clientId, now, out);
  }
  // classicGroupJoinExistingMember: "A rejoining pending member will be accepted" (a pending member is
  // never static: only a dynamic member is handed an id; Kafka throws IllegalStateException for a
  // group.instance.id here, the model lets validateMember refuse it)
  if (req.groupInstanceId === undefined && isPendingMember(g, req.memberId))
    return addMember(env, g, req, req.memberId, request, clientId, now, out);
  const existing = g.members[req.memberId];
  // ClassicGroup.validateMember(memberId, groupInstanceId, "join-group")
  const invalid = validateMember(g, req.memberId, req.groupInstanceId);
  if (invalid || !existing || g.state === 'Empty') {
    out.reply(request, 'JoinGroupResponse', {
      error: invalid ?? 'UNKNOWN_MEMBER_ID',
      generationId: -1,
      memberId: req.memberId,
      leader: '',
    });
    return g;
  }
  const unchanged = sameMetadata(existing, req);
  const follower = g.leader !== req.memberId;
  if ((g.state === 'CompletingRebalance' && unchanged) || (g.state === 'Stable' && unchanged && follower)) {
    out.reply(request, 'JoinGroupResponse', {
      error: 'NONE',
      generationId: g.generationId,
      memberId: req.memberId,
      leader: g.leader ?? '',
    });
    return g;
  }
  const updated: GroupMember = {
    ...existing,
    sessionTimeoutMs: req.sessionTimeoutMs,
    rebalanceTimeoutMs: req.rebalanceTimeoutMs,
    topics: req.topics,
    ...(req.ownedPartitions ? { ownedPartitions: req.ownedPartitions } : {}),
    joinRequest: request,
  };
  g = { ...g, members: { ...g.members, [req.memberId]: updated } };
  return rebalanceOrCompleteJoin(env, g, `${req.memberId} rejoined`, now, out);
}

/**
 * GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin: a static member joins without
 * a member id and its group.instance.id is mapped to `oldMemberId` (a restarted instance, or a second
 * one configured with the same id). ClassicGroup.replaceStaticMember: the old member's waiting
 * JoinGroup and SyncGroup are answered FENCED_INSTANCE_ID; the new member id takes the old member's
 * place — its assignment, its timeouts, and the leadership if it led — and its heartbeat expiry is
 * scheduled for the new id (the old id's no longer matters: its member is gone). Then:
 * - Stable (the selected protocol cannot change here: every member of a model group speaks the same
 *   one): no rebalance — the GroupMetadata record is written with the new member id, and the
 *   JoinGroup is answered at once with the current generation (a leader with skipAssignment; its
 *   SyncGroup, like any in Stable, gets its assignment back). The generation stays; nobody else hears
 *   of it.
 * - CompletingRebalance: a rebalance (the leader may already hold the old member id's metadata).
 * - PreparingRebalance: the join phase completes if everyone has now joined.
 */
function replaceStaticJoin(
  env: GroupEnv,
  g0: ConsumerGroup,
  req: JoinRequest,
  oldMemberId: string,
  newMemberId: string,
  request: PendingRequest,
  now: number,
  out: Out,
): ConsumerGroup {
  const old = g0.members[oldMemberId] as GroupMember;
  const groupInstanceId = req.groupInstanceId as string;
  // replaceStaticMember: "Fence potential duplicate member immediately if someone awaits join/sync future"
  if (old.joinRequest)
    out.reply(old.joinRequest, 'JoinGroupResponse', { error: 'FENCED_INSTANCE_ID', generationId: -1, memberId: oldMemberId, leader: '' });
  if (old.syncRequest) out.reply(old.syncRequest, 'SyncGroupResponse', { error: 'FENCED_INSTANCE_ID', assignment: [] });
  out.cancel(sessionKey(g0.groupId, oldMemberId));
  const { [oldMemberId]: _old, ...others } = g0.members;
  // the new member keeps the old one's timeouts for its first expiry (rescheduled before updateMember)
  // (a new ClassicGroupMember: not `isNew`, whatever the old one was)
  // (not pending a SyncGroup either: replaceStaticMember leaves ClassicGroup.pendingSyncMembers as it
  // was, so the old id, if it was pending, stays pending — pendingSyncGone)
  const replaced = scheduleHeartbeat(
    out,
    g0.groupId,
    { ...old, memberId: newMemberId, joinRequest: null, syncRequest: null, isNew: false, pendingSync: false },
    now,
  );
  // ClassicGroup.updateMember: the request's protocols and timeouts, its JoinGroup waiting
  const updated: GroupMember = {
    ...replaced,
    sessionTimeoutMs: req.sessionTimeoutMs,
    rebalanceTimeoutMs: req.rebalanceTimeoutMs,
    topics: req.topics,
    ...(req.ownedPartitions ? { ownedPartitions: req.ownedPartitions } : {}),
    joinRequest: request,
  };
  // members.put at the end (join order), and the leadership moves with the instance
  let g: ConsumerGroup = {
    ...g0,
    members: { ...others, [newMemberId]: updated },
    leader: g0.leader === oldMemberId ? newMemberId : g0.leader,
    ...(old.pendingSync ? { pendingSyncGone: [...(g0.pendingSyncGone ?? []), oldMemberId] } : {}),
  };
  out.fact({
    kind: 'staticMemberReplaced',
    groupId: g.groupId,
    groupInstanceId,
    oldMemberId,
    newMemberId,
    generationId: g.generationId,
    state: g.state,
  });
  const reason = `static member ${newMemberId} (group.instance.id ${groupInstanceId}) replaced ${oldMemberId}`;
  if (g.state === 'Stable') {
    out.reply(request, 'JoinGroupResponse', {
      error: 'NONE',
      generationId: g.generationId,
      memberId: newMemberId,
      leader: g.leader ?? '',
    });
    g = { ...g, members: { ...g.members, [newMemberId]: { ...updated, joinRequest: null } } };
    // GroupCoordinatorRecordHelpers.newGroupMetadataRecord: the new member id is what a new coordinator loads
    return { ...g, stored: storedOf(g) };
  }
  if (g.state === 'CompletingRebalance') return prepareRebalance(env, g, reason, now, out);
  return maybeCompleteJoinPhase(env, g, now, out);
}

/**
 * GroupMetadataManager.classicGroupSyncToClassicGroup. While the group completes a rebalance a
 * member's SyncGroup waits; the leader's computes the assignment, writes the GroupMetadata record,
 * answers every waiting member and makes the group Stable. In Stable a SyncGroup is answered with
 * the member's assignment.
 */
export function sync(
  env: GroupEnv,
  g: ConsumerGroup,
  memberId: string,
  generationId: number,
  request: PendingRequest,
  now: number,
  out: Out,
  groupInstanceId?: string,
): ConsumerGroup {
  const error = memberError(g, memberId, generationId, groupInstanceId);
  if (error) {
    out.reply(request, 'SyncGroupResponse', { error, assignment: [] });
    return g;
  }
  const member = g.members[memberId] as GroupMember;
  if (g.state === 'PreparingRebalance') {
    out.reply(request, 'SyncGroupResponse', { error: 'REBALANCE_IN_PROGRESS', assignment: [] });
    return g;
  }
  if (g.state === 'Stable') {
    out.reply(request, 'SyncGroupResponse', { error: 'NONE', assignment: member.assignment });
    return settlePendingSync(g, { ...member, pendingSync: false }, out);
  }
  let next = settlePendingSync(g, { ...member, pendingSync: false, syncRequest: request }, out);
  if (g.leader !== memberId) return next;
  const assignment = assign(Object.values(next.members), env.meta);
  next = answerSyncs(next, 'NONE', now, out, assignment);
  return { ...next, state: 'Stable', stored: storedOf(next) };
}

/** The group with ClassicGroup.pendingSyncMembers holding no replaced member's id. */
function withoutGone(g: ConsumerGroup): ConsumerGroup {
  const { pendingSyncGone: _gone, ...rest } = g;
  return rest;
}

/** ClassicGroup.hasReceivedSyncFromAllMembers, negated: a member, or a replaced member's old id, is pending its SyncGroup. */
function awaitsSync(g: ConsumerGroup): boolean {
  return Object.values(g.members).some((x) => x.pendingSync) || (g.pendingSyncGone ?? []).length > 0;
}

/** A member sent its SyncGroup: once nobody is pending, the pending-sync expiry is no longer needed. */
function settlePendingSync(g: ConsumerGroup, m: GroupMember, out: Out): ConsumerGroup {
  const next = { ...g, members: { ...g.members, [m.memberId]: m } };
  if (!awaitsSync(next)) out.cancel(syncKey(g.groupId));
  return next;
}

/**
 * The GroupMetadata record written when the leader's assignment is stored, or a static member is
 * replaced in a Stable group (GroupCoordinatorRecordHelpers.newGroupMetadataRecord: each member with
 * its group.instance.id).
 */
function storedOf(g: ConsumerGroup): StoredGroup {
  return {
    generationId: g.generationId,
    leader: g.leader,
    members: Object.values(g.members)
      .sort(byMemberId)
      .map((m) => ({
        memberId: m.memberId,
        ...(m.groupInstanceId !== undefined ? { groupInstanceId: m.groupInstanceId } : {}),
        clientId: m.clientId,
        sessionTimeoutMs: m.sessionTimeoutMs,
        rebalanceTimeoutMs: m.rebalanceTimeoutMs,
        topics: m.topics,
        assignment: m.assignment,
      })),
  };
}

/** GroupMetadataManager.expirePendingSync: members that joined but never sent SyncGroup are removed and the group rebalances. */
export function onSyncTimer(env: GroupEnv, g: ConsumerGroup, generationId: number, now: number, out: Out): ConsumerGroup {
  if (generationId !== g.generationId || (g.state !== 'CompletingRebalance' && g.state !== 'Stable')) return g;
  if (!awaitsSync(g)) return g;
  const missing = Object.values(g.members).filter((m) => m.pendingSync);
  // a replaced static member's old id: ClassicGroup.remove finds no member, the rebalance comes all the same
  const gone = g.pendingSyncGone ?? [];
  let next = withoutGone(g);
  for (const m of missing) next = dropMember(next, m, out);
  return prepareRebalance(
    env,
    next,
    `${[...missing.map((m) => m.memberId), ...gone].join(', ')} sent no SyncGroup within the rebalance timeout`,
    now,
    out,
  );
}

/**
 * GroupMetadataManager.classicGroupHeartbeatToClassicGroup: an unknown member or a stale generation
 * is told so; in PreparingRebalance the member is told to rejoin; a valid heartbeat reschedules the
 * member's expiry.
 */
export function heartbeat(
  g: ConsumerGroup | undefined,
  memberId: string,
  generationId: number,
  now: number,
  out: Out,
  groupInstanceId?: string,
): { group: ConsumerGroup | undefined; error: KafkaError } {
  const error = memberError(g, memberId, generationId, groupInstanceId);
  if (error || !g) return { group: g, error: error ?? 'UNKNOWN_MEMBER_ID' };
  if (g.state === 'Empty') return { group: g, error: 'UNKNOWN_MEMBER_ID' };
  const member = scheduleHeartbeat(out, g.groupId, g.members[memberId] as GroupMember, now);
  const next = { ...g, members: { ...g.members, [memberId]: member } };
  return { group: next, error: g.state === 'PreparingRebalance' ? 'REBALANCE_IN_PROGRESS' : 'NONE' };
}

/**
 * OffsetMetadataManager.commitOffset, after validateOffsetCommit: "In the old consumer group
 * protocol, the offset commits maintain the session if the group is in Stable or PreparingRebalance
 * state" — the member's heartbeat expiry is rescheduled, as a heartbeat does.
 */
export function keepSessionOnCommit(g: ConsumerGroup, memberId: string, now: number, out: Out): ConsumerGroup {
  const m = g.members[memberId];
  if (!m || (g.state !== 'Stable' && g.state !== 'PreparingRebalance')) return g;
  return { ...g, members: { ...g.members, [memberId]: scheduleHeartbeat(out, g.groupId, m, now) } };
}

/**
 * GroupMetadataManager.expireClassicGroupMemberHeartbeat: a member that is waiting in a JoinGroup
 * or SyncGroup has satisfied its heartbeat (ClassicGroupMember.hasSatisfiedHeartbeat) — unless it
 * is new, whose join may still time out. Otherwise it is removed.
 */
export function onSessionTimer(env: GroupEnv, g: ConsumerGroup, memberId: string, now: number, out: Out): ConsumerGroup {
  if (isPendingMember(g, memberId)) return expirePendingMember(env, g, memberId, now, out);
  const m = g.members[memberId];
  if (!m) return g;
  if (!m.isNew && (m.joinRequest !== null || m.syncRequest !== null)) return g;
  const why = m.isNew
    ? `new member ${memberId} waited in JoinGroup longer than the new-member join timeout (${env.config.newMemberJoinTimeoutMs} ms)`
    : `member ${memberId} sent no heartbeat for session.timeout.ms=${m.sessionTimeoutMs}`;
  return removeMember(env, g, memberId, why, now, out);
}

/**
 * GroupMetadataManager.removePendingMemberAndUpdateClassicGroup: a member id handed out with
 * MEMBER_ID_REQUIRED whose client did not join with it within its session timeout ("Pending member …
 * has been removed after session timeout expiration") is forgotten; a group preparing a rebalance
 * that waited only for it completes its join (completeClassicGroupJoin, even in an initial rebalance).
 */
function expirePendingMember(env: GroupEnv, g0: ConsumerGroup, memberId: string, now: number, out: Out): ConsumerGroup {
  const g = withoutPending(g0, memberId);
  const reason = `pending member ${memberId} did not join with its member id within its session timeout`;
  out.fact({ kind: 'note', actor: env.id, text: `group ${g.groupId}: ${reason}; it is removed` });
  if (g.state === 'PreparingRebalance' && allJoined(g)) return completeJoin(env, g, now, out, reason);
  return g;
}

/**
 * classicGroupLeaveToClassicGroup for a pending member (ClassicGroup.isPendingMember): it is
 * forgotten and its heartbeat expiry cancelled, and its entry answered NONE; then, as for any member
 * that left, a Stable or CompletingRebalance group rebalances (maybePrepareRebalanceOrCompleteJoin)
 * and one preparing a rebalance completes its join if everyone has joined (maybeCompleteJoinPhase).
 */
export function leavePending(env: GroupEnv, g0: ConsumerGroup, memberId: string, now: number, out: Out): ConsumerGroup {
  const g = withoutPending(g0, memberId);
  out.cancel(sessionKey(g.groupId, memberId));
  if (g.state === 'Stable' || g.state === 'CompletingRebalance')
    return prepareRebalance(env, g, `pending member ${memberId} left the group`, now, out);
  return maybeCompleteJoinPhase(env, g, now, out);
}

/**
 * Takes a member out of the group; a JoinGroup it has waiting is answered UNKNOWN_MEMBER_ID so that its
 * client joins again (completeJoinFuture before ClassicGroup.remove). A SyncGroup it has waiting is not
 * answered: removeCurrentMemberFromClassicGroup / removeMemberAndUpdateClassicGroup complete only the
 * join future, and the rebalance that follows answers the members still in the group (only a member
 * that leaves in CompletingRebalance has one: its client is closing).
 */
function dropMember(g: ConsumerGroup, m: GroupMember, out: Out): ConsumerGroup {
  if (m.joinRequest)
    out.reply(m.joinRequest, 'JoinGroupResponse', { error: 'UNKNOWN_MEMBER_ID', generationId: -1, memberId: '', leader: '' });
  out.cancel(sessionKey(g.groupId, m.memberId));
  const { [m.memberId]: _gone, ...members } = g.members;
  // ClassicGroup.remove: the next leader is the first member left (*in join order*; Kafka: its HashMap's order)
  const leader = g.leader === m.memberId ? (Object.keys(members)[0] ?? null) : g.leader;
  return { ...g, members, leader };
}

/**
 * GroupMetadataManager.removeMemberAndUpdateClassicGroup (session expiry, LeaveGroup): its waiting
 * JoinGroup is answered UNKNOWN_MEMBER_ID; a Stable or CompletingRebalance group rebalances; a
 * group preparing a rebalance completes its join once everyone left has rejoined.
 */
export function removeMember(
  env: GroupEnv,
  g0: ConsumerGroup,
  memberId: string,
  reason: string,
  now: number,
  out: Out,
  leaving = false,
): ConsumerGroup {
  const m = g0.members[memberId];
  if (!m) return g0;
  const g = dropMember(g0, m, out);
  if (g.state === 'Stable' || g.state === 'CompletingRebalance') return prepareRebalance(env, g, reason, now, out);
  // already rebalancing: no new rebalance to announce, so say why the member is gone
  out.fact({ kind: 'note', actor: env.id, text: `group ${g.groupId}: ${reason}; it is removed` });
  // a LeaveGroup goes through maybeCompleteJoinPhase (classicGroupLeaveToClassicGroup), which waits out
  // an initial rebalance's delay; an expiry completes the join once the others have joined
  // (removeMemberAndUpdateClassicGroup)
  if (leaving) return maybeCompleteJoinPhase(env, g, now, out);
  if (g.state === 'PreparingRebalance' && allJoined(g)) return completeJoin(env, g, now, out, reason);
  return g;
}

/**
 * A new coordinator loads the group from its last GroupMetadata record (GroupMetadataManager.replay):
 * Stable with that generation's members and assignment, or Empty; what was in progress (a join or
 * sync phase, the pending members) is gone, and the clients waiting in it see their connection break.
 */
export function loadGroup(g: ConsumerGroup): ConsumerGroup {
  const s = g.stored;
  const members: GroupMember[] = s.members.map((m) => ({
    ...m,
    joinRequest: null,
    syncRequest: null,
    sessionDeadline: 0,
    isNew: false,
    pendingSync: false,
  }));
  const { pendingMembers: _pending, ...unpending } = withoutGone(g);
  return withMembers(
    {
      ...unpending,
      state: members.length ? 'Stable' : 'Empty',
      generationId: s.generationId,
      leader: members.length ? s.leader : null,
      initialRebalance: false,
      newMemberAdded: false,
    },
    members,
  );
}

/** GroupMetadataManager.onLoaded: every loaded member's heartbeat expiry is scheduled. */
export function onLoaded(g: ConsumerGroup, now: number, out: Out): ConsumerGroup {
  return withMembers(
    g,
    Object.values(g.members).map((m) => scheduleHeartbeat(out, g.groupId, m, now)),
  );
}
