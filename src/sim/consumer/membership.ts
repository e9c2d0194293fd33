/**
 * Group membership, classic protocol (AbstractCoordinator and ConsumerCoordinator): JoinGroup,
 * SyncGroup with the assignment, heartbeats every heartbeat.interval.ms, rejoining when the
 * coordinator says the group is rebalancing or that this member's generation is gone, and
 * LeaveGroup on close(). Which transition an answer takes is decided by the guards below; the
 * handlers only do what Kafka does on that answer.
 */

import type { Out } from '../actors/out';
import { requestUpdate } from '../cluster/clientMetadata';
import type { ActorId } from '../kernel/envelope';
import type { KafkaError } from '../protocol/errors';
import type { TopicPartition } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import { COORDINATOR_ERRORS, commitBackoff, needsJoinPrepare, requestOffsets } from './commits';
import {
  type ConsumerContext,
  checkAndGetCoordinator,
  corr,
  countConsumer,
  type Draft,
  groupCoordinatorOnLeader,
  instanceId,
  isDynamicMember,
  joinCompleted,
  lookupCoordinator,
  outOfGeneration,
  POLL_TIMER,
  sendToCoordinator,
} from './consumerContext';
import { awaitsFreshMetadata } from './consumerMetadata';
import type { ConsumerEvent, EventOf } from './events';
import { servePoll } from './fetcher';
import { failPoll, throwPending } from './pollErrors';
import { inPollLookup } from './pollLookup';
import { invokePartitionsAssigned, revokeAll, revokePartitions } from './positions';
import { giveUpOnCoordinator, heartbeatThreadWakes, resetSessionTimeout, sessionExpired, stopHeartbeatThread } from './sessionTimer';

/**
 * The rebalance protocol of the member (ConsumerCoordinator.protocol: the highest one every
 * configured assignor supports). Kafka Streams' main consumer is COOPERATIVE
 * (StreamsPartitionAssignor.supportedProtocols adds it unless upgrade.from names a version before
 * 2.4, which the model does not offer); a plain consumer's default assignors, [RangeAssignor,
 * CooperativeStickyAssignor], share only EAGER.
 */
export function cooperative(ctx: Pick<ConsumerContext, 'revocationListener'>): boolean {
  return ctx.revocationListener;
}

/** A COOPERATIVE member that owns partitions: it reads them on through a rebalance. */
export function keepsPartitions(ctx: Pick<ConsumerContext, 'revocationListener' | 'assignment'>): boolean {
  return cooperative(ctx) && ctx.assignment.length > 0;
}

/**
 * JoinGroup (ConsumerCoordinator.metadata): a COOPERATIVE member's subscription carries the
 * partitions it owns (Subscription.ownedPartitions) — which StreamsPartitionAssignor reads to keep a
 * task with its owner and to hold back one its owner has not revoked yet.
 */
export function sendJoin(d: Draft, out: Out): void {
  // a SyncGroup the leader held for its metadata belongs to the rebalance this JoinGroup replaces
  delete d.syncAwaitingMetadata;
  sendToCoordinator(d, out, 'JoinGroup', {
    correlationId: corr(d),
    groupId: d.config['group.id'],
    memberId: d.memberId,
    ...instanceId(d),
    sessionTimeoutMs: d.config['session.timeout.ms'],
    rebalanceTimeoutMs: d.config['max.poll.interval.ms'],
    topics: d.topics,
    ...(cooperative(d) ? { ownedPartitions: d.assignment } : {}),
  });
}

/** JoinGroup or SyncGroup lost (disconnected): JoinGroup again after retry.backoff.ms. */
export function rejoinAfterBackoff(d: Draft, out: Out): void {
  out.timer('rejoin', 'rejoinBackoff', d.config['retry.backoff.ms']);
}

/**
 * JoinGroupResponseHandler, success: COMPLETING_REBALANCE — heartbeats start here, while the SyncGroup
 * is in flight (heartbeatThread.enable() resets every timer of Heartbeat: the first heartbeat
 * heartbeat.interval.ms from now, the session timer from now) — then the generation and member id;
 * SyncGroup goes out. The leader's (onLeaderElected → performAssignment → updateGroupSubscription)
 * first waits for fresh metadata — its assignor reads the topics' partitions from it
 * (ensureFreshMetadata; consumerMetadata.ts): held until the Metadata answer when an update is asked
 * for or due (a new consumer's first one still in flight).
 */
export function onJoined(d: Draft, ev: EventOf<'JoinGroupResponse'>, out: Out): void {
  const r = ev.payload;
  countConsumer(d, 'joins');
  enableHeartbeatThread(d, ev.now, out);
  d.memberId = r.memberId;
  d.generationId = r.generationId;
  if (r.leader === r.memberId && awaitsFreshMetadata(d, ev.now)) {
    // awaitMetadataUpdate: requestUpdate(false), then client.poll until an answer
    d.metadata = requestUpdate(d.metadata);
    d.syncAwaitingMetadata = { generationId: r.generationId, memberId: r.memberId };
    out.fact({
      kind: 'note',
      actor: d.self,
      text: `it leads the group: its assignment waits for a Metadata answer (ensureFreshMetadata) before its SyncGroup goes out`,
    });
    return;
  }
  sendSync(d, r.generationId, r.memberId, out);
}

