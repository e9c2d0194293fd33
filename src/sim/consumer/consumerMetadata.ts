/**
 * The consumer's first metadata (ClassicKafkaConsumer.subscribe / assign → SubscriptionState, then
 * `metadata.requestUpdateForNewTopics()`): a new consumer knows no partition leader of its topics.
 * Its NetworkClient sends a Metadata request for them (ConsumerMetadata.newMetadataRequestBuilder: a
 * full one, every subscribed topic) to the least loaded node before any other request
 * (NetworkClient.isReady is false for every node while `metadataUpdater.isUpdateDue`: "make metadata
 * requests first priority"); once it is in flight the other requests go — FindCoordinator and
 * JoinGroup (ConsumerCoordinator.poll → ensureCoordinatorReady, ensureActiveGroup) and OffsetFetch do
 * not wait for its answer. What needs a leader does: ListOffsets (OffsetFetcher.groupListOffsetRequests
 * keeps a partition without a known leader for retry), Fetch (a partition without a leader is skipped)
 * — the paths the model already takes for a partition whose leader is unknown (leaders null in
 * `meta`). The group leader's assignment waits for it: ConsumerCoordinator.onLeaderElected →
 * updateGroupSubscription → `client.ensureFreshMetadata` blocks while an update is asked for or due,
 * before the assignor reads the partition counts (`metadata.fetch()`); the model's leader holds its
 * SyncGroup until the answer (`awaitsFreshMetadata`, `onLeaderMetadata`).
 */
import {
  type ClientMetadataState,
  INITIAL_CLIENT_METADATA,
  refreshesPeriodically,
  requestUpdate,
  timeToNextUpdate,
} from '../cluster/clientMetadata';
import type { ClusterMetadata } from '../cluster/metadata';
import type { MetadataResponse } from '../protocol/replicationMessages';
import type { ConsumerContext } from './consumerContext';

/**
 * subscribe() / assign() as the consumer starts (or a restarted process starts again): the topics'
 * leaders are unknown, and an update is asked for (requestUpdateForNewTopics). The partition counts
 * stay: the application's assign() names its partitions, and a group's assignment is computed once
 * the leader's metadata is fresh. (`known`: a test's consumer that starts past its first answer.)
 */
export function subscribedMetadata(
  meta: ClusterMetadata,
  topics: readonly string[],
  known: boolean,
): { meta: ClusterMetadata; metadata: ClientMetadataState } {
  if (known) return { meta, metadata: INITIAL_CLIENT_METADATA };
  return { meta: leadersUnknown(meta, topics), metadata: requestUpdate(INITIAL_CLIENT_METADATA) };
}

function leadersUnknown(meta: ClusterMetadata, topics: readonly string[]): ClusterMetadata {
  const known = { ...meta.topics };
  for (const name of topics) {
    const t = known[name];
    if (!t) continue;
    // no leader, and no leader epoch either (Metadata.lastSeenLeaderEpochs is empty): the first answer
    // is news, not an equivalent response (updateLatestMetadata resets equivalentResponseCount)
    const { leaderEpochs: _, ...rest } = t;
    known[name] = { ...rest, leaders: t.leaders.map(() => null) };
  }
  return { ...meta, topics: known };
}

/**
 * A topic whose leaders never move (one replica per partition): its metadata carries no replica
 * assignment and no leader epochs (a replicated topic has both; its leaders were made unknown with
 * their epochs, but its replicas stay).
 */
export function staticTopic(meta: ClusterMetadata, name: string): boolean {
  const t = meta.topics[name];
  return t !== undefined && t.replicas === undefined && t.leaderEpochs === undefined;
}

/**
 * A Metadata answer's leaders for topics that carry no leader epochs (one replica per partition):
 * taken as they are, without epochs, so the topic still never refreshes (`leaderCanMove`).
 */
export function withStaticLeaders(meta: ClusterMetadata, topics: MetadataResponse['topics']): ClusterMetadata {
  if (topics.length === 0) return meta;
  const known = { ...meta.topics };
  for (const answer of topics) {
    const t = known[answer.name];
    if (!t) continue;
    const leaders = [...t.leaders];
    for (const p of answer.partitions) if (p.partition >= 0 && p.partition < t.partitions) leaders[p.partition] = p.leader;
    known[answer.name] = { ...t, leaders };
  }
  return { ...meta, topics: known };
}

/**
 * ConsumerNetworkClient.ensureFreshMetadata, as the group leader's updateGroupSubscription calls it:
 * the metadata is not fresh while an update is asked for (`updateRequested`, until an answer) or due.
 */
export function awaitsFreshMetadata(ctx: Pick<ConsumerContext, 'metadata' | 'config' | 'meta' | 'topics'>, now: number): boolean {
  if (ctx.metadata.updateRequested) return true;
  return timeToNextUpdate(ctx.metadata, ctx.config, now, refreshesPeriodically(ctx.meta, ctx.topics)) === 0;
}

/** The note of a consumer that starts (or restarts) knowing no leader of its topics. */
export function firstMetadataNote(topics: readonly string[]): string {
  return `it starts knowing no leader of ${topics.join(', ')}: its first request is a Metadata request for them (requestUpdateForNewTopics), sent before any other; what needs a leader (ListOffsets, Fetch) waits for the answer`;
}
