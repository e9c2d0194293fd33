/**
 * What the consumer client keeps (KafkaConsumer and the objects it owns: SubscriptionState's
 * assignment and positions, the Fetcher's buffers and fetches in flight, ConsumerCoordinator's
 * generation and commits), and the plumbing every part shares: correlation ids, sending a request
 * with its timeout, and the handler wrapper.
 */
import type { Mutable } from '../actors/draft';
import { handle, type Out } from '../actors/out';
import type { GroupMetadata } from '../application/applicationLoop';
import { type ClientMetadataState, leastLoadedNode } from '../cluster/clientMetadata';
import { type ConnectionStates, isUnavailable, NO_CONNECTION_STATES, ownNode } from '../cluster/connectionStates';
import { type ClusterMetadata, CONSUMER_OFFSETS_TOPIC } from '../cluster/metadata';
import { maybeUpdateMetadata, noteConnectionAttempts, noteConnectionEvent } from '../cluster/metadataUpdater';
import type { ConsumerConfig } from '../config/consumerConfig';
import type { ActorId, RequestRpc } from '../kernel/envelope';
import { extend } from '../kernel/extend';
import type { IsolationLevel } from '../log/partitionLog';
import type { ClientException, KafkaError } from '../protocol/errors';
import type { ListOffsetsPartition, RecordForApp, TopicPartition } from '../protocol/messages';
import { keyOf } from '../protocol/topicPartition';
import { subscribedMetadata } from './consumerMetadata';
import type { ConsumerEvent, OffsetAndPartition } from './events';
import { resetPositionsIfNeeded } from './offsetFetcher';
import { armLookupRetry, onPollPass } from './pollLookup';
import { awaitingValidation, NO_VALIDATION, type PositionValidation } from './positionValidation';

export interface ConsumerInput {
  readonly self: ActorId;
  readonly app: ActorId;
  readonly client: string;
  readonly meta: ClusterMetadata;
  readonly config: ConsumerConfig;
  readonly topics: readonly string[];
  /** offsets-in-sink: the application seeks in onPartitionsAssigned. */
  readonly rebalanceListener?: boolean;
  /** Kafka Streams' main consumer: its StreamsRebalanceListener commits the tasks in onPartitionsRevoked. */
  readonly revocationListener?: boolean;
  /**
   * Tests only: the consumer starts past its first Metadata answer, knowing its topics' leaders. A
   * run's consumer knows none: it asks first (consumerMetadata.ts).
   */
  readonly metadataKnown?: boolean;
}

