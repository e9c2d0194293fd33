/**
 * Payloads of the RPCs the simulator's actors exchange, named after Kafka's request and response
 * schemas (only the fields the model uses). A Produce request carries one batch for each of several
 * partitions led by its broker, as Kafka's does (flattened: Kafka groups them by topic); so does a
 * consumer's Fetch, one for every partition it fetches from that broker (every request a full fetch:
 * no fetch sessions, KIP-227), and its ListOffsets, one for every partition it looks up there.
 */

import type { IsolationLevel } from '../log/partitionLog';
import type { ControlType, Headers, ProducedBatch, RecordBatch } from '../log/recordBatch';
import type { AbortedTxn } from '../log/transactionIndex';
import type { KafkaError } from './errors';
import type { CurrentLeader } from './replicationMessages';

export type ErrorOrNone = KafkaError;

export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

/** One partition's batch in a Produce request (ProduceRequestData's PartitionProduceData). */
export interface ProducePartitionData extends TopicPartition {
  readonly batch: ProducedBatch;
}

export interface ProduceRequest {
  readonly acks: 0 | 1 | -1;
  readonly transactionalId: string | null;
  /** The producer's request.timeout.ms: how long an acks=all produce may wait for the ISR (DelayedProduce). */
  readonly timeoutMs?: number;
  /** At most one batch per partition, every partition led by the broker the request goes to. */
  readonly partitions: readonly ProducePartitionData[];
}

/** One partition's result in a ProduceResponse (PartitionProduceResponse): each partition is appended, and fails, on its own. */
export interface ProducePartitionResponse extends TopicPartition {
  readonly error: ErrorOrNone;
  readonly baseOffset: number;
  readonly errorMessage: string | null;
  /** KIP-951: with NOT_LEADER_OR_FOLLOWER / FENCED_LEADER_EPOCH, the leader as the broker knows it. */
  readonly currentLeader?: CurrentLeader;
}

/** One answer for the whole request: a result for each of its partitions, in the request's order. */
export interface ProduceResponse {
  readonly responses: readonly ProducePartitionResponse[];
}

export interface InitProducerIdRequest {
  readonly transactionalId: string | null;
  readonly transactionTimeoutMs: number;
  /** Kafka 2.5+ (KIP-360): a producer may send its current id/epoch to have its epoch bumped. */
  readonly producerId: number;
  readonly producerEpoch: number;
}

export interface InitProducerIdResponse {
  readonly error: ErrorOrNone;
  readonly producerId: number;
  readonly producerEpoch: number;
}

export interface AddPartitionsToTxnRequest {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly partitions: readonly TopicPartition[];
  /** Sent by a broker to check a partition is in the transaction (transaction.partition.verification.enable). */
  readonly verifyOnly: boolean;
}

export interface AddPartitionsToTxnResponse {
  readonly error: ErrorOrNone;
  readonly partitions: readonly (TopicPartition & { error: ErrorOrNone })[];
}

/** One transaction of a broker's AddPartitionsToTxn (v4+, AddPartitionsToTxnTransaction). */
export type AddPartitionsToTxnTransaction = AddPartitionsToTxnRequest;

/**
 * A broker's AddPartitionsToTxn (v4+, AddPartitionsToTxnManager): every transaction its leader is
 * waiting to verify with this coordinator, each with its own verifyOnly.
 */
export interface AddPartitionsToTxnBatchRequest {
  readonly transactions: readonly AddPartitionsToTxnTransaction[];
}

/** One transaction's answer in a v4+ AddPartitionsToTxnResponse (AddPartitionsToTxnResult): an error per partition. */
export interface AddPartitionsToTxnResult {
  readonly transactionalId: string;
  readonly partitions: readonly (TopicPartition & { error: ErrorOrNone })[];
}

/** The answer to a v4+ AddPartitionsToTxn: a request-level error (rare), else a result per transaction. */
export interface AddPartitionsToTxnBatchResponse {
  readonly error: ErrorOrNone;
  readonly resultsByTransaction: readonly AddPartitionsToTxnResult[];
}

