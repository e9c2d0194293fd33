/**
 * The consumer client (KafkaConsumer, classic group protocol) as a statechart. Outside: created,
 * closing (close()'s auto-commit before LeaveGroup), closed, down. Inside `running`, two parallel regions, as Kafka's consumer is built:
 *
 * - membership (AbstractCoordinator.MemberState): UNJOINED → PREPARING_REBALANCE (JoinGroup) →
 *   COMPLETING_REBALANCE (SyncGroup) → STABLE, back to PREPARING_REBALANCE when the coordinator
 *   says the group is rebalancing or this member's generation is gone — through JOIN_PREPARE
 *   (ConsumerCoordinator.onJoinPrepare's commit) when auto-commit is on, or REVOKING (its rebalance
 *   listener's onPartitionsRevoked) for Kafka Streams' main consumer. Without group.id the
 *   consumer is USER_ASSIGNED: every partition of its topics, no commits.
 * - fetching (SubscriptionState and the Fetcher): STOPPED while the member has no partitions to
 *   read, else ASSIGNED with INITIALIZING (a position still unknown: committed offsets or a reset
 *   being fetched), FETCH_IN_FLIGHT, AWAITING_METADATA (a partition's leader unknown until a
 *   Metadata answer names it) or IDLE (nothing in flight: records buffered, or the application
 *   between polls — Fetches go out only from inside poll(), fetcher.ts).
 *
 * The parts are Kafka's classes: membership.ts, commits.ts, fetcher.ts, positions.ts. Each handler
 * works on a draft of the context; guards decide every transition. On a rebalance a plain consumer
 * gives up every partition first (EAGER); Kafka Streams' main consumer (COOPERATIVE) keeps reading
 * its partitions through the rebalance and, at onJoinComplete, revokes only those that moved
 * (REVOKING), then asks for a follow-up rebalance (membership.ts).
 */
import { not, or, setup, stateIn } from 'xstate';
import { handle, type Out } from '../actors/out';
import { leaderOf } from '../cluster/metadata';
import type { TopicPartition } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import {
  closeCommitTimesOut,
  commitRefusalRejoinsAfterCommit,
  commitRefusalRejoinsAfterRevocation,
  commitRefusalRejoinsNow,
  commitTimedOut,
  endsCloseCommit,
  endsJoinPrepare,
  joinPrepareRetryRefused,
  needsCloseCommit,
  needsJoinPrepare,
  onAutoCommitDue,
  onCommitDeadline,
  onCommitRetry,
  onCommitSync,
  onOffsetCommitResponse,
  onOffsetFetchResponse,
  onPoll,
  onPollAfterPollError,
  requestOffsets,
  startCloseCommit,
  startJoinPrepare,
  waitingPoll,
} from './commits';
import { action, type ConsumerContext, type ConsumerInput, groupMetadata as groupMetadataOf, initialContext } from './consumerContext';
import { firstMetadataNote } from './consumerMetadata';
import { onEndOffsets } from './endOffsets';
import type { ConsumerEvent, EventOf } from './events';
import { fetchWhilePolling, onConsumerMetadataResponse, onFetchResponse, onFetchResponseUnassigned } from './fetcher';
import { coordinatorUnknown, onFindCoordinatorResponse, onHeartbeatThreadLookup } from './groupLookup';
import {
  completeJoinAfterRevocation,
  heartbeatRejoinsAfterCommit,
  heartbeatRejoinsAfterRevocation,
  heartbeatRejoinsNow,
  joinCompletePending,
  joinFailureLosesPartitions,
  keepsPartitions,
  onClose,
  onCloseCommitEnded,
  onHeartbeatDue,
  onHeartbeatResponse,
  onJoined,
  onJoinedCoordinatorUnknown,
  onJoinFailed,
  onJoinFailedLosing,
  onLeaderMetadata,
  onPollAfterJoinRefused,
  onPollTimeoutExpired,
  onResubscribe,
  onSynced,
  onSyncedRevoking,
  onSyncFailed,
  pollTimeoutExpires,
  pollTimeoutOverdue,
  rejoinAfterBackoff,
  rejoinsAfterRevocation,
  revokesFirst,
  sendJoin,
  startRejoin,
  startRevocation,
  syncFailure,
  syncFailureLosesPartitions,
  syncRevokes,
} from './membership';
import { onListOffsetsResponse } from './offsetFetcher';
import { pollErrorPending } from './pollErrors';
import { onCoordinatorLookupRetry } from './pollLookup';
import { assignAll, onListenerDone, onSeek, onSeekToBeginning, onSeekToCommitted } from './positions';
import { onOffsetsForLeaderEpochResponse, onValidationRetry } from './positionValidation';
import { closeCommitLost, heartbeatLost, joinOrSyncLost, joinPrepareCommitLost, onRequestLost } from './requestLost';
import { onHeartbeatSessionExpired, stopHeartbeatThread } from './sessionTimer';

export { commitBackoff, DEFAULT_API_TIMEOUT_MS, hasUncommittedPositions, maybeAutoCommit } from './commits';
export type { ConsumerContext, ConsumerInput, PendingCommit } from './consumerContext';
export { groupMetadata } from './consumerContext';
export type { ConsumerEvent } from './events';