export interface ConsumerContext extends Required<Omit<ConsumerInput, 'metadataKnown'>> {
  readonly memberId: string;
  readonly generationId: number;
  /**
   * ConsumerCoordinator.groupMetadata, what KafkaConsumer.groupMetadata() returns: the group id,
   * generation and member id of the last rebalance this member completed. Only onJoinComplete (a
   * SyncGroup success, inside poll()) sets it; a JoinGroup answer, or a generation reset by an error
   * answer, leaves it as it was (unlike `generationId`, AbstractCoordinator's generation).
   */
  readonly groupMetadata: GroupMetadata;
  readonly assignment: readonly TopicPartition[];
  /** Next offset poll() will return, per partition ("topic-partition"); absent until known. */
  readonly positions: Readonly<Record<string, number>>;
  /** Fetched records not yet returned by poll(). */
  readonly buffer: Readonly<Record<string, readonly RecordForApp[]>>;
  /**
   * Position after a fetch's records and the control batches after them (the fetch's next offset),
   * while poll() has not finished with that fetch: records still buffered, or a tail still to pass
   * over (servePoll).
   */
  readonly bufferEnd: Readonly<Record<string, number>>;
  /** Correlation id of the fetch in flight per partition. */
  readonly fetching: Readonly<Record<string, number>>;
  /** AbstractFetch.nodesWithPendingFetchRequests: the broker → correlation id of its Fetch in flight. */
  readonly fetchingFrom: Readonly<Record<string, number>>;
  /** When it asks for metadata next (Metadata / DefaultMetadataUpdater); `meta` holds what it knows. */
  readonly metadata: ClientMetadataState;
  /** NetworkClient's ClusterConnectionStates: per broker, a failed connection and its reconnect backoff. */
  readonly connections: ConnectionStates;
  /**
   * FetchBuffer's CompletedFetches that carry an error (OFFSET_OUT_OF_RANGE, or a metadata error:
   * NOT_LEADER_OR_FOLLOWER …), with the offset they fetched: buffered when the answer arrives, handled
   * when poll() collects them (FetchCollector.initialize → handleInitializeErrors). While one is
   * buffered its partition is not fetched (fetchablePartitions: not buffered).
   */
  readonly fetchErrors: Readonly<Record<string, FetchError>>;
  readonly offsetsRequest: number | null;
  /** Failed OffsetFetch attempts since the last answer with offsets: the next retry waits commitBackoff of it. */
  readonly offsetsAttempts: number;
  /**
   * Heartbeat.heartbeatAttempts: heartbeats failed since the last one answered (a lost request, a
   * coordinator error); the next is sent after retryBackoff.backoff(attempts) instead of
   * heartbeat.interval.ms (membership.ts failHeartbeat).
   */
  readonly heartbeatAttempts: number;
  /**
   * Heartbeat.sessionTimer: when the heartbeat thread gives up on its coordinator — session.timeout.ms
   * after the last heartbeat answered, the JoinGroup answer that enabled the thread, or the
   * FindCoordinator answer that found the coordinator (sessionTimer.ts).
   */
  readonly sessionDeadline: number;
  /**
   * When the heartbeat thread last went round its loop without waiting (a heartbeat sent, the thread
   * enabled or notified, the coordinator given up): between such moments it wakes every
   * retry.backoff.ms from here (`AbstractCoordinator.this.wait(retryBackoffMs)`), and that is when it
   * sees an expired session (sessionTimer.ts).
   */
  readonly heartbeatWokeAt: number;
  /**
   * When the poll timer (Heartbeat.pollTimer, max.poll.interval.ms) expires: the `pollTimeout` timer's
   * deadline, null while none is armed (trackPollTimer keeps it with the timer). The heartbeat thread
   * checks it before it sends a heartbeat (membership.ts `pollTimeoutOverdue`).
   */
  readonly pollDeadline: number | null;
  /**
   * The application has a ConsumerRebalanceListener (offsets-in-sink: it seeks to the offsets its
   * database holds): on every assignment the consumer calls onPartitionsAssigned and waits for it
   * before fetching the group's committed offsets for the partitions it did not seek.
   */
  readonly rebalanceListener: boolean;
  /**
   * Kafka Streams' main consumer: before it rejoins, the consumer calls onPartitionsRevoked (or, its
   * generation gone, onPartitionsLost) with its partitions and waits for it (REVOKING), as
   * ConsumerCoordinator.onJoinPrepare does for StreamsRebalanceListener.
   */
  readonly revocationListener: boolean;
  /**
   * COOPERATIVE (membership.ts): the assignment a SyncGroup brought, waiting while the listener's
   * onPartitionsRevoked handles the partitions it no longer has (ConsumerCoordinator.onJoinComplete).
   */
  readonly assignmentAfterRevocation?: readonly TopicPartition[];
  /**
   * The rebalance listener's onPartitionsRevoked / onPartitionsLost is running (REVOKING). Kafka calls
   * it inside poll() (onJoinPrepare, or onJoinComplete before the assignment is taken): that poll()
   * returns nothing and sends no Fetch until the listener has returned — and then not for the
   * partitions it revoked.
   */
  readonly inRevocationListener?: true;
  readonly awaitingListener: boolean;
  readonly pollWaiting: ActorId | null;
  /**
   * An endOffsets() call in progress (endOffsets.ts, OffsetFetcher.fetchOffsetsByTimes): the partitions
   * still to search; this round's ListOffsets in flight (one per leader) by correlation id, and its
   * partitions to retry; the offsets found so far; whether it awaits a metadata update between rounds.
   */
  readonly endOffsets: {
    readonly from: ActorId;
    readonly remaining: readonly ListOffsetsPartition[];
    readonly requests: Readonly<Record<number, readonly string[]>>;
    readonly retry: readonly string[];
    readonly awaitingMetadata: boolean;
    readonly offsets: Readonly<Record<string, number>>;
    /** The isolation level asked for (a partition asked again asks the same). */
    readonly isolationLevel: IsolationLevel;
  } | null;
  /** The OffsetCommit in flight (one at a time, so commits reach the coordinator in order). */
  readonly commitInFlight: PendingCommit | null;
  /** The next commit, waiting for the one in flight; a newer one replaces it. */
  readonly commitQueued: PendingCommit | null;
  /** ConsumerCoordinator.nextAutoCommitTimer: when poll() auto-commits next. */
  readonly nextAutoCommitAt: number;
  /** The group's committed offset as this consumer last learned it (an acknowledged commit, an OffsetFetch), by partition. */
  readonly knownCommitted: Readonly<Record<string, number>>;
  readonly nextCorrelationId: number;
  /**
   * The coordinator asked this member to rejoin. As in Kafka, it does so only inside the next
   * poll(): until then it keeps its partitions and generation, so the application can still commit
   * the batch it is processing.
   */
  readonly rejoinNeeded: boolean;
  /**
   * An exception for poll() (pollErrors.ts): a JoinGroup refused for good, or no position with
   * auto.offset.reset=none. Not `thrown` yet: the next poll() throws it; `thrown`: it tries again.
   */
  readonly pollError: { readonly exception: ClientException; readonly thrown: boolean } | null;
  /**
   * Only when the group coordinator lives on a __consumer_offsets leader (offsets.topic.replication.factor
   * > 1; absent otherwise): the coordinator FindCoordinator named (null: unknown), the FindCoordinator
   * in flight, and the group requests waiting for it (AbstractCoordinator.ensureCoordinatorReady). The
   * broker a lookup goes to is the least loaded node of the moment (lookupCoordinator).
   */
  readonly groupCoordinator?: ActorId | null;
  readonly coordinatorLookup?: number | null;
  readonly coordinatorWaiting?: readonly WaitingGroupRequest[];
  /**
   * While a poll() waits for an unknown coordinator (pollLookup.ts): ensureCoordinatorReady's failed
   * lookups so far (the next waits retryBackoff.backoff of it), and whether the next waits for a
   * Metadata answer (awaitMetadataUpdate).
   */
  readonly lookupAttempts?: number;
  readonly lookupAfterMetadata?: boolean;
  /**
   * The reset asked for each partition whose position is being reset (SubscriptionState's
   * resetStrategy of a partition in AWAIT_RESET): a failed ListOffsets asks the same again —
   * seekToBeginning's earliest whatever auto.offset.reset says.
   */
  readonly resetTo: Readonly<Record<string, 'earliest' | 'latest'>>;
  /**
   * The resets' ListOffsets in flight, by correlation id: what each asked for each partition, so an
   * answer applies only to a partition still awaiting a reset of that strategy (offsetFetcher.ts).
   */
  readonly resetRequests: Readonly<Record<number, readonly ListOffsetsPartition[]>>;
  /**
   * SubscriptionState's nextRetryTimeMs of a partition awaiting a reset, when set: request.timeout.ms
   * after its ListOffsets was sent, retry.backoff.ms after it failed; absent: due at the next pass of
   * poll() (offsetFetcher.ts resetPositionsIfNeeded). Absent while no partition has one.
   */
  readonly resetRetryAt?: Readonly<Record<string, number>>;
  /** KIP-320: positions' offsetEpochs and the partitions awaiting validation (positionValidation.ts). */
  readonly validation: PositionValidation;
  /**
   * What Kafka's consumer-fetch-manager-metrics and consumer-coordinator-metrics sensors would have
   * counted so far (FetchMetricsManager; AbstractCoordinator's GroupCoordinatorMetrics, ConsumerCoordinator's
   * commitSensor): see ConsumerCounts. Read by
   * ../metrics/clientMetrics.ts; nothing in the model reads them back.
   */
  readonly consumerCounts: ConsumerCounts;
  /**
   * Each assigned partition's high watermark, last stable offset and log start offset as the last
   * successful fetch of it reported them (SubscriptionState.TopicPartitionState, set by
   * FetchCollector.initialize): what records-lag and records-lead are computed from
   * (../metrics/clientMetrics.ts). Forgotten with the partition's assignment; nothing in the model
   * reads it back.
   */
  readonly fetchedEnds: Readonly<Record<string, FetchedEnds>>;
  /**
   * The group leader's SyncGroup, held until a Metadata answer (ConsumerCoordinator.onLeaderElected →
   * updateGroupSubscription → ensureFreshMetadata; consumerMetadata.ts): the generation and member id
   * its JoinGroup answer gave. Absent while none is held.
   */
  readonly syncAwaitingMetadata?: { readonly generationId: number; readonly memberId: string };
}

