/**
 * A client's cluster metadata as Kafka's `Metadata` (clients/Metadata.java) and NetworkClient's
 * DefaultMetadataUpdater keep it: the leaders and leader epochs it knows (`ClusterMetadata`, the
 * clients' `d.meta`), whether an update was asked for, and when the next Metadata request may go out.
 * Pure: the producer and the consumer call these and send what they say.
 *
 * - `requestUpdate` (requestUpdate(false)): after an InvalidMetadataException (NOT_LEADER_OR_FOLLOWER,
 *   LEADER_NOT_AVAILABLE, FENCED_LEADER_EPOCH …; a consumer's when poll() collects the fetch error), a
 *   partition without a leader, a disconnect, or a consumer's lost reset ListOffsets.
 * - `timeToNextUpdate`: 0 when asked for or older than metadata.max.age.ms, but never sooner than the
 *   backoff — retry.backoff.ms doubling to retry.backoff.max.ms, counted over failed Metadata requests
 *   (`attempts`) and over answers that changed nothing (`equivalentResponses`, KIP-580).
 * - `applyMetadataResponse` (update → updateLatestMetadata): a partition's leader is taken unless its
 *   epoch is older than the one known; a partition still in error asks for another update.
 * - `applyCurrentLeader` (updatePartitionLeadership, KIP-951): a NOT_LEADER_OR_FOLLOWER answer's
 *   leader hint, taken only if its epoch is newer.
 * - `leastLoadedNode`: where a Metadata request goes — and a FindCoordinator, and an idempotent
 *   producer's InitProducerId — by the client's connection states (connectionStates.ts).
 *
 * Simplifications (docs/kafka-model.md): no jitter on the backoff; leastLoadedNode is the first broker
 * of the metadata's list whose connection is READY (no connection state), not the one with the
 * fewest requests in flight from a random start.
 */
import type { ActorId } from '../kernel/envelope';
import type { KafkaError } from '../protocol/errors';
import type { TopicPartition } from '../protocol/messages';
import type { CurrentLeader, MetadataResponse } from '../protocol/replicationMessages';
import type { ConnectionStates } from './connectionStates';
import type { ClusterMetadata, TopicMetadata } from './metadata';

export interface MetadataConfig {
  readonly 'retry.backoff.ms': number;
  readonly 'retry.backoff.max.ms': number;
  readonly 'metadata.max.age.ms': number;
}

export interface ClientMetadataState {
  /** Metadata.needFullUpdate: an update was asked for. */
  readonly updateRequested: boolean;
  /** The correlation id of the Metadata request in flight (DefaultMetadataUpdater.inProgress). */
  readonly inFlight: number | null;
  /** When the last Metadata request completed, answered or failed (lastRefreshMs). */
  readonly lastRefreshMs: number;
  /** When the last answer came (lastSuccessfulRefreshMs); the bootstrap metadata counts as one at 0. */
  readonly lastSuccessfulRefreshMs: number;
  /** Metadata requests failed since the last answer (attempts). */
  readonly attempts: number;
  /** Answers in a row that changed no leader epoch (equivalentResponseCount). */
  readonly equivalentResponses: number;
  /**
   * The request in flight is a producer's partial one, for the topics its send() just added
   * (ProducerMetadata.newMetadataRequestBuilderForNewTopics): its answer or failure leaves a full
   * update as it was.
   */
  readonly partial?: true;
}

export const INITIAL_CLIENT_METADATA: ClientMetadataState = {
  updateRequested: false,
  inFlight: null,
  lastRefreshMs: 0,
  lastSuccessfulRefreshMs: 0,
  attempts: 0,
  equivalentResponses: 0,
};

/** The InvalidMetadataException family of Errors.java that a producer or fetcher meets. */
const INVALID_METADATA: ReadonlySet<KafkaError> = new Set<KafkaError>([
  'NOT_LEADER_OR_FOLLOWER',
  'LEADER_NOT_AVAILABLE',
  'FENCED_LEADER_EPOCH',
  'UNKNOWN_TOPIC_OR_PARTITION',
]);

export function isInvalidMetadataError(error: string): boolean {
  return INVALID_METADATA.has(error as KafkaError);
}

/** ExponentialBackoff(retry.backoff.ms, 2, retry.backoff.max.ms) after n earlier tries, without jitter. */
export function refreshBackoff(config: MetadataConfig, n: number): number {
  return Math.min(config['retry.backoff.max.ms'], config['retry.backoff.ms'] * 2 ** Math.max(0, n));
}

export function requestUpdate(s: ClientMetadataState): ClientMetadataState {
  return s.updateRequested ? s : { ...s, updateRequested: true };
}

