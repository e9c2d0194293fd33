/**
 * Every event the consumer client handles, as one discriminated union on `type`: what the kernel
 * delivers (responses to its requests, its own timers, the application's calls, a lost request, a
 * crash), so handlers and guards read their fields without casts.
 */
import type { Call, Lifecycle, Rpc, Timer } from '../actors/events';
import type { ConnectionClosedEvent, DisconnectedEvent } from '../kernel/effects';
import type { ActorId, RpcName } from '../kernel/envelope';
import type { IsolationLevel } from '../log/partitionLog';
import type { KafkaError } from '../protocol/errors';
import type {
  CommittedOffset,
  FetchResponse,
  JoinGroupResponse,
  ListOffsetsResponse,
  OffsetCommitResponse,
  OffsetFetchResponse,
  OffsetsForLeaderEpochResponse,
  SyncGroupResponse,
  TopicPartition,
} from '../protocol/messages';
import type { MetadataResponse } from '../protocol/replicationMessages';

/** A response to one of the consumer's requests: it echoes the request's correlationId. */
type Response<T extends RpcName, P> = Rpc<T, P & { readonly correlationId: number }>;

/** OffsetAndMetadata: an offset with the leader epoch of the last record consumed before it, when known (KIP-320). */
export type OffsetAndPartition = CommittedOffset;

export type ConsumerEvent =
  // the kernel: the process starts, crashes, restarts
  | Lifecycle
  | DisconnectedEvent
  | ConnectionClosedEvent
  // responses (AbstractCoordinator, ConsumerCoordinator, Fetcher, OffsetFetcher)
  | Response<'JoinGroupResponse', JoinGroupResponse>
  | Response<'SyncGroupResponse', SyncGroupResponse>
  | Response<'HeartbeatResponse', { readonly error: KafkaError }>
  | Response<'OffsetCommitResponse', OffsetCommitResponse>
  | Response<'OffsetFetchResponse', OffsetFetchResponse>
  | Response<'ListOffsetsResponse', ListOffsetsResponse>
  | Response<'FetchResponse', FetchResponse>
  | Response<'OffsetsForLeaderEpochResponse', OffsetsForLeaderEpochResponse>
  | Response<'MetadataResponse', MetadataResponse>
  | Response<'FindCoordinatorResponse', { readonly error: KafkaError; readonly coordinator: ActorId | null }>
  // its timers
  | Timer<'heartbeatDue'>
  | Timer<'rejoinBackoff'>
  | Timer<'autoCommitDue'>
  | Timer<'commitRetry'>
  | Timer<'commitDeadline', { readonly correlationId: number }>
  | Timer<'fetchRetry'>
  | Timer<'validationRetry', { readonly partition: string }>
  | Timer<'metadataUpdateDue'>
  | Timer<'offsetsRetry'>
  | Timer<'pollPass'>
  | Timer<'coordinatorLookupRetry', { readonly metadata?: boolean }>
  | Timer<'heartbeatThreadLookup'>
  | Timer<'heartbeatSessionExpired'>
  | Timer<'pollTimeoutExpired'>
  | Timer<'reconnectBackoffExpired', { readonly node: string }>
  // the application's calls (KafkaConsumer's API) and its rebalance listener returning
  | Call<'poll'>
  | Call<'commitSync', { readonly offsets?: readonly OffsetAndPartition[] }>
  | Call<'seek', TopicPartition & { readonly offset: number }>
  | Call<'seekToBeginning'>
  | Call<'seekToCommitted'>
  | Call<'groupMetadata'>
  | Call<'endOffsets', { readonly isolationLevel?: IsolationLevel }>
  | Call<'resubscribe'>
  | Call<'close'>
  | Call<'partitionsAssignedDone', { readonly offsets: Readonly<Record<string, number>> }>
  | Call<'partitionsRevokedDone'>;

export type ConsumerEventType = ConsumerEvent['type'];

/** The event of one type. */
export type EventOf<T extends ConsumerEventType> = Extract<ConsumerEvent, { type: T }>;

/** An application call: who to answer. */
export type AppCall = Extract<ConsumerEvent, { from: ActorId; args: unknown }>;
