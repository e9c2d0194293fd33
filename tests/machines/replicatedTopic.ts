/**
 * Topic `t` with one partition on three brokers, as the leader-change tests of the producer and the
 * consumer see it: the input a scenario builds, with `t`'s metadata carrying leader epochs when the
 * topic is replicated, and the partition metadata a MetadataResponse names.
 */
import type { ClusterMetadata } from '../../src/sim/cluster/metadata';
import type { PartitionMetadata } from '../../src/sim/protocol/replicationMessages';

export const BROKERS = ['broker-0', 'broker-1', 'broker-2'];

/** A scenario of three brokers, topic `t` (one partition) and the given clients. */
export const threeBrokerScenario = (clients: unknown[]) => ({
  version: 1,
  seed: 1,
  cluster: { brokers: 3 },
  topics: [{ name: 't', partitions: 1 }],
  clients,
});

/** The built input as is (one replica: no leader epochs), or with `t`'s metadata at leader epoch 0 (replicated). */
export function withReplicatedT<I extends { meta: ClusterMetadata }>(built: I, replicated: boolean): I {
  if (!replicated) return built;
  const t = built.meta.topics.t as ClusterMetadata['topics'][string];
  return { ...built, meta: { ...built.meta, topics: { ...built.meta.topics, t: { ...t, leaderEpochs: [0] } } } };
}

/** Partition t-0 led by `leader` at `leaderEpoch`; `null` = no leader (LEADER_NOT_AVAILABLE). */
export const partitionT0 = (leader: string | null, leaderEpoch: number): PartitionMetadata => ({
  partition: 0,
  error: leader === null ? 'LEADER_NOT_AVAILABLE' : 'NONE',
  leader,
  leaderEpoch,
  replicas: BROKERS,
  isr: leader === null ? [] : [leader],
});

/** A MetadataResponse's payload naming the three brokers and `t` with partition `p`. */
export const metadataOfT = (p: PartitionMetadata) => ({ brokers: BROKERS, topics: [{ name: 't', partitions: [p] }] });