/** Metadata.timeToAllowUpdate: the backoff since the last request, by failed attempts and by equivalent answers. */
export function timeToAllowUpdate(s: ClientMetadataState, config: MetadataConfig, now: number): number {
  const forAttempts = Math.max(s.lastRefreshMs + (s.attempts > 0 ? refreshBackoff(config, s.attempts - 1) : 0) - now, 0);
  // a refresh because the metadata expired starts the equivalent-answer backoff over
  const expired = s.lastSuccessfulRefreshMs + config['metadata.max.age.ms'] <= now;
  const equivalent = expired ? 0 : s.equivalentResponses;
  const forEquivalent = Math.max(s.lastRefreshMs + (equivalent > 0 ? refreshBackoff(config, equivalent - 1) : 0) - now, 0);
  return Math.max(forAttempts, forEquivalent);
}

/**
 * Metadata.timeToNextUpdate: 0 once an update is asked for or the metadata is older than
 * metadata.max.age.ms, and not before the backoff allows. `expires` false: the metadata never
 * ages (no topic of this client is replicated; see `refreshesPeriodically`).
 */
export function timeToNextUpdate(s: ClientMetadataState, config: MetadataConfig, now: number, expires = true): number {
  const toExpire = s.updateRequested
    ? 0
    : expires
      ? Math.max(s.lastSuccessfulRefreshMs + config['metadata.max.age.ms'] - now, 0)
      : Number.POSITIVE_INFINITY;
  return Math.max(toExpire, timeToAllowUpdate(s, config, now));
}

/**
 * A topic whose leader can move: its metadata carries leader epochs (a replicated topic, or one this
 * client has had a Metadata answer for). The model's one-replica topics carry none; their leaders
 * never move, so a disconnect or metadata.max.age.ms does not refresh them, and runs with one replica
 * per partition send no Metadata request but a producer's partial one for the topics its send() adds
 * (producer/waitOnMetadata.ts) and a new consumer's first (consumer/consumerMetadata.ts; Kafka's
 * clients would refresh too, and learn nothing new).
 */
export function leaderCanMove(meta: ClusterMetadata, topic: string): boolean {
  return meta.topics[topic]?.leaderEpochs !== undefined;
}

/** Does any of these topics make the metadata age (metadata.max.age.ms)? */
export function refreshesPeriodically(meta: ClusterMetadata, topics: readonly string[]): boolean {
  return topics.some((t) => leaderCanMove(meta, t));
}

/** The leader epoch this client knows for a partition (0 when its topic carries none). */
export function leaderEpochOf(meta: ClusterMetadata, topic: string, partition: number): number {
  return meta.topics[topic]?.leaderEpochs?.[partition] ?? 0;
}

/**
 * NetworkClient.leastLoadedNode, as modelled with the client's connection states: a broker whose
 * connection is READY (the first of the metadata's list with no connection state); else one being
 * connected to (CONNECTING); else, of those that may be connected to (DISCONNECTED, backoff over),
 * the one whose last attempt is oldest. A broker inside its reconnect backoff is left out ("Removing
 * node … since it is neither ready for sending or connecting"). Null when none is left (or there are
 * no brokers): DefaultMetadataUpdater waits ("Give up sending metadata request since no node is
 * available") — the model until a backoff's end wakes the client.
 */
export function leastLoadedNode(meta: ClusterMetadata, connections: ConnectionStates): ActorId | null {
  let connecting: ActorId | null = null;
  let oldest: ActorId | null = null;
  for (const b of meta.brokers) {
    const c = connections[b];
    if (c === undefined) return b;
    if (c.state === 'CONNECTING') {
      if (connecting === null) connecting = b;
    } else if (!c.blackedOut && (oldest === null || (connections[oldest]?.lastConnectAttemptMs ?? 0) > c.lastConnectAttemptMs)) oldest = b;
  }
  return connecting ?? oldest;
}

/** DefaultMetadataUpdater.isUpdateDue: no Metadata request in flight, and one is due now. */
export function isUpdateDue(s: ClientMetadataState, config: MetadataConfig, now: number, expires: boolean): boolean {
  return s.inFlight === null && timeToNextUpdate(s, config, now, expires) === 0;
}

export type MetadataStep =
  | { readonly kind: 'send'; readonly broker: ActorId }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'idle' };

/**
 * DefaultMetadataUpdater.maybeUpdate: nothing while a Metadata request is in flight; else send one to
 * the least loaded node once timeToNextUpdate is 0, or wait that long. No node to send to (each in its
 * reconnect backoff): nothing now — the end of a backoff wakes the client, which asks again.
 */
export function nextMetadataStep(
  s: ClientMetadataState,
  meta: ClusterMetadata,
  connections: ConnectionStates,
  config: MetadataConfig,
  now: number,
  expires: boolean,
): MetadataStep {
  if (s.inFlight !== null) return { kind: 'idle' };
  const wait = timeToNextUpdate(s, config, now, expires);
  if (wait === Number.POSITIVE_INFINITY) return { kind: 'idle' };
  if (wait > 0) return { kind: 'wait', ms: wait };
  const broker = leastLoadedNode(meta, connections);
  return broker === null ? { kind: 'idle' } : { kind: 'send', broker };
}