function sendSync(d: Draft, generationId: number, memberId: string, out: Out): void {
  sendToCoordinator(d, out, 'SyncGroup', {
    correlationId: corr(d),
    groupId: d.config['group.id'],
    generationId,
    memberId,
    ...instanceId(d),
  });
}

/**
 * A Metadata answer came (Metadata.update): the leader's held SyncGroup goes out, with the
 * assignment of this metadata — unless the member has joined again since (a new generation).
 */
export function onLeaderMetadata(d: Draft, out: Out): void {
  const held = d.syncAwaitingMetadata;
  if (!held) return;
  delete d.syncAwaitingMetadata;
  if (held.generationId !== d.generationId || held.memberId !== d.memberId) return;
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `the Metadata answer came: as the group's leader it computes the assignment and sends its SyncGroup`,
  });
  sendSync(d, held.generationId, held.memberId, out);
}

/** HeartbeatThread.enable: every timer of Heartbeat starts again — the first heartbeat heartbeat.interval.ms from now, the session timer from now. */
function enableHeartbeatThread(d: Draft, now: number, out: Out): void {
  heartbeatThreadWakes(d, now);
  out.timer('heartbeat', 'heartbeatDue', d.config['heartbeat.interval.ms'], {}, true);
  resetSessionTimeout(d, now, out);
}

/**
 * JoinGroupResponseHandler, success, with the coordinator unknown by then (a commit's NOT_COORDINATOR
 * read just before, or its connection inside its reconnect backoff): state COMPLETING_REBALANCE, the
 * heartbeat thread enabled, the generation and member id taken — but
 * AbstractCoordinator.sendSyncGroupRequest finds coordinatorUnknown() and returns
 * RequestFuture.coordinatorNotAvailable(): no SyncGroup. joinGroupIfNeeded: a retriable failure,
 * requestRejoin (the state stays COMPLETING_REBALANCE), `timer.sleep(retryBackoffMs)`, then
 * ensureCoordinatorReady and initiateJoinGroup (PREPARING_REBALANCE, JoinGroup: the machine's
 * `rejoinBackoff` in COMPLETING_REBALANCE). The heartbeat thread, enabled, looks the coordinator up at once.
 */
export function onJoinedCoordinatorUnknown(d: Draft, ev: EventOf<'JoinGroupResponse'>, out: Out): void {
  // a JoinGroup answered NONE (joinSensor), then the joinFuture fails (coordinatorNotAvailable)
  countConsumer(d, 'joins');
  countConsumer(d, 'failedRebalances');
  enableHeartbeatThread(d, ev.now, out);
  d.memberId = ev.payload.memberId;
  d.generationId = ev.payload.generationId;
  out.fact({ kind: 'clientError', client: d.client, error: 'COORDINATOR_NOT_AVAILABLE', during: 'SyncGroup', fatal: false });
  if (!checkAndGetCoordinator(d)) lookupCoordinator(d, out);
  rejoinAfterBackoff(d, out);
}

/**
 * JoinGroupResponseHandler, an error: UNKNOWN_MEMBER_ID resets the member (resetStateOnResponseError
 * (JOIN_GROUP, error, true): the generation and the member id are NO_GENERATION's, and
 * needsJoinPrepare is set again); JoinGroup again at once or after the backoff.
 */
export function onJoinFailed(d: Draft, ev: EventOf<'JoinGroupResponse'>, out: Out): void {
  const r = ev.payload;
  if (r.error === 'MEMBER_ID_REQUIRED') {
    onMemberIdRequired(d, r.memberId, out);
    return;
  }
  const fatal = r.error === 'INVALID_SESSION_TIMEOUT' || r.error === 'FENCED_INSTANCE_ID';
  countConsumer(d, 'failedRebalances');
  out.fact({ kind: 'clientError', client: d.client, error: r.error, during: 'JoinGroup', fatal });
  if (fatal) {
    // JoinGroupResponseHandler: a fatal error is raised from poll() (joinGroupIfNeeded), not retried —
    // FENCED_INSTANCE_ID "always ... as a fatal error" (another instance took the group.instance.id)
    failPoll(d, out, r.error === 'FENCED_INSTANCE_ID' ? 'FencedInstanceIdException' : 'InvalidSessionTimeoutException');
    return;
  }
  resetOnJoinError(d, r.error);
  // joinGroupIfNeeded's next pass runs onJoinPrepare again: with the generation gone it gives away
  // every partition still held (a COOPERATIVE member kept them) as lost — a member with a rebalance
  // listener goes through REVOKING first (joinFailedLosesPartitions)
  if (outOfGeneration(d) && d.assignment.length > 0) revokeAll(d);
  // joinGroupIfNeeded: these errors JoinGroup again at once; a coordinator's (retriable) after retry.backoff.ms
  if (REJOIN_AT_ONCE.includes(r.error)) sendJoin(d, out);
  else rejoinAfterBackoff(d, out);
}