/** A partition's offsets as a fetch answer reported them (FetchResponse's partition data). */
export interface FetchedEnds {
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  readonly logStartOffset: number;
}

/** The consumer's counters, where Kafka's fetch and classic-protocol coordinator sensors record. */
export interface ConsumerCounts {
  /** Records poll() returned to the application: FetchMetricsManager's recordsFetched (records-consumed-total). */
  readonly recordsConsumed: number;
  /** JoinGroupResponseHandler, error NONE: joinSensor (join-total). */
  readonly joins: number;
  /** SyncGroupResponseHandler, error NONE: syncSensor (sync-total). */
  readonly syncs: number;
  /** SyncGroupResponseHandler, the generation not reset: successfulRebalanceSensor (rebalance-total). */
  readonly rebalances: number;
  /** initiateJoinGroup's joinFuture failed (a JoinGroup or SyncGroup error or loss): failedRebalanceSensor (failed-rebalance-total). */
  readonly failedRebalances: number;
  /** OffsetCommitResponseHandler.handle, whatever the answer: commitSensor (commit-total). */
  readonly commits: number;
}

export const NO_CONSUMER_COUNTS: ConsumerCounts = Object.freeze({
  recordsConsumed: 0,
  joins: 0,
  syncs: 0,
  rebalances: 0,
  failedRebalances: 0,
  commits: 0,
});