/** The machine's actions: each handler of the parts, run on a draft of the context. */
const a = {
  sendJoin: action((d, _e, out) => sendJoin(d, out)),
  rejoinAfterBackoff: action((d, _e, out) => rejoinAfterBackoff(d, out)),
  /** A JoinGroup sent now replaces the one the backoff was for. */
  cancelRejoinBackoff: action((_d, _e, out) => out.cancel('rejoin')),
  joined: action<EventOf<'JoinGroupResponse'>>(onJoined),
  /** …with the coordinator unknown: no SyncGroup (COORDINATOR_NOT_AVAILABLE), JoinGroup again after the backoff. */
  joinedCoordinatorUnknown: action<EventOf<'JoinGroupResponse'>>(onJoinedCoordinatorUnknown),
  joinFailed: action<EventOf<'JoinGroupResponse'>>(onJoinFailed),
  joinFailedLosing: action<EventOf<'JoinGroupResponse'>>(onJoinFailedLosing),
  synced: action<EventOf<'SyncGroupResponse'>>(onSynced),
  syncFailed: action<EventOf<'SyncGroupResponse'>>(onSyncFailed),
  startRejoin: action((d, _e, out) => startRejoin(d, out)),
  /** unsubscribe() + subscribe() (Streams' handleTaskMigrated): every partition given up, whatever the protocol. */
  startRejoinUnsubscribed: action((d, _e, out) => startRejoin(d, out, true)),
  /** COOPERATIVE onJoinComplete: the partitions that moved are revoked first (REVOKING), the assignment waits. */
  syncedRevoking: action<EventOf<'SyncGroupResponse'>>(onSyncedRevoking),
  completeJoinAfterRevocation: action((d, e, out) => completeJoinAfterRevocation(d, e.now, out)),
  startRevocation: action((d, _e, out) => startRevocation(d, out)),
  startJoinPrepare: action((d, e, out) => startJoinPrepare(d, e.now, out)),
  startCloseCommit: action((d, e, out) => startCloseCommit(d, e.now, out)),
  heartbeatDue: action((d, e, out) => onHeartbeatDue(d, e.now, out)),
  heartbeatSessionExpired: action((d, e, out) => onHeartbeatSessionExpired(d, e.now, out)),
  pollTimeoutExpired: action((d, _e, out) => onPollTimeoutExpired(d, out)),
  heartbeatResponse: action<EventOf<'HeartbeatResponse'>>(onHeartbeatResponse),
  /** The same, while the member's SyncGroup is in flight: REBALANCE_IN_PROGRESS is ignored. */
  heartbeatResponseSyncing: action<EventOf<'HeartbeatResponse'>>((d, ev, out) => onHeartbeatResponse(d, ev, out, true)),
  /** Back to PREPARING_REBALANCE from COMPLETING_REBALANCE: no heartbeats (AbstractCoordinator's heartbeat thread skips them while hasNotJoinedGroup()). */
  stopHeartbeats: action((_d, _e, out) => stopHeartbeatThread(out)),
  resubscribe: action<EventOf<'resubscribe'>>(onResubscribe),
  close: action<EventOf<'close'>>(onClose),
  /** close() while the member's JoinGroup or SyncGroup is in flight (not UNJOINED, whatever its generation). */
  closeJoining: action<EventOf<'close'>>((d, call, out) => onClose(d, call, out, true)),
  closeCommitEnded: action((d, _e, out) => onCloseCommitEnded(d, out)),
  pollAfterJoinRefused: action<EventOf<'poll'>>(onPollAfterJoinRefused),
  pollAfterPollError: action<EventOf<'poll'>>(onPollAfterPollError),
  assignAll: action((d, _e, out) => assignAll(d, out)),
  poll: action<EventOf<'poll'>>(onPoll),
  waitingPoll: action<EventOf<'poll'>>(waitingPoll),
  /** poll() as the member rejoins: a COOPERATIVE member keeps fetching its partitions (poll() does not wait for the join), an EAGER one has none. */
  pollOrWait: action<EventOf<'poll'>>((d, call, out) => (keepsPartitions(d) ? onPoll(d, call, out) : waitingPoll(d, call))),
  pollWaits: action<EventOf<'poll'>>((d, call) => {
    d.pollWaiting = call.from;
  }),
  autoCommitDue: action<EventOf<'autoCommitDue'>>(onAutoCommitDue),
  commitSync: action<EventOf<'commitSync'>>(onCommitSync),
  /**
   * commitSync() while the member rebalances (generationIfStable() null, rebalanceInProgress()):
   * RebalanceInProgressException without a request — unless there is nothing to commit.
   */
  commitSyncRejoining: action<EventOf<'commitSync'>>((d, call, out) => onCommitSync(d, call, out, 'PREPARING_REBALANCE')),
  commitSyncSyncing: action<EventOf<'commitSync'>>((d, call, out) => onCommitSync(d, call, out, 'COMPLETING_REBALANCE')),
  offsetCommitResponse: action<EventOf<'OffsetCommitResponse'>>(onOffsetCommitResponse),
  /** The same, while the member's JoinGroup is in flight: a stale generation's refusal changes nothing, a queued commit is refused. */
  offsetCommitResponseRejoining: action<EventOf<'OffsetCommitResponse'>>((d, ev, out) =>
    onOffsetCommitResponse(d, ev, out, 'PREPARING_REBALANCE'),
  ),
  /** …while its SyncGroup is in flight: a queued commit is refused (RebalanceInProgressException). */
  offsetCommitResponseSyncing: action<EventOf<'OffsetCommitResponse'>>((d, ev, out) =>
    onOffsetCommitResponse(d, ev, out, 'COMPLETING_REBALANCE'),
  ),
  commitRetry: action((d, e, out) => onCommitRetry(d, out, e.now)),
  /** commitSync()'s or close()'s deadline while its commit waits for the coordinator or its answer: TimeoutException. */
  commitDeadline: action<EventOf<'commitDeadline'>>(onCommitDeadline),
  commitRetryRejoining: action((d, e, out) => onCommitRetry(d, out, e.now, 'PREPARING_REBALANCE')),
  commitRetrySyncing: action((d, e, out) => onCommitRetry(d, out, e.now, 'COMPLETING_REBALANCE')),
  offsetFetchResponse: action<EventOf<'OffsetFetchResponse'>>(onOffsetFetchResponse),
  requestOffsets: action((d, _e, out) => requestOffsets(d, out)),
  fetchResponse: action<EventOf<'FetchResponse'>>(onFetchResponse),
  /** A Fetch answered while the member holds no partitions: its broker may be fetched from again, the data is dropped. */
  fetchResponseUnassigned: action<EventOf<'FetchResponse'>>(onFetchResponseUnassigned),
  /** A fetch's retry.backoff.ms passed after an error answer: fetched again by a waiting poll(), else by the next one. */
  fetchRetry: action((d, _e, out) => fetchWhilePolling(d, out)),
  listOffsetsResponse: action<EventOf<'ListOffsetsResponse'>>(onListOffsetsResponse),
  offsetsForLeaderEpochResponse: action<EventOf<'OffsetsForLeaderEpochResponse'>>(onOffsetsForLeaderEpochResponse),
  validationRetry: action<EventOf<'validationRetry'>>(onValidationRetry),
  /** poll()'s client.poll waited retry.backoff.ms with a reset not in flight: a pass of its loop (the wrapper sends the resets due). */
  pollPass: action(() => {}),
  endOffsets: action<EventOf<'endOffsets'>>(onEndOffsets),
  seek: action<EventOf<'seek'>>(onSeek),
  seekToBeginning: action<EventOf<'seekToBeginning'>>(onSeekToBeginning),
  seekToCommitted: action<EventOf<'seekToCommitted'>>(onSeekToCommitted),
  listenerDone: action<EventOf<'partitionsAssignedDone'>>(onListenerDone),
  // KafkaConsumer.groupMetadata(): a getter, answered at once in any state; it changes nothing
  groupMetadata: handle((ctx: ConsumerContext, call: EventOf<'groupMetadata'>, out: Out) => {
    out.call(call.from, 'reply', { call: 'groupMetadata', ok: true, groupMetadata: groupMetadataOf(ctx) });
    return ctx;
  }),
  requestLost: action<EventOf<'disconnected'>>(onRequestLost),
  /** The same while the member rebalances: a commit queued behind a lost one is refused (RebalanceInProgressException). */
  requestLostRejoining: action<EventOf<'disconnected'>>((d, e, out) => onRequestLost(d, e, out, false, 'PREPARING_REBALANCE')),
  requestLostSyncing: action<EventOf<'disconnected'>>((d, e, out) => onRequestLost(d, e, out, false, 'COMPLETING_REBALANCE')),
  /** The same, for a Heartbeat lost while the member heartbeats: the next one after the backoff. */
  heartbeatLost: action<EventOf<'disconnected'>>((d, e, out) => onRequestLost(d, e, out, true)),
  /** A Metadata answer: leaders learned; the group leader's SyncGroup held for it goes out (consumerMetadata.ts). */
  metadataResponse: action<EventOf<'MetadataResponse'>>((d, ev, out) => {
    if (onConsumerMetadataResponse(d, ev, out)) onLeaderMetadata(d, out);
  }),
  /**
   * The consumer starts (or its process restarts): its first NetworkClient poll sends the Metadata
   * request subscribe() asked for before any other request (the wrapper sends it; consumerMetadata.ts).
   */
  subscribe: action((d, _e, out) => {
    if (d.metadata.updateRequested) out.fact({ kind: 'note', actor: d.self, text: firstMetadataNote(d.topics) });
  }),
  findCoordinatorResponse: action<EventOf<'FindCoordinatorResponse'>>(onFindCoordinatorResponse),
  coordinatorLookupRetry: action<EventOf<'coordinatorLookupRetry'>>(onCoordinatorLookupRetry),
  /** The heartbeat thread wakes with the coordinator unknown (only where it runs: the states with heartbeats). */
  heartbeatThreadLookup: action((d, ev, out) => onHeartbeatThreadLookup(d, ev, out)),
  // retry.backoff.ms (or metadata.max.age.ms) passed: the wrapper sends the update that is now due
  metadataUpdateDue: action(() => {}),
  // an idle connection closed: the wrapper takes the disconnect (reconnect backoff, metadata update)
  connectionClosed: action(() => {}),
  /** A broker's reconnect backoff is over (the wrapper lets it be tried): a waiting poll() fetches from it again. */
  reconnectBackoffExpired: action((d, _e, out) => fetchWhilePolling(d, out)),
};