/**
 * JoinGroupResponseHandler, MEMBER_ID_REQUIRED (a new dynamic member's first JoinGroup): the member
 * takes the member id the coordinator handed out (`generation = new Generation(DEFAULT_GENERATION_ID,
 * memberId, null)`), requestRejoin, and the join future fails — the failedRebalanceSensor counts it
 * (initiateJoinGroup's listener records every failure of the join future). joinGroupIfNeeded
 * `continue`s: the JoinGroup goes again at once, with that id; no onJoinPrepare again (it ran before
 * the first JoinGroup), no backoff. Kafka logs it at debug, "non-fatal error": no client error fact —
 * the answer itself shows it.
 */
function onMemberIdRequired(d: Draft, memberId: string, out: Out): void {
  countConsumer(d, 'failedRebalances');
  d.memberId = memberId;
  d.generationId = -1;
  sendJoin(d, out);
}

/** resetStateOnResponseError(JOIN_GROUP, UNKNOWN_MEMBER_ID, true): the member starts over with NO_GENERATION. */
function resetOnJoinError(d: Draft, error: KafkaError): void {
  if (error !== 'UNKNOWN_MEMBER_ID') return;
  d.memberId = '';
  d.generationId = -1;
}

/**
 * A JoinGroup refused UNKNOWN_MEMBER_ID to a member that still holds partitions and has a rebalance
 * listener (Kafka Streams' main consumer, COOPERATIVE: it kept them through the rebalance): the
 * reset sets needsJoinPrepare, and the next onJoinPrepare — before the next JoinGroup — sees
 * NO_GENERATION and calls invokePartitionsLost for all of them ("Giving away all assigned partitions
 * as lost since generation/memberID has been reset"); the JoinGroup goes once the listener returned.
 */
export function joinFailureLosesPartitions(ctx: ConsumerContext, ev: EventOf<'JoinGroupResponse'>): boolean {
  return ev.payload.error === 'UNKNOWN_MEMBER_ID' && ctx.revocationListener && ctx.assignment.length > 0;
}

/** The reset of a JoinGroup refused UNKNOWN_MEMBER_ID, its JoinGroup left to the revocation that follows. */
export function onJoinFailedLosing(d: Draft, ev: EventOf<'JoinGroupResponse'>, out: Out): void {
  countConsumer(d, 'failedRebalances');
  out.fact({ kind: 'clientError', client: d.client, error: ev.payload.error, during: 'JoinGroup', fatal: false });
  resetOnJoinError(d, ev.payload.error);
}

/**
 * joinGroupIfNeeded: the rebalance failures after which the member asks again at once (`continue`), not
 * after the backoff (MEMBER_ID_REQUIRED too: onMemberIdRequired).
 */
const REJOIN_AT_ONCE: readonly KafkaError[] = ['UNKNOWN_MEMBER_ID', 'ILLEGAL_GENERATION', 'REBALANCE_IN_PROGRESS', 'MEMBER_ID_REQUIRED'];

/** SyncGroupResponseHandler: the coordinator is marked unknown, and the member joins again after the backoff. */
const COORDINATOR_UNKNOWN_ERRORS: readonly KafkaError[] = ['COORDINATOR_NOT_AVAILABLE', 'NOT_COORDINATOR'];

/** SyncGroupResponseHandler's errors that it handles (a rejoin); any other is "Unexpected error from SyncGroup", a KafkaException poll() throws. */
const SYNC_ERRORS: readonly KafkaError[] = [...REJOIN_AT_ONCE, ...COORDINATOR_UNKNOWN_ERRORS];

/** How a SyncGroup error goes on (SyncGroupResponseHandler, then joinGroupIfNeeded). */
export function syncFailure(error: KafkaError): 'rejoin' | 'rejoin-after-backoff' | 'throw' {
  if (COORDINATOR_UNKNOWN_ERRORS.includes(error)) return 'rejoin-after-backoff';
  return error === 'NONE' || SYNC_ERRORS.includes(error) ? 'rejoin' : 'throw';
}

/** poll() after a JoinGroup refused for good: throws that, or (thrown already) joins again and waits (joinGroupIfNeeded). */
export function onPollAfterJoinRefused(d: Draft, call: EventOf<'poll'>, out: Out): void {
  if (throwPending(d, call, out)) return;
  d.pollWaiting = call.from;
  sendJoin(d, out);
}

/**
 * SyncGroupResponseHandler, success → ConsumerCoordinator.onJoinComplete: the assignment, positions.
 * Heartbeats run on as they started at the JoinGroup answer (nothing here resets their timer).
 */