export interface AddOffsetsToTxnRequest {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly groupId: string;
}

export interface SimpleResponse {
  readonly error: ErrorOrNone;
}

export interface EndTxnRequest {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly committed: boolean;
}

export interface EndTxnResponse {
  readonly error: ErrorOrNone;
  /** Protocol v2 (KIP-890): the epoch the producer must use next. */
  readonly producerId: number;
  readonly producerEpoch: number;
}

export interface TxnMarkerEntry {
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch: number;
  readonly result: ControlType;
  readonly partitions: readonly TopicPartition[];
  readonly transactionalId: string;
}

export interface WriteTxnMarkersRequest {
  readonly markers: readonly TxnMarkerEntry[];
}

export interface WriteTxnMarkersResponse {
  readonly markers: readonly { producerId: number; partitions: readonly (TopicPartition & { error: ErrorOrNone })[] }[];
}

export interface TxnOffsetCommitRequest {
  readonly transactionalId: string;
  readonly groupId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly generationId: number;
  readonly memberId: string;
  /** group.instance.id of a static member (KIP-345); absent for a dynamic member. */
  readonly groupInstanceId?: string;
  readonly offsets: readonly CommittedOffset[];
}

/**
 * A partition's offset in an OffsetCommit / TxnOffsetCommit, with its committedLeaderEpoch (KIP-320:
 * the leader epoch of the last record consumed, FetchPosition.offsetEpoch). Kafka sends −1 for none;
 * the model leaves the field out then.
 */
export type CommittedOffset = TopicPartition & { readonly offset: number; readonly committedLeaderEpoch?: number };

export interface OffsetCommitRequest {
  readonly groupId: string;
  readonly generationId: number;
  readonly memberId: string;
  /** group.instance.id of a static member (KIP-345); absent for a dynamic member. */
  readonly groupInstanceId?: string;
  readonly offsets: readonly CommittedOffset[];
}

export interface OffsetCommitResponse {
  readonly error: ErrorOrNone;
}

export interface OffsetFetchRequest {
  readonly groupId: string;
  readonly partitions: readonly TopicPartition[];
  readonly requireStable: boolean;
}

export interface OffsetFetchResponse {
  readonly error: ErrorOrNone;
  readonly offsets: readonly (CommittedOffset & { error: ErrorOrNone })[];
}

/** One partition of a ListOffsets (ListOffsetsRequestData.ListOffsetsPartition): timestamp −2 earliest, −1 latest. */
export interface ListOffsetsPartition extends TopicPartition {
  readonly timestamp: number;
}

/**
 * A consumer's ListOffsets to one broker: every partition it looks up there, each with its own
 * timestamp (OffsetFetcher.groupListOffsetRequests → sendListOffsetRequest(node, …)).
 */
export interface ListOffsetsRequest {
  readonly isolationLevel: IsolationLevel;
  readonly partitions: readonly ListOffsetsPartition[];
}

/** One partition of a ListOffsetsResponse, with its own error (offset −1 with an error). */
export interface ListOffsetsPartitionResponse extends TopicPartition {
  readonly error: ErrorOrNone;
  readonly offset: number;
}

/** The answer to a ListOffsets: every partition it named, in its order (KafkaApis.handleListOffsetRequest). */
export interface ListOffsetsResponse {
  readonly partitions: readonly ListOffsetsPartitionResponse[];
}

/** One partition of a consumer's Fetch (FetchRequest.FetchPartition). */
export interface FetchPartition extends TopicPartition {
  readonly fetchOffset: number;
  /** The leader epoch the consumer knows (KIP-320); sent only for a topic whose metadata carries epochs. */
  readonly currentLeaderEpoch?: number;
  /**
   * The most records this partition's answer carries: the model's partition_max_bytes
   * (max.partition.fetch.bytes), counted in records — the consumer sends max.poll.records.
   */
  readonly maxRecords: number;
}