/** Counts `n` (one unless told) more in the consumer's counter `as`. */
export function countConsumer(d: Draft, as: keyof ConsumerCounts, n = 1): void {
  if (n === 0) return;
  const c = d.consumerCounts ?? NO_CONSUMER_COUNTS;
  d.consumerCounts = { ...c, [as]: c[as] + n };
}

/** A group request held until the coordinator is known. */
/** A buffered CompletedFetch with an error: the error (OFFSET_OUT_OF_RANGE or a metadata error), and the offset its request fetched. */
export interface FetchError {
  readonly error: KafkaError;
  readonly fetchOffset: number;
}

export interface WaitingGroupRequest {
  readonly rpc: RequestRpc;
  readonly payload: { correlationId: number } & Record<string, unknown>;
  readonly background: boolean;
}

/** The group coordinator is the leader of the group's __consumer_offsets partition: found with FindCoordinator. */
export function groupCoordinatorOnLeader(meta: ClusterMetadata): boolean {
  return meta.topics[CONSUMER_OFFSETS_TOPIC]?.replicas !== undefined;
}

export interface PendingCommit {
  readonly correlationId: number;
  readonly generationId: number;
  readonly memberId: string;
  readonly offsets: readonly OffsetAndPartition[];
  /** The application waiting in commitSync(), if any (auto-commits have none). */
  readonly waiter: ActorId | null;
  /** An auto-commit of poll(), the one before rejoining (ConsumerCoordinator.onJoinPrepare), commitSync(), or close()'s auto-commit. */
  readonly purpose: 'auto' | 'joinPrepare' | 'sync' | 'close';
  /** Attempts so far: a retry waits retry.backoff.ms doubling up to retry.backoff.max.ms. */
  readonly attempts: number;
  /** commitSync() gives up at default.api.timeout.ms after it was called (TimeoutException). */
  readonly deadline: number;
}

export type Draft = Mutable<ConsumerContext>;

/**
 * A handler's draft: a copy of the context, exactly as `{ ...c }` (same keys, same order), written
 * out field by field. A spread of an object whose fields V8 keeps out of line (as a clone made by a
 * busy spread site is) takes its slow path, ten times the cost of this literal, on every consumer
 * event; the literal keeps every copy in one in-line layout. A context with the optional
 * coordinator-lookup fields (a group coordinator on a partition leader) is spread.
 */