export function onSynced(d: Draft, ev: EventOf<'SyncGroupResponse'>, out: Out): void {
  // SyncGroupResponseHandler: STABLE, and a rejoin asked for during the rebalance is done with (rejoinNeeded = false)
  d.rejoinNeeded = false;
  countConsumer(d, 'syncs');
  countConsumer(d, 'rebalances');
  // onJoinComplete: groupMetadata() now answers this generation and member id
  joinCompleted(d);
  takeNewAssignment(d, ev.payload.assignment, ev.now, out);
}

/**
 * onJoinComplete, the assignment taken (SubscriptionState.assignFromSubscribed: a partition kept
 * keeps its position and buffered records; one given up loses them) and onPartitionsAssigned.
 */
function takeNewAssignment(d: Draft, assignment: readonly TopicPartition[], now: number, out: Out): void {
  revokePartitions(d, movedAway(d, assignment));
  d.assignment = assignment;
  // ConsumerCoordinator.onJoinComplete: the auto-commit timer starts again from the assignment
  d.nextAutoCommitAt = now + d.config['auto.commit.interval.ms'];
  invokePartitionsAssigned(d, out);
  requestOffsets(d, out);
}

/** The partitions a COOPERATIVE member owns and the new assignment does not have (onJoinComplete's revokedPartitions). */
function movedAway(ctx: Pick<ConsumerContext, 'assignment'>, assignment: readonly TopicPartition[]): TopicPartition[] {
  const kept = new Set(assignment.map(keyOf));
  return ctx.assignment.filter((tp) => !kept.has(keyOf(tp)));
}

/**
 * ConsumerCoordinator.onJoinComplete under COOPERATIVE: owned partitions the new assignment does not
 * have are revoked first — the listener (StreamsRebalanceListener.onPartitionsRevoked →
 * TaskManager.handleRevocation, which commits) runs before the assignment is taken.
 */
export function syncRevokes(ctx: ConsumerContext, ev: ConsumerEvent): boolean {
  return ev.type === 'SyncGroupResponse' && cooperative(ctx) && movedAway(ctx, ev.payload.assignment).length > 0;
}

/** …the revocation: the listener is called with the partitions that moved; the assignment waits for its answer (REVOKING). */
export function onSyncedRevoking(d: Draft, ev: EventOf<'SyncGroupResponse'>, out: Out): void {
  d.rejoinNeeded = false;
  countConsumer(d, 'syncs');
  countConsumer(d, 'rebalances');
  joinCompleted(d);
  const revoked = movedAway(d, ev.payload.assignment);
  d.assignmentAfterRevocation = ev.payload.assignment;
  d.inRevocationListener = true;
  out.fact({
    kind: 'note',
    actor: d.self,
    text: `the new assignment no longer has ${revoked.map(keyOf).join(', ')}: onJoinComplete revokes ${revoked.length === 1 ? 'it' : 'them'} (onPartitionsRevoked) before taking the assignment, and asks for a follow-up rebalance`,
  });
  // the listener's commit (handleRevocation) goes out with mainConsumer.groupMetadata(): the new generation
  out.call(d.app, 'onPartitionsRevoked', { partitions: revoked, lost: false, groupMetadata: d.groupMetadata });
}

/** REVOKING for onJoinComplete's revocation (not for onJoinPrepare's). */
export function joinCompletePending(ctx: ConsumerContext): boolean {
  return ctx.assignmentAfterRevocation !== undefined;
}

/**
 * onJoinComplete's listener returned inside a poll() that finds nothing to return for the partitions
 * it keeps: Kafka's poll() loop goes round again and, a rejoin requested ("need to revoke partitions
 * and re-join"), sends the follow-up JoinGroup from that same poll() (ConsumerCoordinator.poll →
 * ensureActiveGroup) — as the model's member blocked in poll() rejoins at once. With records for the
 * partitions it keeps, the poll() returns them and the next one rejoins.
 */
export function rejoinsAfterRevocation(ctx: ConsumerContext): boolean {
  if (!joinCompletePending(ctx) || !ctx.pollWaiting || ctx.pollError) return false;
  const kept = ctx.assignmentAfterRevocation ?? [];
  return !kept.some((tp) => {
    const name = keyOf(tp);
    const position = ctx.positions[name];
    const end = ctx.bufferEnd[name];
    return (
      (ctx.buffer[name]?.length ?? 0) > 0 ||
      ctx.fetchErrors[name] !== undefined ||
      (end !== undefined && position !== undefined && end > position)
    );
  });
}

/**
 * The listener returned: the assignment is taken, and — partitions having been revoked — the member
 * asks to rejoin (requestRejoin "need to revoke partitions and re-join"): the follow-up rebalance,
 * in which the partitions it gave up go to their new owners. Its next poll() sends the JoinGroup.
 */