export function metadataSent(s: ClientMetadataState, correlationId: number, partial = false): ClientMetadataState {
  return partial ? { ...s, inFlight: correlationId, partial: true } : { ...s, inFlight: correlationId };
}

/**
 * Metadata.failedUpdate (the Metadata request was lost): back off by attempts; the update is still
 * owed — a partial one by the topics still new (the caller's), so no full update is asked for.
 */
export function failedUpdate(s: ClientMetadataState, now: number): ClientMetadataState {
  const { partial, ...rest } = s;
  return {
    ...rest,
    inFlight: null,
    lastRefreshMs: now,
    attempts: s.attempts + 1,
    equivalentResponses: 0,
    updateRequested: partial ? s.updateRequested : true,
  };
}

/**
 * Metadata.update of a partial answer (isPartialUpdate): the request counts as done (lastRefreshMs,
 * attempts), but neither the full update asked for nor the metadata's age (lastSuccessfulRefreshMs)
 * changes; a partition in error asks for a full one.
 */
export function partialUpdateDone(s: ClientMetadataState, answered: ClientMetadataState): ClientMetadataState {
  const { partial: _, ...rest } = answered;
  return {
    ...rest,
    updateRequested: s.updateRequested || answered.updateRequested,
    lastSuccessfulRefreshMs: s.lastSuccessfulRefreshMs,
    equivalentResponses: s.equivalentResponses,
  };
}

function withPartition(t: TopicMetadata, partition: number, leader: ActorId | null, epoch: number): TopicMetadata {
  const leaders = [...t.leaders];
  leaders[partition] = leader;
  const leaderEpochs = Array.from({ length: t.partitions }, (_, p) => t.leaderEpochs?.[p] ?? 0);
  leaderEpochs[partition] = epoch;
  return { ...t, leaders, leaderEpochs };
}

/**
 * Metadata.update with a MetadataResponse, partition by partition as updateLatestMetadata does: an
 * epoch at least the known one replaces leader and epoch (an older one is ignored: the answer came
 * from a broker that has not seen the change yet); a partition in error (LEADER_NOT_AVAILABLE: no
 * leader) asks for another update. Topics this client does not know are ignored; an answer without
 * brokers counts as a failed update (NetworkClient.handleSuccessfulResponse).
 */
export function applyMetadataResponse(
  meta: ClusterMetadata,
  s: ClientMetadataState,
  response: MetadataResponse,
  now: number,
): { meta: ClusterMetadata; state: ClientMetadataState; changed: TopicPartition[] } {
  if (response.brokers.length === 0) return { meta, state: failedUpdate(s, now), changed: [] };
  const topics = { ...meta.topics };
  const changed: TopicPartition[] = [];
  let newerEpoch = false;
  let again = false;
  for (const t of response.topics) {
    let known = topics[t.name];
    if (!known) continue;
    for (const p of t.partitions) {
      if (p.partition < 0 || p.partition >= known.partitions) continue;
      if (isInvalidMetadataError(p.error)) again = true;
      const current = known.leaderEpochs?.[p.partition];
      if (current !== undefined && p.leaderEpoch < current) continue;
      if (current === undefined || p.leaderEpoch > current) newerEpoch = true;
      if (known.leaders[p.partition] !== p.leader || (current ?? 0) !== p.leaderEpoch)
        changed.push({ topic: t.name, partition: p.partition });
      known = withPartition(known, p.partition, p.leader, p.leaderEpoch);
    }
    topics[t.name] = known;
  }
  const state: ClientMetadataState = {
    ...s,
    inFlight: null,
    updateRequested: again,
    lastRefreshMs: now,
    lastSuccessfulRefreshMs: now,
    attempts: 0,
    equivalentResponses: newerEpoch ? 0 : s.equivalentResponses + 1,
  };
  return { meta: { ...meta, brokers: [...response.brokers], topics }, state, changed };
}

/**
 * Metadata.updatePartitionLeadership (KIP-951): the leader a NOT_LEADER_OR_FOLLOWER /
 * FENCED_LEADER_EPOCH answer names, taken at once if it names one and its epoch is newer than the
 * known one. Returns whether it was taken (the caller still asks for a full update, as Sender and
 * the fetcher do).
 */
export function applyCurrentLeader(
  meta: ClusterMetadata,
  tp: TopicPartition,
  hint: CurrentLeader | undefined,
): { meta: ClusterMetadata; updated: boolean } {
  const t = meta.topics[tp.topic];
  if (!hint || hint.leaderId === null || hint.leaderEpoch < 0 || !t || tp.partition >= t.partitions) return { meta, updated: false };
  if (hint.leaderEpoch <= leaderEpochOf(meta, tp.topic, tp.partition)) return { meta, updated: false };
  const topics = { ...meta.topics, [tp.topic]: withPartition(t, tp.partition, hint.leaderId, hint.leaderEpoch) };
  return { meta: { ...meta, topics }, updated: true };
}