export function consumerDraft(c: ConsumerContext): Draft {
  if ('groupCoordinator' in c) return { ...c };
  return {
    self: c.self,
    app: c.app,
    client: c.client,
    meta: c.meta,
    config: c.config,
    topics: c.topics,
    rebalanceListener: c.rebalanceListener,
    revocationListener: c.revocationListener,
    memberId: c.memberId,
    generationId: c.generationId,
    groupMetadata: c.groupMetadata,
    assignment: c.assignment,
    positions: c.positions,
    buffer: c.buffer,
    bufferEnd: c.bufferEnd,
    fetching: c.fetching,
    fetchingFrom: c.fetchingFrom,
    metadata: c.metadata,
    connections: c.connections,
    fetchErrors: c.fetchErrors,
    offsetsRequest: c.offsetsRequest,
    offsetsAttempts: c.offsetsAttempts,
    heartbeatAttempts: c.heartbeatAttempts,
    sessionDeadline: c.sessionDeadline,
    heartbeatWokeAt: c.heartbeatWokeAt,
    pollDeadline: c.pollDeadline,
    awaitingListener: c.awaitingListener,
    pollWaiting: c.pollWaiting,
    endOffsets: c.endOffsets,
    commitInFlight: c.commitInFlight,
    commitQueued: c.commitQueued,
    nextAutoCommitAt: c.nextAutoCommitAt,
    knownCommitted: c.knownCommitted,
    nextCorrelationId: c.nextCorrelationId,
    rejoinNeeded: c.rejoinNeeded,
    pollError: c.pollError,
    resetTo: c.resetTo,
    resetRequests: c.resetRequests,
    validation: c.validation,
    consumerCounts: c.consumerCounts,
    fetchedEnds: c.fetchedEnds,
    ...(c.resetRetryAt ? { resetRetryAt: c.resetRetryAt } : {}),
    ...(c.assignmentAfterRevocation ? { assignmentAfterRevocation: c.assignmentAfterRevocation } : {}),
    ...(c.inRevocationListener ? { inRevocationListener: c.inRevocationListener } : {}),
    ...(c.syncAwaitingMetadata ? { syncAwaitingMetadata: c.syncAwaitingMetadata } : {}),
  };
}

export function initialContext(input: ConsumerInput): ConsumerContext {
  // the input's fields in consumerDraft's order, whichever listener an input names (a restart passes
  // the whole context of the run before)
  const { self, app, client, config, topics } = input;
  // subscribe() / assign(): the topics' leaders unknown until the first Metadata answer
  const { meta, metadata } = subscribedMetadata(input.meta, topics, 'metadataKnown' in input && input.metadataKnown === true);
  return {
    self,
    app,
    client,
    meta,
    config,
    topics,
    rebalanceListener: input.rebalanceListener ?? false,
    revocationListener: input.revocationListener ?? false,
    memberId: '',
    generationId: -1,
    // the ConsumerCoordinator constructor: UNKNOWN_GENERATION_ID and UNKNOWN_MEMBER_ID
    groupMetadata: { groupId: config['group.id'], generationId: -1, memberId: '', ...instanceId({ config }) },
    assignment: [],
    positions: {},
    buffer: {},
    bufferEnd: {},
    fetching: {},
    fetchingFrom: {},
    metadata,
    connections: NO_CONNECTION_STATES,
    fetchErrors: {},
    offsetsRequest: null,
    offsetsAttempts: 0,
    heartbeatAttempts: 0,
    sessionDeadline: 0,
    heartbeatWokeAt: 0,
    pollDeadline: null,
    awaitingListener: false,
    pollWaiting: null,
    endOffsets: null,
    commitInFlight: null,
    commitQueued: null,
    nextAutoCommitAt: input.config['auto.commit.interval.ms'],
    knownCommitted: {},
    nextCorrelationId: 0,
    rejoinNeeded: false,
    pollError: null,
    resetTo: {},
    resetRequests: {},
    validation: NO_VALIDATION,
    consumerCounts: NO_CONSUMER_COUNTS,
    fetchedEnds: {},
    ...(groupCoordinatorOnLeader(input.meta)
      ? { groupCoordinator: null, coordinatorLookup: null, coordinatorWaiting: [], lookupAttempts: 0, lookupAfterMetadata: false }
      : {}),
  };
}

export function corr(d: Draft): number {
  const c = d.nextCorrelationId;
  d.nextCorrelationId += 1;
  return c;
}