export function completeJoinAfterRevocation(d: Draft, now: number, out: Out): void {
  const assignment = d.assignmentAfterRevocation ?? [];
  delete d.assignmentAfterRevocation;
  delete d.inRevocationListener;
  takeNewAssignment(d, assignment, now, out);
  d.rejoinNeeded = true;
  // poll() goes on (pollForFetches): what was fetched for the partitions kept — meanwhile too — is returned
  servePoll(d, out);
}

/**
 * SyncGroupResponseHandler, an error: the member rejoins (startRejoin follows). A success that finds
 * the generation reset meanwhile (an OffsetCommit refusal reset it) fails as ILLEGAL_GENERATION.
 */
export function onSyncFailed(d: Draft, ev: EventOf<'SyncGroupResponse'>, out: Out): void {
  const r = ev.payload;
  const error = r.error === 'NONE' ? 'ILLEGAL_GENERATION' : r.error;
  // an answer NONE is recorded by syncSensor before the generation check fails it
  if (r.error === 'NONE') countConsumer(d, 'syncs');
  countConsumer(d, 'failedRebalances');
  const fenced = r.error === 'FENCED_INSTANCE_ID';
  out.fact({ kind: 'clientError', client: d.client, error, during: 'SyncGroup', fatal: fenced });
  // e.g. COORDINATOR_LOAD_IN_PROGRESS (a coordinator loading its partition): not retried, poll() throws
  // it (the next poll() joins again); an application without a handler for it dies. FENCED_INSTANCE_ID:
  // SyncGroupResponseHandler raises it "as a fatal error" — poll() throws FencedInstanceIdException
  if (syncFailure(r.error) === 'throw') failPoll(d, out, fenced ? 'FencedInstanceIdException' : 'KafkaException');
  // resetStateOnResponseError(SYNC_GROUP, error, error != ILLEGAL_GENERATION): NO_GENERATION, and
  // needsJoinPrepare again (the member id kept for ILLEGAL_GENERATION, "might still be valid")
  if (r.error === 'UNKNOWN_MEMBER_ID') d.memberId = '';
  if (r.error === 'UNKNOWN_MEMBER_ID' || r.error === 'ILLEGAL_GENERATION') d.generationId = -1;
}

/**
 * A SyncGroup refused UNKNOWN_MEMBER_ID or ILLEGAL_GENERATION to a member that still holds partitions
 * and has a rebalance listener (COOPERATIVE: it kept them through the rebalance): the reset sets
 * needsJoinPrepare, and the next onJoinPrepare gives them away as lost before the next JoinGroup —
 * as after a refused JoinGroup (joinFailureLosesPartitions).
 */
export function syncFailureLosesPartitions(ctx: ConsumerContext, ev: EventOf<'SyncGroupResponse'>): boolean {
  const error = ev.payload.error;
  // a success that finds the generation reset meanwhile is resetStateAndRejoin(…, true) (joinGroupIfNeeded)
  const reset = error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION' || (error === 'NONE' && outOfGeneration(ctx));
  return reset && ctx.revocationListener && ctx.assignment.length > 0;
}

/**
 * ConsumerCoordinator.onJoinPrepare with a listener that must see its partitions go (Kafka Streams'
 * main consumer): a member that holds partitions calls it before it rejoins.
 */
export function revokesFirst(ctx: ConsumerContext): boolean {
  // COOPERATIVE: onJoinPrepare revokes nothing (the subscription is unchanged) — unless the
  // generation is gone, when every partition is lost (invokePartitionsLost)
  return ctx.revocationListener && ctx.assignment.length > 0 && (!cooperative(ctx) || outOfGeneration(ctx));
}

/**
 * onJoinPrepare → invokePartitionsRevoked, or invokePartitionsLost when the member's generation is
 * gone (an UNKNOWN_MEMBER_ID or ILLEGAL_GENERATION answer reset it): the listener runs inside poll(),
 * before JoinGroup; the consumer waits for it in REVOKING, its heartbeats going on.
 */
export function startRevocation(d: Draft, out: Out): void {
  d.inRevocationListener = true;
  out.call(d.app, 'onPartitionsRevoked', { partitions: d.assignment, lost: outOfGeneration(d) });
}

/**
 * Heartbeats stopped, JoinGroup sent (AbstractCoordinator.initiateJoinGroup). EAGER: every partition
 * given up first. COOPERATIVE: the member keeps its partitions, their positions and fetches, through
 * the rebalance — unless its generation is gone (onPartitionsLost gave them up) or it unsubscribed
 * (`unsubscribed`: Streams' handleTaskMigrated) — and Streams' assignor, building the JoinGroup's
 * subscription (StreamsPartitionAssignor.subscriptionUserData), calls TaskManager.handleRebalanceStart.
 */
export function startRejoin(d: Draft, out: Out, unsubscribed = false): void {
  stopHeartbeatThread(out);
  d.rejoinNeeded = false;
  delete d.assignmentAfterRevocation;
  delete d.inRevocationListener;
  if (!cooperative(d) || unsubscribed || outOfGeneration(d)) revokeAll(d);
  else if (d.assignment.length > 0) out.call(d.app, 'onRebalanceStart');
  sendJoin(d, out);
}