type Args = { context: ConsumerContext; event: ConsumerEvent };
/**
 * A fetch is in flight (checked at every settle: asks for one key, allocates no key list): for a
 * partition, or to a broker — one sent before a rebalance or seek still holds its broker
 * (nodesWithPendingFetchRequests) after its partitions were forgotten.
 */
const fetchInFlight = (c: ConsumerContext) => {
  for (const _ in c.fetching) return true;
  for (const _ in c.fetchingFrom) return true;
  return false;
};
/**
 * A partition assigned that has no position yet. (This guard and the next are loops, not `some` with
 * a callback: the fetching phases check them at every settle, and each callback was a closure made
 * for the call.)
 */
const positionsMissing = (c: ConsumerContext) => {
  const assignment = c.assignment;
  for (let i = 0; i < assignment.length; i++) if (c.positions[keyOf(assignment[i] as TopicPartition)] === undefined) return true;
  return false;
};
/** A partition that could be fetched but for its leader: the client's metadata names none. */
const leaderUnknown = (c: ConsumerContext) => {
  const assignment = c.assignment;
  for (let i = 0; i < assignment.length; i++) {
    const tp = assignment[i] as TopicPartition;
    if (leaderOf(c.meta, tp.topic, tp.partition) === null) return true;
  }
  return false;
};