/**
 * JoinGroup waits as long as a rebalance may take (AbstractCoordinator.sendJoinGroupRequest:
 * max(request.timeout.ms, rebalance.timeout.ms + JOIN_GROUP_TIMEOUT_LAPSE 5000), where the classic
 * protocol's rebalance timeout is max.poll.interval.ms); every other request request.timeout.ms.
 */
function timeoutFor(d: ConsumerContext, rpc: RequestRpc): number {
  const request = d.config['request.timeout.ms'];
  return rpc === 'JoinGroup' ? Math.max(request, d.config['max.poll.interval.ms'] + 5000) : request;
}

/**
 * Sends a request with its timeout: an answer that never comes (a lost envelope stalls the
 * connection) ends in the network closing the connection, and a `disconnected` event for each
 * request that was on it. Fetches are background: idle fetching alone does not keep a run going.
 */
export function sendRequest(
  d: Draft,
  out: Out,
  to: ActorId,
  rpc: RequestRpc,
  payload: { correlationId: number } & Record<string, unknown>,
  background = false,
): void {
  out.send(to, rpc, payload, { background, timeoutMs: timeoutFor(d, rpc) });
}

/**
 * A request to the group coordinator: to the fixed one, to the one FindCoordinator named, or — not
 * known, or its connection inside its reconnect backoff (checkAndGetCoordinator) — held while a
 * FindCoordinator goes out (AbstractCoordinator.ensureCoordinatorReady → lookupCoordinator; `lookup`
 * false: held only, another thread looks). A heartbeat replaces one already waiting.
 */
export function sendToCoordinator(
  d: Draft,
  out: Out,
  rpc: RequestRpc,
  payload: { correlationId: number } & Record<string, unknown>,
  background = false,
  lookup = true,
): void {
  const known = checkAndGetCoordinator(d);
  if (known) {
    sendRequest(d, out, known, rpc, payload, background);
    return;
  }
  const waiting = (d.coordinatorWaiting ?? []).filter((w) => rpc !== 'Heartbeat' || w.rpc !== 'Heartbeat');
  d.coordinatorWaiting = [...waiting, { rpc, payload, background }];
  if (lookup) lookupCoordinator(d, out);
}

/** The group coordinator this client knows (null: unknown, a FindCoordinator is needed): AbstractCoordinator.coordinator. */
export function knownCoordinator(d: Pick<ConsumerContext, 'meta' | 'groupCoordinator'>): ActorId | null {
  return (groupCoordinatorOnLeader(d.meta) ? d.groupCoordinator : d.meta.groupCoordinator) ?? null;
}

/**
 * The coordinator's connection failed and is inside its reconnect backoff (NetworkClient.isUnavailable
 * on the coordinator's own node, `Integer.MAX_VALUE - nodeId`: the model's `broker-N.group-coordinator`).
 */
export function coordinatorUnavailable(d: Pick<ConsumerContext, 'connections'>, coordinator: ActorId): boolean {
  return isUnavailable(d.connections, ownNode(coordinator));
}

/**
 * AbstractCoordinator.checkAndGetCoordinator (coordinatorUnknown()): a coordinator whose connection
 * is inside its reconnect backoff is marked unknown ("coordinator unavailable") and null returned —
 * no group request goes to it; the caller looks it up again. Only for a coordinator on a
 * __consumer_offsets leader: the fixed coordinator process is never looked up.
 */
export function checkAndGetCoordinator(d: Draft): ActorId | null {
  if (d.groupCoordinator && coordinatorUnavailable(d, d.groupCoordinator)) d.groupCoordinator = null;
  return knownCoordinator(d);
}

/**
 * AbstractCoordinator.lookupCoordinator: FindCoordinator(GROUP), unless one is in flight, to
 * `client.leastLoadedNode()` (clientMetadata.ts `leastLoadedNode`: a broker whose connection works,
 * never one inside its reconnect backoff). No node available ("No broker available to send
 * FindCoordinator request", RequestFuture.noBrokersAvailable — retriable): tried again after the
 * backoff (pollLookup.ts armLookupRetry).
 */
export function lookupCoordinator(d: Draft, out: Out): void {
  if (d.coordinatorLookup !== null && d.coordinatorLookup !== undefined) return;
  const node = leastLoadedNode(d.meta, d.connections);
  if (node === null) {
    armLookupRetry(d, out, true);
    return;
  }
  const correlationId = corr(d);
  out.send(
    node,
    'FindCoordinator',
    { correlationId, key: d.config['group.id'], keyType: 'group' },
    { timeoutMs: d.config['request.timeout.ms'] },
  );
  d.coordinatorLookup = correlationId;
}