/**
 * Heartbeat.sentHeartbeat: the heartbeat timer starts again from heartbeat.interval.ms as each heartbeat
 * goes out. With the coordinator unknown it waits for it; the heartbeat thread looks it up — except
 * while a poll() waits, when the thread is blocked behind ensureCoordinatorReady (pollLookup.ts) and
 * the lookups are poll()'s. HeartbeatThread.run checks the session first: a thread that wakes past its
 * session deadline (a pause longer than session.timeout.ms) gives up on its coordinator instead of
 * sending, and wakes again after retry.backoff.ms.
 */
export function onHeartbeatDue(d: Draft, now: number, out: Out): void {
  if (sessionExpired(d, now)) {
    giveUpOnCoordinator(d, now, out);
    out.timer('heartbeat', 'heartbeatDue', d.config['retry.backoff.ms'], {}, true);
    return;
  }
  heartbeatThreadWakes(d, now);
  const heartbeat = {
    correlationId: corr(d),
    groupId: d.config['group.id'],
    generationId: d.generationId,
    memberId: d.memberId,
    ...instanceId(d),
  };
  sendToCoordinator(d, out, 'Heartbeat', heartbeat, true, !inPollLookup(d));
  out.timer('heartbeat', 'heartbeatDue', d.config['heartbeat.interval.ms'], {}, true);
}

/**
 * Heartbeat.failHeartbeat, which AbstractCoordinator.HeartbeatThread's listener calls for every
 * failed heartbeat but a RebalanceInProgressException or FencedInstanceIdException (a lost request —
 * disconnect or request.timeout.ms —, COORDINATOR_NOT_AVAILABLE / NOT_COORDINATOR, an unexpected
 * error, UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION): the next heartbeat goes out
 * `retryBackoff.backoff(heartbeatAttempts++)` from now — retry.backoff.ms doubling to
 * retry.backoff.max.ms, *without jitter* (Kafka's is ±20 %) — instead of heartbeat.interval.ms.
 * Only Heartbeat.receiveHeartbeat sets the attempts back to 0. `heartbeating`: the member is in a
 * state where its heartbeat thread runs (COMPLETING_REBALANCE, STABLE, and the model's JOIN_PREPARE
 * and REVOKING); one whose generation was reset is UNJOINED and sends nothing (HeartbeatThread.run:
 * hasNotJoinedGroup). The coordinator a disconnect or a coordinator error marked unknown is looked
 * up at once (HeartbeatThread.run: coordinatorUnknown → lookupCoordinator).
 */
export function failHeartbeat(d: Draft, out: Out, heartbeating: boolean, now: number): void {
  const backoff = commitBackoff(d.config, d.heartbeatAttempts);
  d.heartbeatAttempts += 1;
  if (!heartbeating || outOfGeneration(d)) return;
  // the listener's notify(): the thread wakes now
  heartbeatThreadWakes(d, now);
  out.timer('heartbeat', 'heartbeatDue', backoff, {}, true);
  if (groupCoordinatorOnLeader(d.meta) && !checkAndGetCoordinator(d)) lookupCoordinator(d, out);
}

/**
 * A heartbeat error that makes the member rejoin (every error but the coordinator's own
 * unavailability, and FENCED_INSTANCE_ID: the heartbeat thread fails instead, onHeartbeatFenced).
 */
function asksRejoin(error: KafkaError): boolean {
  return error !== 'NONE' && error !== 'FENCED_INSTANCE_ID' && !COORDINATOR_ERRORS.includes(error);
}

/**
 * A static member's heartbeat answered FENCED_INSTANCE_ID (another instance joined with its
 * group.instance.id and took its member's place): HeartbeatResponseHandler resets the member
 * (resetStateOnResponseError(HEARTBEAT, error, true): no generation, no member id), and the heartbeat
 * thread's listener sets its failure (`heartbeatThread.failed`) instead of heartbeating on
 * ("Caught fenced group.instance.id … error in heartbeat thread"): the thread stops, and poll() —
 * the one waiting now, or the next — throws FencedInstanceIdException (pollHeartbeat).
 */
function onHeartbeatFenced(d: Draft, out: Out): void {
  out.fact({ kind: 'clientError', client: d.client, error: 'FENCED_INSTANCE_ID', during: 'Heartbeat', fatal: true });
  d.memberId = '';
  d.generationId = -1;
  d.rejoinNeeded = true;
  stopHeartbeatThread(out);
  failPoll(d, out, 'FencedInstanceIdException');
}

/** AbstractCoordinator.HeartbeatResponseHandler: the member id is forgotten for UNKNOWN_MEMBER_ID, the generation for both. */
function forget(d: Draft, error: KafkaError): void {
  if (error === 'UNKNOWN_MEMBER_ID') d.memberId = '';
  if (error === 'UNKNOWN_MEMBER_ID' || error === 'ILLEGAL_GENERATION') d.generationId = -1;
}