/**
 * The phase of the fetching region, from what is in flight: each substate leaves for the phase that
 * holds. AWAITING_METADATA: nothing to fetch until a Metadata answer names a partition's leader.
 */
const PHASES = {
  INITIALIZING: 'positionsMissing',
  FETCH_IN_FLIGHT: 'fetchInFlight',
  AWAITING_METADATA: 'awaitingMetadata',
  IDLE: 'nothingInFlight',
} as const;
const phaseStates = Object.fromEntries(
  Object.keys(PHASES).map((phase) => [
    phase,
    {
      always: Object.entries(PHASES)
        .filter(([other]) => other !== phase)
        .map(([other, guard]) => ({ guard, target: other })),
    },
  ]),
) as Record<keyof typeof PHASES, object>;

/** The events a member with its partitions handles the same way whether it is in a group (STABLE) or not (USER_ASSIGNED). */
const withPartitions = {
  poll: [{ guard: 'pollErrorPending', actions: a.pollAfterPollError }, { actions: a.poll }],
  autoCommitDue: { actions: a.autoCommitDue },
  commitSync: { actions: a.commitSync },
  OffsetCommitResponse: { actions: a.offsetCommitResponse },
} as const;

export const consumerMachine = setup({
  types: {} as { context: ConsumerContext; input: ConsumerInput; events: ConsumerEvent },
  guards: {
    noGroup: ({ context }: Args) => context.config['group.id'] === null,
    joinSucceeded: ({ event }: Args) => event.type === 'JoinGroupResponse' && event.payload.error === 'NONE',
    // sendSyncGroupRequest: coordinatorUnknown() → RequestFuture.coordinatorNotAvailable()
    joinedCoordinatorUnknown: ({ context, event }: Args) =>
      event.type === 'JoinGroupResponse' && event.payload.error === 'NONE' && coordinatorUnknown(context),
    // SyncGroupResponseHandler: a success counts only if the generation was not reset meanwhile (hasGenerationReset)
    syncSucceeded: ({ context, event }: Args) =>
      event.type === 'SyncGroupResponse' && event.payload.error === 'NONE' && context.generationId >= 0,
    syncRejoinsAfterBackoff: ({ event }: Args) =>
      event.type === 'SyncGroupResponse' && syncFailure(event.payload.error) === 'rejoin-after-backoff',
    syncRevokes: ({ context, event }: Args) =>
      event.type === 'SyncGroupResponse' && event.payload.error === 'NONE' && context.generationId >= 0 && syncRevokes(context, event),
    joinCompletePending: ({ context }: Args) => joinCompletePending(context),
    rejoinsAfterRevocation: ({ context }: Args) => rejoinsAfterRevocation(context),
    keepsPartitions: ({ context }: Args) => keepsPartitions(context),
    syncFailedLosesPartitions: ({ context, event }: Args) =>
      event.type === 'SyncGroupResponse' && syncFailureLosesPartitions(context, event),
    joinFailedLosesPartitions: ({ context, event }: Args) =>
      event.type === 'JoinGroupResponse' && joinFailureLosesPartitions(context, event),
    syncThrows: ({ event }: Args) => event.type === 'SyncGroupResponse' && syncFailure(event.payload.error) === 'throw',
    rejoinNeeded: ({ context }: Args) => context.rejoinNeeded,
    rejoinNeededAfterCommit: ({ context }: Args) => context.rejoinNeeded && needsJoinPrepare(context),
    rejoinNeededAfterRevocation: ({ context }: Args) => context.rejoinNeeded && revokesFirst(context),
    heartbeatRejoinsNow: ({ context, event }: Args) => heartbeatRejoinsNow(context, event),
    heartbeatRejoinsAfterRevocation: ({ context, event }: Args) => heartbeatRejoinsAfterRevocation(context, event),
    heartbeatRejoinsAfterCommit: ({ context, event }: Args) => heartbeatRejoinsAfterCommit(context, event),
    commitRefusalRejoinsNow: ({ context, event }: Args) => commitRefusalRejoinsNow(context, event),
    commitRefusalRejoinsAfterRevocation: ({ context, event }: Args) => commitRefusalRejoinsAfterRevocation(context, event, revokesFirst),
    commitRefusalRejoinsAfterCommit: ({ context, event }: Args) => commitRefusalRejoinsAfterCommit(context, event),
    joinOrSyncLost: ({ event }: Args) => joinOrSyncLost(event),
    heartbeatLost: ({ event }: Args) => heartbeatLost(event),
    joinPrepareCommitDone: ({ context, event }: Args) =>
      event.type === 'OffsetCommitResponse' && endsJoinPrepare(context, event.payload.correlationId, event.payload.error, event.now),
    joinPrepareCommitLost: ({ context, event }: Args) => joinPrepareCommitLost(context, event),
    joinPrepareRetryRefused: ({ context }: Args) => joinPrepareRetryRefused(context),
    closeCommits: ({ context }: Args) => needsCloseCommit(context),
    pollErrorPending: ({ context }: Args) => pollErrorPending(context),
    pollTimeoutExpires: ({ context }: Args) => pollTimeoutExpires(context),
    pollTimeoutOverdue: ({ context, event }: Args) => pollTimeoutOverdue(context, event.now),
    closeCommitDone: ({ context, event }: Args) =>
      event.type === 'OffsetCommitResponse' && endsCloseCommit(context, event.payload.correlationId, event.payload.error, event.now),
    closeCommitLost: ({ context, event }: Args) => closeCommitLost(context, event),
    // close()'s commit at its deadline: a retry due then is not sent, a commit held for the coordinator ends
    closeCommitRetryTimesOut: ({ context, event }: Args) =>
      event.type === 'commitRetry' && context.commitInFlight?.purpose === 'close' && commitTimedOut(context, event.now),
    closeCommitTimesOut: ({ context, event }: Args) => closeCommitTimesOut(context, event),
    // the fetching region follows the membership: it reads while the member holds its partitions
    /** JoinGroup or SyncGroup in flight (MemberState PREPARING_REBALANCE / COMPLETING_REBALANCE). */
    joining: or([
      stateIn({ running: { membership: 'PREPARING_REBALANCE' } }),
      stateIn({ running: { membership: 'COMPLETING_REBALANCE' } }),
    ]),
    // (a COOPERATIVE member reads its partitions through the rebalance too)
    partitionsAssigned: or([
      stateIn({ running: { membership: 'STABLE' } }),
      stateIn({ running: { membership: 'USER_ASSIGNED' } }),
      'keepsPartitions',
    ]),
    partitionsGone: not('partitionsAssigned'),
    positionsMissing: ({ context }: Args) => positionsMissing(context),
    fetchInFlight: ({ context }: Args) => !positionsMissing(context) && fetchInFlight(context),
    awaitingMetadata: ({ context }: Args) => !positionsMissing(context) && !fetchInFlight(context) && leaderUnknown(context),
    nothingInFlight: ({ context }: Args) => !positionsMissing(context) && !fetchInFlight(context) && !leaderUnknown(context),
  },
}).createMachine({
  id: 'consumer',
  context: ({ input }) => initialContext(input),
  initial: 'created',
  on: {
    crash: '.down',
    partitionsAssignedDone: { actions: a.listenerDone },
    groupMetadata: { actions: a.groupMetadata },
    pollPass: { actions: a.pollPass },
    commitRetry: { actions: a.commitRetry },
    commitDeadline: { actions: a.commitDeadline },
    disconnected: { actions: a.requestLost },
    MetadataResponse: { actions: a.metadataResponse },
    FindCoordinatorResponse: { actions: a.findCoordinatorResponse },
    coordinatorLookupRetry: { actions: a.coordinatorLookupRetry },
    metadataUpdateDue: { actions: a.metadataUpdateDue },
    connectionClosed: { actions: a.connectionClosed },
    reconnectBackoffExpired: { actions: a.reconnectBackoffExpired },
  },
  states: {
    // not started yet (before its startAt): a crash or restart of its process changes nothing
    created: { on: { boot: { target: 'running', actions: a.subscribe }, crash: {}, restart: {} } },
    running: {
      type: 'parallel',
      // close(): with auto-commit on, the consumed positions are committed first (ConsumerCoordinator.close)
      on: {
        close: [
          { guard: 'closeCommits', target: 'closing', actions: a.startCloseCommit },
          {
            guard: 'joining',
            target: 'closed',
            actions: a.closeJoining,
          },
          { target: 'closed', actions: a.close },
        ],
      },
      states: {
        membership: {
          initial: 'UNJOINED',
          states: {
            /**
             * Subscribed, nothing sent: Kafka's classic consumer looks up its coordinator and sends
             * JoinGroup only inside its application's first poll() (ClassicKafkaConsumer.poll →
             * updateAssignmentMetadataIfNeeded → ConsumerCoordinator.poll → ensureCoordinatorReady,
             * ensureActiveGroup); subscribe() sends nothing. That poll() waits for the assignment.
             * A consumer without group.id takes its partitions at once (assign()).
             */
            UNJOINED: {
              always: { guard: 'noGroup', target: 'USER_ASSIGNED', actions: a.assignAll },
              on: {
                poll: { target: 'PREPARING_REBALANCE', actions: [a.sendJoin, a.waitingPoll] },
                // before any poll(): no generation, not rebalancing — CommitFailedException, without a request
                // (ConsumerCoordinator.sendOffsetCommitRequest: generationIfStable() is null)
                commitSync: { actions: a.commitSync },
              },
            },
            /** JoinGroup in flight. */
            PREPARING_REBALANCE: {
              on: {
                JoinGroupResponse: [
                  // no SyncGroup, but Kafka's member is COMPLETING_REBALANCE until the JoinGroup after the backoff
                  { guard: 'joinedCoordinatorUnknown', target: 'COMPLETING_REBALANCE', actions: a.joinedCoordinatorUnknown },
                  { guard: 'joinSucceeded', target: 'COMPLETING_REBALANCE', actions: a.joined },
                  // UNKNOWN_MEMBER_ID to a member that kept its partitions: onJoinPrepare gives them away as lost first
                  { guard: 'joinFailedLosesPartitions', target: 'REVOKING', actions: [a.joinFailedLosing, a.startRevocation] },
                  { actions: a.joinFailed },
                ],
                rejoinBackoff: { actions: a.sendJoin },
                disconnected: [
                  { guard: 'joinOrSyncLost', actions: [a.requestLost, a.rejoinAfterBackoff] },
                  { actions: a.requestLostRejoining },
                ],
                // a JoinGroup refused for good (INVALID_SESSION_TIMEOUT): poll() throws, the next one joins again
                poll: [
                  { guard: 'pollErrorPending', actions: a.pollAfterJoinRefused },
                  { guard: 'keepsPartitions', actions: a.poll },
                  { actions: a.waitingPoll },
                ],
                commitSync: { actions: a.commitSyncRejoining },
                commitRetry: { actions: a.commitRetryRejoining },
                resubscribe: { actions: a.resubscribe },
                OffsetCommitResponse: { actions: a.offsetCommitResponseRejoining },
              },
            },
            /**
             * SyncGroup in flight — or none, waiting retry.backoff.ms for the next JoinGroup (the coordinator
             * unknown at the JoinGroup answer, or the SyncGroup refused by a moved coordinator or lost).
             * Heartbeats go on from the JoinGroup answer (JoinGroupResponseHandler enables the heartbeat
             * thread on entering COMPLETING_REBALANCE).
             */
            COMPLETING_REBALANCE: {
              on: {
                SyncGroupResponse: [
                  { guard: 'syncRevokes', target: 'REVOKING', actions: a.syncedRevoking },
                  { guard: 'syncSucceeded', target: 'STABLE', actions: a.synced },
                  // the coordinator moved: COMPLETING_REBALANCE, heartbeat thread on, until the JoinGroup after the backoff
                  { guard: 'syncRejoinsAfterBackoff', actions: [a.syncFailed, a.rejoinAfterBackoff] },
                  // an error SyncGroupResponseHandler does not expect: poll() throws it, the next poll() joins again
                  { guard: 'syncThrows', target: 'PREPARING_REBALANCE', actions: [a.syncFailed, a.stopHeartbeats] },
                  // the member reset (UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION) with partitions it kept: lost before it rejoins
                  { guard: 'syncFailedLosesPartitions', target: 'REVOKING', actions: [a.syncFailed, a.startRevocation] },
                  { target: 'PREPARING_REBALANCE', actions: [a.syncFailed, a.startRejoin] },
                ],
                disconnected: [
                  { guard: 'joinOrSyncLost', actions: [a.requestLost, a.rejoinAfterBackoff] },
                  { guard: 'heartbeatLost', actions: a.heartbeatLost },
                  { actions: a.requestLostSyncing },
                ],
                heartbeatDue: { actions: a.heartbeatDue },
                heartbeatThreadLookup: { actions: a.heartbeatThreadLookup },
                heartbeatSessionExpired: { actions: a.heartbeatSessionExpired },
                HeartbeatResponse: { actions: a.heartbeatResponseSyncing },
                // no SyncGroup was sent (the coordinator unknown at the JoinGroup answer): joinGroupIfNeeded's
                // retry.backoff.ms is over, initiateJoinGroup (PREPARING_REBALANCE) sends JoinGroup
                rejoinBackoff: { target: 'PREPARING_REBALANCE', actions: [a.stopHeartbeats, a.sendJoin] },
                resubscribe: { target: 'PREPARING_REBALANCE', actions: [a.cancelRejoinBackoff, a.startRejoinUnsubscribed, a.resubscribe] },
                poll: [{ guard: 'keepsPartitions', actions: a.poll }, { actions: a.waitingPoll }],
                commitSync: { actions: a.commitSyncSyncing },
                commitRetry: { actions: a.commitRetrySyncing },
                OffsetCommitResponse: { actions: a.offsetCommitResponseSyncing },
              },
            },
            STABLE: {
              on: {
                ...withPartitions,
                // poll() is where a member rejoins the group (ConsumerCoordinator.poll)
                // (through onJoinPrepare's commit when auto-commit is on, else JoinGroup at once)
                poll: [
                  { guard: 'pollErrorPending', actions: a.pollAfterPollError },
                  { guard: 'rejoinNeededAfterCommit', target: 'JOIN_PREPARE', actions: [a.waitingPoll, a.startJoinPrepare] },
                  { guard: 'rejoinNeededAfterRevocation', target: 'REVOKING', actions: [a.waitingPoll, a.startRevocation] },
                  { guard: 'rejoinNeeded', target: 'PREPARING_REBALANCE', actions: [a.startRejoin, a.pollOrWait] },
                  { actions: a.poll },
                ],
                // a heartbeat due with the poll timer expired too: the poll timeout first (HeartbeatThread.run's order)
                heartbeatDue: [{ guard: 'pollTimeoutOverdue', actions: a.pollTimeoutExpired }, { actions: a.heartbeatDue }],
                heartbeatThreadLookup: { actions: a.heartbeatThreadLookup },
                heartbeatSessionExpired: { actions: a.heartbeatSessionExpired },
                disconnected: { guard: 'heartbeatLost', actions: a.heartbeatLost },
                // a member blocked in poll() rejoins at once
                HeartbeatResponse: [
                  { guard: 'heartbeatRejoinsAfterCommit', target: 'JOIN_PREPARE', actions: [a.heartbeatResponse, a.startJoinPrepare] },
                  { guard: 'heartbeatRejoinsAfterRevocation', target: 'REVOKING', actions: [a.heartbeatResponse, a.startRevocation] },
                  { guard: 'heartbeatRejoinsNow', target: 'PREPARING_REBALANCE', actions: [a.heartbeatResponse, a.startRejoin] },
                  { actions: a.heartbeatResponse },
                ],
                // …and so does one whose commit is refused (its generation reset, or a rebalance under way):
                // Kafka's poll() loop rejoins on its next pass (ConsumerCoordinator.poll → ensureActiveGroup)
                OffsetCommitResponse: [
                  {
                    guard: 'commitRefusalRejoinsAfterCommit',
                    target: 'JOIN_PREPARE',
                    actions: [a.offsetCommitResponse, a.startJoinPrepare],
                  },
                  {
                    guard: 'commitRefusalRejoinsAfterRevocation',
                    target: 'REVOKING',
                    actions: [a.offsetCommitResponse, a.startRevocation],
                  },
                  { guard: 'commitRefusalRejoinsNow', target: 'PREPARING_REBALANCE', actions: [a.offsetCommitResponse, a.startRejoin] },
                  { actions: a.offsetCommitResponse },
                ],
                resubscribe: { target: 'PREPARING_REBALANCE', actions: [a.startRejoinUnsubscribed, a.resubscribe] },
                // max.poll.interval.ms since poll() returned: the member leaves the group (handlePollTimeoutExpiry)
                pollTimeoutExpired: { guard: 'pollTimeoutExpires', actions: a.pollTimeoutExpired },
              },
            },
            /** ConsumerCoordinator.onJoinPrepare: waiting for the commit of the consumed positions before rejoining. */
            JOIN_PREPARE: {
              on: {
                // the retry finds the generation reset (a heartbeat's answer): it fails without a request, the member rejoins
                commitRetry: [
                  { guard: 'joinPrepareRetryRefused', target: 'PREPARING_REBALANCE', actions: [a.commitRetry, a.startRejoin] },
                  { actions: a.commitRetry },
                ],
                OffsetCommitResponse: [
                  { guard: 'joinPrepareCommitDone', target: 'PREPARING_REBALANCE', actions: [a.offsetCommitResponse, a.startRejoin] },
                  { actions: a.offsetCommitResponse },
                ],
                disconnected: [
                  { guard: 'joinPrepareCommitLost', target: 'PREPARING_REBALANCE', actions: [a.requestLost, a.startRejoin] },
                  { guard: 'heartbeatLost', actions: a.heartbeatLost },
                ],
                heartbeatDue: { actions: a.heartbeatDue },
                heartbeatThreadLookup: { actions: a.heartbeatThreadLookup },
                heartbeatSessionExpired: { actions: a.heartbeatSessionExpired },
                HeartbeatResponse: { actions: a.heartbeatResponse },
                poll: { actions: a.pollWaits },
              },
            },
            /**
             * ConsumerCoordinator.onJoinPrepare → the rebalance listener (Kafka Streams' main consumer):
             * waiting for onPartitionsRevoked — the stream thread commits its tasks there, a commitSync
             * through this consumer under at_least_once — or onPartitionsLost, before rejoining.
             */
            REVOKING: {
              on: {
                partitionsRevokedDone: [
                  // COOPERATIVE onJoinComplete's revocation: the assignment is taken, a follow-up rebalance asked for
                  // …inside a poll() with nothing to return: its loop's next pass sends the follow-up JoinGroup
                  {
                    guard: 'rejoinsAfterRevocation',
                    target: 'PREPARING_REBALANCE',
                    actions: [a.completeJoinAfterRevocation, a.startRejoin],
                  },
                  { guard: 'joinCompletePending', target: 'STABLE', actions: a.completeJoinAfterRevocation },
                  { target: 'PREPARING_REBALANCE', actions: a.startRejoin },
                ],
                commitSync: { actions: a.commitSync },
                OffsetCommitResponse: { actions: a.offsetCommitResponse },
                heartbeatDue: { actions: a.heartbeatDue },
                heartbeatThreadLookup: { actions: a.heartbeatThreadLookup },
                heartbeatSessionExpired: { actions: a.heartbeatSessionExpired },
                disconnected: { guard: 'heartbeatLost', actions: a.heartbeatLost },
                HeartbeatResponse: { actions: a.heartbeatResponse },
                poll: { actions: a.pollWaits },
                resubscribe: { target: 'PREPARING_REBALANCE', actions: [a.startRejoinUnsubscribed, a.resubscribe] },
              },
            },
            /** No group.id: assign() of every partition of its topics, no commits. */
            USER_ASSIGNED: { on: withPartitions },
          },
        },
        fetching: {
          initial: 'STOPPED',
          states: {
            /** No partitions to read: not assigned yet, or rebalancing. */
            STOPPED: {
              always: { guard: 'partitionsAssigned', target: 'ASSIGNED' },
              on: { FetchResponse: { actions: a.fetchResponseUnassigned } },
            },
            ASSIGNED: {
              initial: 'IDLE',
              always: { guard: 'partitionsGone', target: 'STOPPED' },
              on: {
                FetchResponse: { actions: a.fetchResponse },
                fetchRetry: { actions: a.fetchRetry },
                OffsetFetchResponse: { actions: a.offsetFetchResponse },
                offsetsRetry: { actions: a.requestOffsets },
                ListOffsetsResponse: { actions: a.listOffsetsResponse },
                OffsetsForLeaderEpochResponse: { actions: a.offsetsForLeaderEpochResponse },
                validationRetry: { actions: a.validationRetry },
                endOffsets: { actions: a.endOffsets },
                seek: { actions: a.seek },
                seekToCommitted: { actions: a.seekToCommitted },
                seekToBeginning: { actions: a.seekToBeginning },
              },
              states: phaseStates,
            },
          },
        },
      },
    },
    /** close() waiting for its auto-commit (maybeAutoCommitOffsetsSync), then LeaveGroup. */
    closing: {
      on: {
        OffsetCommitResponse: [
          { guard: 'closeCommitDone', target: 'closed', actions: [a.offsetCommitResponse, a.closeCommitEnded] },
          { actions: a.offsetCommitResponse },
        ],
        disconnected: [
          { guard: 'closeCommitLost', target: 'closed', actions: [a.requestLost, a.closeCommitEnded] },
          { actions: a.requestLost },
        ],
        commitRetry: [
          { guard: 'closeCommitRetryTimesOut', target: 'closed', actions: [a.commitRetry, a.closeCommitEnded] },
          { actions: a.commitRetry },
        ],
        commitDeadline: [
          { guard: 'closeCommitTimesOut', target: 'closed', actions: [a.commitDeadline, a.closeCommitEnded] },
          { actions: a.commitDeadline },
        ],
      },
    },
    // a closed consumer has no NetworkClient: the news of its connections is nothing to it
    closed: { on: { connectionClosed: {}, reconnectBackoffExpired: {} } },
    down: {
      entry: handle((ctx: ConsumerContext) => initialContext(ctx)),
      on: { restart: { target: 'running', actions: a.subscribe } },
    },
  },
});

/**
 * The membership state in a consumer's state as the trace writes it ("STABLE" of
 * "running.membership.STABLE|running.fetching.ASSIGNED.IDLE"), or the state itself outside
 * `running` ("created", "closed", "down").
 */
export function membershipState(state: string): string {
  return /(?:^|\|)running\.membership\.([A-Z_]+)/.exec(state)?.[1] ?? state;
}

/** The fetching region's state ("ASSIGNED.IDLE", "STOPPED"), or null outside `running`. */
export function fetchingState(state: string): string | null {
  return /(?:^|\|)running\.fetching\.([A-Z_.]+)/.exec(state)?.[1] ?? null;
}