/** The timer of ensureCoordinatorReady's backoff: the lookup a held group request, or a waiting poll(), waits for (pollLookup.ts). */
export const COORDINATOR_LOOKUP_TIMER = 'coordinatorLookup';

/** The heartbeat thread's wake-up while the coordinator is unknown (groupLookup.ts onHeartbeatThreadLookup). */
export const HEARTBEAT_THREAD_TIMER = 'heartbeatThread';

const GROUP_RESPONSES: readonly string[] = [
  'JoinGroupResponse',
  'SyncGroupResponse',
  'HeartbeatResponse',
  'LeaveGroupResponse',
  'OffsetCommitResponse',
  'OffsetFetchResponse',
];
const GROUP_RPCS: readonly string[] = ['JoinGroup', 'SyncGroup', 'Heartbeat', 'LeaveGroup', 'OffsetCommit', 'OffsetFetch'];

/**
 * AbstractCoordinator.markCoordinatorUnknown, which each response handler calls on
 * COORDINATOR_NOT_AVAILABLE or NOT_COORDINATOR, and a lost request to the coordinator does: the
 * next group request looks the coordinator up again. (COORDINATOR_LOAD_IN_PROGRESS keeps it.) An
 * error answer marks it with `isDisconnected` false (`markCoordinatorUnknown(Errors)`), so the
 * consumer also closes its connection to the old coordinator (`client.disconnectAsync`): whatever
 * else was in flight there — heartbeats, a commit, a JoinGroup — fails with a disconnect and goes to
 * the coordinator found next. A lost request's connection is closed already (`isDisconnected` true).
 */
export function markCoordinatorUnknownOn(d: Draft, ev: ConsumerEvent, out: Out): void {
  if (!d.groupCoordinator) return;
  const e = ev as { type: string; from?: ActorId; to?: ActorId; rpc?: string; payload?: { error?: string } };
  const lost = e.type === 'disconnected' && e.to === d.groupCoordinator && GROUP_RPCS.includes(e.rpc ?? '');
  const refused =
    GROUP_RESPONSES.includes(e.type) &&
    e.from === d.groupCoordinator &&
    (e.payload?.error === 'NOT_COORDINATOR' || e.payload?.error === 'COORDINATOR_NOT_AVAILABLE');
  if (refused) out.closeConnection(d.groupCoordinator);
  if (lost || refused) d.groupCoordinator = null;
}

/** The kernel timer of Heartbeat.pollTimer. */
export const POLL_TIMER = 'pollTimeout';

/**
 * Heartbeat.poll, which every KafkaConsumer.poll() calls (ConsumerCoordinator.poll → pollHeartbeat):
 * the poll timer starts again from max.poll.interval.ms. Kafka's poll() resets it on each pass of its
 * loop, so it runs only while the application is outside poll(); the model's poll() waits without
 * looping, so the timer is armed when poll() returns (records, or an exception) and a timer that
 * fires while a poll() waits is ignored (pollTimeoutExpires). Only a member in a generation has one:
 * Kafka checks the timer only while the member has joined (a poll() that throws before it joins arms
 * nothing; the JoinGroup answer resets the timer in Kafka, and the model's next poll() return arms it).
 */
export function armPollTimer(d: Draft, out: Out): void {
  if (d.config['group.id'] && !outOfGeneration(d)) out.timer(POLL_TIMER, 'pollTimeoutExpired', d.config['max.poll.interval.ms'], {}, true);
}

/**
 * The context's copy of the poll timer's deadline (pollDeadline), from the last `pollTimeout` timer
 * set or cancelled by this event's handler: the kernel keeps the timer, the heartbeat thread reads the
 * deadline (a timer that fired is spent, so its deadline is kept until it is set again or cancelled).
 */
function trackPollTimer(d: Draft, now: number, out: Out): void {
  for (const e of out.effects) {
    if (e.type === 'timer' && e.key === POLL_TIMER) d.pollDeadline = now + e.delay;
    else if (e.type === 'cancel' && e.key === POLL_TIMER) d.pollDeadline = null;
  }
}