/** `syncing`: the member's SyncGroup is in flight (COMPLETING_REBALANCE). */
export function onHeartbeatResponse(d: Draft, ev: EventOf<'HeartbeatResponse'>, out: Out, syncing = false): void {
  const { error } = ev.payload;
  // Heartbeat.receiveHeartbeat: an answer, or a REBALANCE_IN_PROGRESS (heartbeating on during a rebalance keeps the session)
  if (error === 'NONE' || error === 'REBALANCE_IN_PROGRESS') {
    d.heartbeatAttempts = 0;
    resetSessionTimeout(d, ev.now, out);
  }
  if (error === 'NONE') return;
  // an answer to a member already reset (UNJOINED) changes nothing
  if (error === 'FENCED_INSTANCE_ID') {
    if (!outOfGeneration(d)) onHeartbeatFenced(d, out);
    return;
  }
  // HeartbeatResponseHandler: a coordinator error marks the coordinator unknown; the member keeps its
  // generation, and heartbeats again after the backoff (failHeartbeat)
  if (!asksRejoin(error)) {
    failHeartbeat(d, out, true, ev.now);
    return;
  }
  // …and REBALANCE_IN_PROGRESS asks for a rejoin only from a STABLE member; during COMPLETING_REBALANCE it is ignored
  if (error === 'REBALANCE_IN_PROGRESS' && syncing) return;
  if (!d.rejoinNeeded) out.fact({ kind: 'clientError', client: d.client, error, during: 'Heartbeat', fatal: false });
  forget(d, error);
  // a member that is no longer in the generation stops heartbeating (its failure still counts an
  // attempt); one asked to rejoin keeps its session alive
  if (error !== 'REBALANCE_IN_PROGRESS') {
    stopHeartbeatThread(out);
    failHeartbeat(d, out, false, ev.now);
  }
  d.rejoinNeeded = true;
}

/** A heartbeat answer that makes a member blocked in poll() rejoin now (otherwise its next poll() does). */
export function heartbeatRejoinsNow(ctx: ConsumerContext, ev: ConsumerEvent): boolean {
  return ev.type === 'HeartbeatResponse' && asksRejoin(ev.payload.error) && ctx.pollWaiting !== null;
}

/** …and, with the member id and generation that answer leaves, onJoinPrepare calls the rebalance listener first. */
export function heartbeatRejoinsAfterRevocation(ctx: ConsumerContext, ev: ConsumerEvent): boolean {
  if (ev.type !== 'HeartbeatResponse' || !heartbeatRejoinsNow(ctx, ev)) return false;
  const after: Draft = { ...ctx };
  forget(after, ev.payload.error);
  return revokesFirst(after);
}

/** …and, with the member id and generation that answer leaves, onJoinPrepare commits first. */
export function heartbeatRejoinsAfterCommit(ctx: ConsumerContext, ev: ConsumerEvent): boolean {
  if (ev.type !== 'HeartbeatResponse' || !heartbeatRejoinsNow(ctx, ev)) return false;
  const after: Draft = { ...ctx };
  forget(after, ev.payload.error);
  return needsJoinPrepare(after);
}

/**
 * Kafka Streams' unsubscribe() + subscribe() after a TaskMigratedException (StreamThread.handleTaskMigrated):
 * the member gives up its partitions and positions and rejoins the group, so it reads again from the
 * committed offsets of a new generation. Already joining, it only confirms.
 */
export function onResubscribe(_d: Draft, call: EventOf<'resubscribe'>, out: Out): void {
  out.call(call.from, 'reply', { call: 'resubscribe', ok: true });
}

/** close(): heartbeats stop, LeaveGroup if this member is in the group (AbstractCoordinator.maybeLeaveGroup). */
export function onClose(d: Draft, call: EventOf<'close'>, out: Out, joining = false): void {
  leaveAndClose(d, call.from, out, joining);
}

/** close() after its auto-commit ended (ConsumerCoordinator.close → super.close): the application is answered. */
export function onCloseCommitEnded(d: Draft, out: Out): void {
  leaveAndClose(d, d.app, out, false);
}

/**
 * AbstractCoordinator.maybeLeaveGroup: LeaveGroup only from a member with a member id that is not
 * UNJOINED — it has a generation, or its JoinGroup/SyncGroup is in flight (`joining`); a generation
 * reset by an UNKNOWN_MEMBER_ID / ILLEGAL_GENERATION answer makes it UNJOINED — and only to a known
 * coordinator (`!coordinatorUnknown()`): close() does not look one up for it.
 */
function leaveAndClose(d: Draft, caller: ActorId, out: Out, joining: boolean): void {
  // the heartbeat thread is closed: no poll timer any more
  out.cancel(POLL_TIMER);
  maybeLeaveGroup(d, out, joining);
  out.call(caller, 'reply', { call: 'close', ok: true });
}

