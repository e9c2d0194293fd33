/**
 * What every client knows about the cluster (what Kafka clients learn from Metadata and
 * FindCoordinator requests). Static here: leaders never move (one replica per partition), and the
 * coordinators are fixed actors. Simplification stated in the UI and docs.
 */
import type { ActorId } from '../kernel/envelope';

export interface TopicMetadata {
  readonly name: string;
  readonly partitions: number;
  /** Leader broker actor per partition; null while a partition has no leader (offline). */
  readonly leaders: readonly (ActorId | null)[];
  /** Leader epoch per partition as this holder last learned it (absent: 0 for every partition). */
  readonly leaderEpochs?: readonly number[];
  /**
   * Replica assignment per partition (brokers, preferred leader first) — only for a topic with more
   * than one replica; absent, every partition's only replica is its leader.
   */
  readonly replicas?: readonly (readonly ActorId[])[];
}

/** Some partition of some topic has more than one replica: the cluster runs a controller and followers. */
export function replicationOn(meta: ClusterMetadata): boolean {
  return Object.values(meta.topics).some((t) => t.replicas !== undefined);
}

export interface ClusterMetadata {
  readonly brokers: readonly ActorId[];
  readonly topics: Readonly<Record<string, TopicMetadata>>;
  readonly transactionCoordinator: ActorId;
  readonly groupCoordinator: ActorId;
  /** Partitions of the internal topics (Kafka defaults to 50 each; a few are enough to show them). */
  readonly transactionStatePartitions: number;
  readonly consumerOffsetsPartitions: number;
}

export const TRANSACTION_STATE_TOPIC = '__transaction_state';
export const CONSUMER_OFFSETS_TOPIC = '__consumer_offsets';
export const TXN_COORDINATOR_ID = 'txn-coordinator';
export const GROUP_COORDINATOR_ID = 'group-coordinator';

export function leaderOf(meta: ClusterMetadata, topic: string, partition: number): ActorId | null {
  // a replicated internal topic has leaders of its own (the coordinators live on them)
  if (topic === CONSUMER_OFFSETS_TOPIC && !meta.topics[topic]) return meta.groupCoordinator;
  if (topic === TRANSACTION_STATE_TOPIC && !meta.topics[topic]) return meta.transactionCoordinator;
  return meta.topics[topic]?.leaders[partition] ?? null;
}