/** A consumer's Fetch to one broker: every partition it fetches from that broker (a full fetch, no session). */
export interface FetchRequest {
  readonly isolationLevel: IsolationLevel;
  /** fetch.max.wait.ms: how long the broker may hold the fetch while it has less than minBytes. */
  readonly maxWaitMs: number;
  /** fetch.min.bytes (its default, 1): the model measures a partition's answer in records, control records included. */
  readonly minBytes: number;
  readonly partitions: readonly FetchPartition[];
}

/** One partition of a FetchResponse (FetchResponse.PartitionData). */
export interface FetchPartitionResponse extends TopicPartition {
  readonly error: ErrorOrNone;
  readonly highWatermark: number;
  readonly lastStableOffset: number;
  readonly logStartOffset: number;
  readonly batches: readonly RecordBatch[];
  readonly abortedTransactions: readonly AbortedTxn[];
  /** KIP-951: with NOT_LEADER_OR_FOLLOWER / FENCED_LEADER_EPOCH, the leader as the broker knows it. */
  readonly currentLeader?: CurrentLeader;
}

/** The answer to a consumer's Fetch: every partition it asked for, in its order, each with its own error. */
export interface FetchResponse {
  readonly partitions: readonly FetchPartitionResponse[];
}

/**
 * OffsetsForLeaderEpoch (KIP-320), a consumer validating its positions after a leader change: per
 * partition, the leader epoch it knows (currentLeaderEpoch, fenced as a Fetch's is) and the epoch of
 * the last record it consumed (leaderEpoch: the position's offsetEpoch), whose end offset the leader gives.
 */
export interface OffsetForLeaderPartition extends TopicPartition {
  readonly currentLeaderEpoch: number;
  readonly leaderEpoch: number;
}

export interface OffsetsForLeaderEpochRequest {
  readonly partitions: readonly OffsetForLeaderPartition[];
}

/** EpochEndOffset: the largest epoch ≤ the one asked for and its end offset; −1/−1 when the leader knows none. */
export interface EpochEndOffset extends TopicPartition {
  readonly error: ErrorOrNone;
  readonly leaderEpoch: number;
  readonly endOffset: number;
}

export interface OffsetsForLeaderEpochResponse {
  readonly partitions: readonly EpochEndOffset[];
}

export interface JoinGroupRequest {
  readonly groupId: string;
  readonly memberId: string;
  /** group.instance.id of a static member (KIP-345); absent for a dynamic member. */
  readonly groupInstanceId?: string;
  readonly sessionTimeoutMs: number;
  /** The client's max.poll.interval.ms. */
  readonly rebalanceTimeoutMs: number;
  readonly topics: readonly string[];
  /**
   * Kafka Streams' main consumer (the COOPERATIVE protocol, StreamsPartitionAssignor): the partitions
   * it owns, in its subscription (ConsumerProtocol Subscription.ownedPartitions). Absent for a plain
   * consumer, whose default assignors give EAGER — the coordinator then assigns by range.
   */
  readonly ownedPartitions?: readonly TopicPartition[];
}

export interface JoinGroupResponse {
  readonly error: ErrorOrNone;
  readonly generationId: number;
  readonly memberId: string;
  readonly leader: string;
}

export interface SyncGroupRequest {
  readonly groupId: string;
  readonly generationId: number;
  readonly memberId: string;
  /** group.instance.id of a static member (KIP-345); absent for a dynamic member. */
  readonly groupInstanceId?: string;
}

/** LeaveGroup (one member: the model's clients leave one at a time). */
export interface LeaveGroupRequest {
  readonly groupId: string;
  readonly memberId: string;
  /** group.instance.id of a static member (KIP-345); absent for a dynamic member. */
  readonly groupInstanceId?: string;
}

export interface SyncGroupResponse {
  readonly error: ErrorOrNone;
  readonly assignment: readonly TopicPartition[];
}

export interface HeartbeatRequest {
  readonly groupId: string;
  readonly generationId: number;
  readonly memberId: string;
  /** group.instance.id of a static member (KIP-345); absent for a dynamic member. */
  readonly groupInstanceId?: string;
}

export interface RecordForApp {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: string | null;
  readonly value: string | null;
  readonly headers: Headers;
}