/**
 * AbstractCoordinator.maybeLeaveGroup's request (leaveAndClose says when it goes out); heartbeats
 * stop. Only a dynamic member sends it (isDynamicMember): "consumer with valid group.instance.id is
 * viewed as static member that never sends LeaveGroup, and the membership expiration is only
 * controlled by session timeout".
 */
function maybeLeaveGroup(d: Draft, out: Out, joining: boolean): void {
  stopHeartbeatThread(out);
  if (sendsLeaveGroup(d, joining))
    sendToCoordinator(d, out, 'LeaveGroup', {
      correlationId: corr(d),
      groupId: d.config['group.id'],
      memberId: d.memberId,
    });
}

/** maybeLeaveGroup's condition: `isDynamicMember() && !coordinatorUnknown() && state != UNJOINED && generation.hasMemberId()`. */
function sendsLeaveGroup(d: Draft, joining: boolean): boolean {
  const unjoined = d.generationId < 0 && !joining;
  return Boolean(d.config['group.id'] && isDynamicMember(d) && d.memberId && !unjoined && checkAndGetCoordinator(d));
}

/**
 * The poll timer expired with the application outside poll() and the member in its generation:
 * AbstractCoordinator.HeartbeatThread.run checks heartbeat.pollTimeoutExpired (only while the member
 * has joined: STABLE here) and a member whose generation was already reset is UNJOINED, its heartbeat
 * thread disabled.
 */
export function pollTimeoutExpires(ctx: ConsumerContext): boolean {
  return ctx.pollWaiting === null && !outOfGeneration(ctx);
}

/**
 * A heartbeat falls due with the poll timer expired too (the application outside poll() longer than
 * max.poll.interval.ms: typically a process back from a pause, when every timer it slept through
 * fires at once). AbstractCoordinator.HeartbeatThread.run checks, on one pass, the session
 * (`sessionTimeoutExpired` → markCoordinatorUnknown, onHeartbeatDue's first branch), then the poll
 * timer (`pollTimeoutExpired` → handlePollTimeoutExpiry), and only then `shouldHeartbeat`: the poll
 * timeout is handled instead of the heartbeat, and the member, UNJOINED by it, sends no heartbeat
 * (`hasNotJoinedGroup` → disable).
 */
export function pollTimeoutOverdue(ctx: ConsumerContext, now: number): boolean {
  return pollTimeoutExpires(ctx) && ctx.pollDeadline !== null && now >= ctx.pollDeadline && !sessionExpired(ctx, now);
}

/**
 * AbstractCoordinator.handlePollTimeoutExpiry → maybeLeaveGroup("consumer poll timeout has expired."):
 * LeaveGroup, then resetGenerationOnLeaveGroup — UNJOINED, NO_GENERATION (member id cleared), a rejoin
 * needed. The member keeps its partitions until the next poll(): its onJoinPrepare, with no
 * generation, calls onPartitionsLost (not Revoked) and JoinGroup goes out with an empty member id; a
 * commitSync() meanwhile has no generation and throws CommitFailedException. (Kafka's heartbeat
 * thread notices the expiry at its next wake-up, up to retry.backoff.ms later; the model at once.)
 */
export function onPollTimeoutExpired(d: Draft, out: Out): void {
  out.fact({
    kind: 'note',
    actor: d.self,
    text: pollTimeoutNote(d.config['max.poll.interval.ms'], sendsLeaveGroup(d, false), !isDynamicMember(d)),
  });
  maybeLeaveGroup(d, out, false);
  // the poll timer has done its work (the heartbeat thread, not the timer, may have seen it first)
  out.cancel(POLL_TIMER);
  d.memberId = '';
  d.generationId = -1;
  d.rejoinNeeded = true;
}

/**
 * What the poll timeout did. maybeLeaveGroup sends LeaveGroup only from a dynamic member (and with
 * the coordinator known): a static member — "viewed as static member that never sends LeaveGroup,
 * and the membership expiration is only controlled by session timeout" — stays in the group with
 * its partitions, and its rejoin with its group.instance.id replaces its old member id.
 */
export function pollTimeoutNote(intervalMs: number, left: boolean, staticMember: boolean): string {
  const head = `poll() was not called for max.poll.interval.ms (${intervalMs} ms)`;
  if (left) return `${head}: the consumer leaves the group (consumer poll timeout has expired)`;
  if (staticMember)
    return `${head}: a static member sends no LeaveGroup — it drops its generation and member id and rejoins with its group.instance.id at its next poll(); the group keeps it, and its partitions, until session.timeout.ms (consumer poll timeout has expired)`;
  return `${head}: the group coordinator is unknown, so no LeaveGroup is sent — it drops its generation and member id and rejoins at its next poll(); the group drops it at session.timeout.ms (consumer poll timeout has expired)`;
}