/** The member holds no generation (Generation.NO_GENERATION: its generation or member id reset, or never joined). */
export function outOfGeneration(ctx: Pick<ConsumerContext, 'generationId' | 'memberId'>): boolean {
  return ctx.generationId < 0 || ctx.memberId === '';
}

/**
 * A static member's group.instance.id as its group requests carry it (JoinGroup, SyncGroup,
 * Heartbeat, OffsetCommit: AbstractCoordinator's rebalanceConfig.groupInstanceId); nothing for a
 * dynamic member.
 */
export function instanceId(d: Pick<ConsumerContext, 'config'>): { groupInstanceId?: string } {
  const id = d.config['group.instance.id'] ?? null;
  return id === null ? {} : { groupInstanceId: id };
}

/** AbstractCoordinator.isDynamicMember: no group.instance.id. */
export function isDynamicMember(d: Pick<ConsumerContext, 'config'>): boolean {
  return (d.config['group.instance.id'] ?? null) === null;
}

/** consumer.groupMetadata(): the membership as of the last completed rebalance, for sendOffsetsToTransaction. */
export function groupMetadata(d: ConsumerContext): GroupMetadata {
  return d.groupMetadata;
}

/** ConsumerCoordinator.onJoinComplete: the generation and member id the SyncGroup answer completed. */
export function joinCompleted(d: Draft): void {
  d.groupMetadata = { groupId: d.config['group.id'], generationId: d.generationId, memberId: d.memberId, ...instanceId(d) };
}

/**
 * SubscriptionState.allConsumed: the position of every assigned partition that has a valid one — what
 * a commit of "the consumed offsets" sends. A position awaiting validation (KIP-320, AWAIT_VALIDATION)
 * is not valid (FetchState.hasValidPosition), so it is left out until its leader confirms it. Each
 * offset carries its position's offsetEpoch as the committedLeaderEpoch.
 */
export function consumedOffsets(d: ConsumerContext): OffsetAndPartition[] {
  return d.assignment.flatMap((tp) => {
    const offset = d.positions[keyOf(tp)];
    if (offset === undefined || awaitingValidation(d, keyOf(tp))) return [];
    // new OffsetAndMetadata(position.offset, position.offsetEpoch, ""): the committedLeaderEpoch
    const epoch = d.validation.offsetEpochs[keyOf(tp)];
    return [epoch?.offset === offset ? extend(tp, { offset, committedLeaderEpoch: epoch.epoch }) : extend(tp, { offset })];
  });
}

/** The topics the consumer's metadata covers (its subscription). */
const topicsOf = (d: Draft): readonly string[] => d.topics;

/**
 * A handler of one event (or a few) on a shallow draft of the context: what the machine runs as an
 * action. First what the event says of the consumer's connections (an answer, a disconnect, the end
 * of a reconnect backoff: NetworkClient's ClusterConnectionStates — its group coordinator a node of
 * its own, as AbstractCoordinator makes it); then, as NetworkClient.poll does, a metadata update
 * that is due goes out; a request sent to a broker whose backoff has passed is a connection attempt.
 * A coordinator the event made unknown wakes the heartbeat thread's lookups (groupLookup.ts).
 */
export const action = <E extends ConsumerEvent = ConsumerEvent>(fn: (d: Draft, ev: E, out: Out) => void) =>
  handle((ctx: ConsumerContext, ev: E, out: Out) => {
    const d: Draft = consumerDraft(ctx);
    noteConnectionEvent(d, ev, topicsOf, ownNode, out);
    markCoordinatorUnknownOn(d, ev, out);
    fn(d, ev, out);
    trackPollTimer(d, ev.now, out);
    // each event a waiting poll() sees is a pass of its loop: the resets due go out
    resetPositionsIfNeeded(d, ev.now, out);
    onPollPass(ctx, d, ev, out);
    // the coordinator just became unknown: the heartbeat thread looks for it every retry.backoff.ms
    if (ctx.groupCoordinator && !d.groupCoordinator)
      out.timer(HEARTBEAT_THREAD_TIMER, 'heartbeatThreadLookup', d.config['retry.backoff.ms'], {}, true);
    maybeUpdateMetadata(d, d.topics, ev.now, out);
    noteConnectionAttempts(d, out.effects, ev.now, ownNode);
    return d;
  });
