/**
 * The messages of replication (issue [replication]): clients' Metadata, the KIP-951 leader hint on
 * NOT_LEADER_OR_FOLLOWER, and the KRaft controller's traffic with the brokers. Shared by the
 * broker, the controller and the clients, so each side is written against one definition.
 *
 * Simplification: in KRaft brokers learn partition changes by fetching the controller's metadata
 * log; here the controller sends each `PartitionChangeRecord` to every broker as a message.
 */
import type { ActorId } from '../kernel/envelope';
import type { KafkaError } from './errors';
import type { TopicPartition } from './messages';

/** KIP-951: where a NOT_LEADER_OR_FOLLOWER / FENCED_LEADER_EPOCH answer says the leader now is. */
export interface CurrentLeader {
  /** null: the partition has no leader (offline). */
  readonly leaderId: ActorId | null;
  readonly leaderEpoch: number;
}

/** Metadata request (MetadataRequest v12+): the topics a client wants leaders for. */
export interface MetadataRequest {
  readonly topics: readonly string[];
}

export interface PartitionMetadata {
  readonly partition: number;
  /** LEADER_NOT_AVAILABLE with leader null when the partition is offline (KRaftMetadataCache). */
  readonly error: KafkaError;
  readonly leader: ActorId | null;
  readonly leaderEpoch: number;
  readonly replicas: readonly ActorId[];
  readonly isr: readonly ActorId[];
}

export interface MetadataResponse {
  readonly brokers: readonly ActorId[];
  readonly topics: readonly { readonly name: string; readonly partitions: readonly PartitionMetadata[] }[];
}

/** A broker's heartbeat to the controller (BrokerHeartbeatRequest), every broker.heartbeat.interval.ms. */
export interface BrokerHeartbeatRequest {
  readonly brokerId: ActorId;
  /** Changes on every restart (the broker registers anew). */
  readonly brokerEpoch: number;
  /** Set from the broker's controlled shutdown on (BrokerLifecycleManager's PENDING_CONTROLLED_SHUTDOWN). */
  readonly wantShutDown?: true;
}

/**
 * The controller's answer (BrokerHeartbeatResponse). `inControlledShutdown` and `shouldShutDown`
 * are given to a broker that asked to shut down: leaderships still moving, or it may stop now.
 */
export interface BrokerHeartbeatResponse {
  readonly isFenced: boolean;
  readonly error?: 'DUPLICATE_BROKER_REGISTRATION';
  readonly inControlledShutdown?: boolean;
  readonly shouldShutDown?: boolean;
}

/** A leader's ISR change (AlterPartitionRequest) for one partition. */
export interface AlterPartitionRequest extends TopicPartition {
  readonly leaderId: ActorId;
  readonly leaderEpoch: number;
  readonly partitionEpoch: number;
  readonly newIsr: readonly ActorId[];
}

export interface AlterPartitionResponse extends TopicPartition {
  /** NONE, FENCED_LEADER_EPOCH, INVALID_REQUEST, INVALID_UPDATE_VERSION, INELIGIBLE_REPLICA or UNKNOWN_TOPIC_OR_PARTITION. */
  readonly error: KafkaError;
  readonly leaderId: ActorId | null;
  readonly leaderEpoch: number;
  readonly partitionEpoch: number;
  readonly isr: readonly ActorId[];
}

/** The controller's PartitionChangeRecord (or PartitionRecord at creation), as each broker receives it. */
export interface PartitionChange extends TopicPartition {
  /** null: no leader (the partition is offline). */
  readonly leader: ActorId | null;
  readonly leaderEpoch: number;
  readonly partitionEpoch: number;
  /** Assignment order; the first is the preferred leader. */
  readonly replicas: readonly ActorId[];
  readonly isr: readonly ActorId[];
  /** The election that produced this leader, when the leader changed. */
  readonly election: 'clean' | 'unclean' | 'preferred' | null;
}

/**
 * A broker's acknowledgement of a PartitionChange (the model's stand-in for a broker's metadata-log
 * fetch reaching the record's offset): the controller resends a record until it is answered.
 */
export interface PartitionChangeResponse extends TopicPartition {
  readonly partitionEpoch: number;
}
