/**
 * The producer client's memory: its producer id and epoch, sequence numbers per partition, the
 * records waiting to be batched (RecordAccumulator), the batches in flight or waiting to be retried
 * (Sender), and the transaction bookkeeping (TransactionManager).
 */

import type { Mutable } from '../actors/draft';
import { type ClientMetadataState, INITIAL_CLIENT_METADATA } from '../cluster/clientMetadata';
import { type ConnectionStates, NO_CONNECTION_STATES } from '../cluster/connectionStates';
import type { ClusterMetadata } from '../cluster/metadata';
import type { ProducerConfig } from '../config/producerConfig';
import type { ActorId, RequestRpc } from '../kernel/envelope';
import type { Headers } from '../log/recordBatch';
import type { TopicPartition } from '../protocol/messages';
import type { BufferWaiter } from './bufferPool';
import type { StickyPartition } from './partitioner';
import { type PartitionQueue, queueSize } from './recordAccumulator';
import type { SendArgs } from './sender';

export interface PendingRecord {
  /** The application's handle on this record (for its send result). */
  readonly ref: number;
  readonly topic: string;
  readonly partition: number;
  readonly key: string | null;
  readonly value: string | null;
  readonly headers: Headers;
  readonly timestamp: number;
  readonly bytes: number;
  /** The actor told of this record's failure (a `sendFailed` call), when its send() asked for it. */
  readonly callback?: ActorId;
  /** It opened a new batch after one a record had closed, though it would have fitted there (recordAccumulator.ts). */
  readonly opensBatch?: true;
}

export interface ProducerBatch {
  readonly id: number;
  readonly topic: string;
  readonly partition: number;
  /** The leader it was last sent to (the partition's leader when it is sent again may differ). */
  readonly broker: ActorId;
  /** That leader's epoch as the producer knew it then: a retry to a newer leader skips the backoff (KIP-951). */
  readonly leaderEpoch: number;
  readonly records: readonly PendingRecord[];
  readonly createdAt: number;
  /** Assigned when the batch is first drained; kept across retries; rewritten by an epoch bump. */
  readonly baseSequence: number;
  /** Its sequence was rewritten after it was first sent (Kafka's ProducerBatch.sequenceHasBeenReset). */
  readonly sequenceReset: boolean;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly attempts: number;
  readonly inFlight: boolean;
  /** Earliest time a retry may be sent. */
  readonly retryAt: number;
  /** Correlation id of the Produce request carrying it, while in flight. */
  readonly correlationId: number | null;
}

export interface PendingOffsets {
  readonly groupId: string;
  readonly generationId: number;
  readonly memberId: string;
  readonly groupInstanceId?: string;
  readonly offsets: readonly (TopicPartition & { offset: number })[];
  /** AddOffsetsToTxn first (protocol v1), then TxnOffsetCommit to the group coordinator. */
  readonly phase: 'AddOffsetsToTxn' | 'TxnOffsetCommit';
}

export interface PendingTransition {
  readonly call: 'initTransactions' | 'commitTransaction' | 'abortTransaction';
  /** TransactionalRequestResult once done or failed; null while it still waits. */
  readonly result: { readonly ok: boolean; readonly error: string | null } | null;
}

export interface CoordinatorRequest {
  readonly rpc: RequestRpc;
  readonly correlationId: number;
  readonly attempts: number;
  /** A FindCoordinator for the group coordinator (key type GROUP) rather than the transaction coordinator. */
  readonly group?: true;
}

/** The producer's record counters, as Kafka's SenderMetrics sensors count records. */
export interface RecordCounts {
  readonly sent: number;
  readonly retried: number;
  readonly failed: number;
}

export const NO_RECORD_COUNTS: RecordCounts = Object.freeze({ sent: 0, retried: 0, failed: 0 });

export interface ProducerContext {
  readonly self: ActorId;
  /** The application that owns this producer (where call results go). */
  readonly app: ActorId;
  /** The scenario client id, used in facts. */
  readonly client: string;
  /** The leaders and leader epochs it knows (Metadata's snapshot), updated by Metadata answers and KIP-951 hints. */
  readonly meta: ClusterMetadata;
  /** When it asks for metadata next (Metadata / DefaultMetadataUpdater). */
  readonly metadata: ClientMetadataState;
  /** NetworkClient's ClusterConnectionStates: per broker, a failed connection and its reconnect backoff. */
  readonly connections: ConnectionStates;
  readonly config: ProducerConfig;
  readonly idempotent: boolean;
  readonly transactional: boolean;
  readonly transactionVersion: 1 | 2;

  readonly producerId: number;
  readonly producerEpoch: number;
  readonly nextSequence: Readonly<Record<string, number>>;
  readonly lastAckedSequence: Readonly<Record<string, number>>;
  /** The epoch each partition's sequences belong to (Kafka's TxnPartitionEntry.producerIdAndEpoch). */
  readonly partitionEpochs: Readonly<Record<string, number>>;
  /** An idempotent producer bumps its own epoch at the next Sender loop (KIP-360's epochBumpRequired) … */
  readonly epochBumpPending: boolean;
  /** … and rewrites the sequences of these partitions only (partitionsToRewriteSequences). */
  readonly partitionsToRewrite: readonly string[];
  /** Partitions with an expired batch whose fate is unknown: the sequence after it (partitionsWithUnresolvedSequences). */
  readonly unresolvedSequences: Readonly<Record<string, number>>;

  /** Records waiting for linger.ms or a free in-flight slot, per partition. */
  readonly accumulating: Readonly<Record<string, PartitionQueue>>;
  readonly batches: readonly ProducerBatch[];
  /**
   * Batches that expired (delivery.timeout.ms) while their Produce request was outstanding: they have
   * failed and left `batches` (and the TransactionManager's in-flight set), but the request stays in
   * NetworkClient's InFlightRequests until it is answered or its connection closes. Until then it
   * counts against max.in.flight.requests.per.connection, and at 1 its partition stays muted
   * (Sender.completeBatch unmutes it at the answer).
   */
  readonly expiredInFlight: readonly ProducerBatch[];
  /** Per broker, where the next drain of its partitions starts (RecordAccumulator.nodesDrainIndex). */
  readonly drainIndex: Readonly<Record<string, number>>;
  readonly nextBatchId: number;
  readonly nextCorrelationId: number;
  readonly nextRef: number;
  /** flush() or commitTransaction() makes every record sendable at once (ignores linger.ms). */
  readonly flushing: boolean;
  /** Per topic, the built-in partitioner's sticky partition for records of no key (partitioner.ts). */
  readonly sticky: Readonly<Record<string, StickyPartition>>;

  // TransactionManager
  readonly txnPartitions: readonly string[];
  readonly pendingPartitions: readonly string[];
  readonly pendingOffsets: PendingOffsets | null;
  readonly endTxn: 'COMMIT' | 'ABORT' | null;
  readonly transactionStarted: boolean;
  /**
   * TransactionManager's state is IN_TRANSACTION or one it leads to (COMMITTING_TRANSACTION,
   * ABORTING_TRANSACTION, ABORTABLE_ERROR): from beginTransaction() to the transaction's end. Outside
   * it (UNINITIALIZED, INITIALIZING, READY) ABORTABLE_ERROR is no valid transition: a batch failing
   * there poisons the producer (sendOutsideTransaction.ts).
   */
  readonly inTransaction: boolean;
  /** An InitProducerId is owed (at start, after initTransactions(), after a restart). */
  readonly initPending: boolean;
  /**
   * Protocol v1 (KIP-360's clientSideEpochBumpRequired): a batch failed while the transaction was open,
   * or an expired batch left a sequence unresolved; abortTransaction() then ends with an InitProducerId
   * carrying the current producerId and epoch, which bumps the epoch and restarts every sequence.
   */
  readonly clientEpochBumpRequired: boolean;
  /** That InitProducerId is owed now (after the EndTxn(ABORT) it follows). */
  readonly epochBumpInit: boolean;
  readonly coordinatorRequest: CoordinatorRequest | null;
  /** When the coordinator lives on a __transaction_state leader: the one FindCoordinator named (null: look it up). */
  readonly txnCoordinator?: ActorId | null;
  /** When the group coordinator lives on a __consumer_offsets leader: the one FindCoordinator(GROUP) named for TxnOffsetCommit. */
  readonly groupCoordinator?: ActorId | null;
  readonly txnRetryArmed: boolean;
  /**
   * A FindCoordinator was sent for the request that needed the coordinator: that request is a retry
   * (Sender.maybeFindCoordinatorAndRetry → TransactionManager.retry), sent retry.backoff.ms after the
   * answer (`time.sleep(nextRequestHandler.retryBackoffMs())`).
   */
  readonly retryAfterLookup?: true;
  /**
   * A delivery.timeout.ms passed while a transactional request held the data back (Sender.runOnce
   * returns before sendProducerData, which is where batches expire): the expiry is owed when the data
   * may go again.
   */
  readonly expiryDeferred?: boolean;
  readonly lastError: string | null;
  /**
   * The error that put the transaction in ABORTABLE_ERROR (Kafka's lastError there): until
   * abortTransaction(), queued transactional requests — a pending EndTxn(COMMIT) among them — are
   * failed with it instead of being sent (TransactionManager.maybeTerminateRequestWithError).
   */
  readonly abortableError: string | null;

  /**
   * A blocking call of the application waiting for completion (flush, commitTransaction, close …);
   * `deadline`: when a transactional one gives up (max.block.ms after it was called, maxBlock.ts).
   */
  readonly waiting: {
    readonly call: string;
    readonly from: ActorId;
    readonly deadline?: number;
    /** close(Duration): when the close gives up waiting and closes forcefully (forceClose.ts), and its timeout. */
    readonly forceCloseAt?: number;
    readonly closeTimeoutMs?: number;
  } | null;
  /**
   * TransactionManager.pendingTransition: initTransactions(), commitTransaction() or abortTransaction()
   * threw TimeoutException and its request goes on; `result` is its outcome once the Sender completed
   * it. Calling the same method again waits for that result; another transactional call is refused.
   */
  readonly pendingTransition: PendingTransition | null;
  /** ProducerMetadata's topics with metadata: a Metadata answer named them (a new producer knows none). */
  readonly topicsKnown: readonly string[];
  /** ProducerMetadata.newTopics: added by a send() (waitOnMetadata), no answer named them yet. */
  readonly newTopics: readonly string[];
  /**
   * ProducerMetadata.topics' expiry: each send() to a topic (waitOnMetadata's `add`) sets it to now +
   * metadata.max.idle.ms; a metadata update past it forgets the topic (`retainTopic`, waitOnMetadata.ts).
   */
  readonly topicExpiry: Readonly<Record<string, number>>;
  /** The send() blocked in waitOnMetadata until its topic is known, or until `deadline` (max.block.ms). */
  readonly heldSend: HeldSend | null;
  /** The send() calls blocked in BufferPool.allocate, oldest first (bufferPool.ts). */
  readonly bufferWaiters: readonly BufferWaiter[];
  /**
   * What Kafka's producer-metrics sensors would have counted so far (SenderMetricsRegistry): records
   * drained into Produce requests (record-send-total), re-enqueued after a retriable error
   * (record-retry-total), failed by the Sender or refused by send() (record-error-total). Read by
   * ../metrics/clientMetrics.ts; nothing in the model reads them back.
   */
  readonly recordCounts: RecordCounts;
  /**
   * What the last event asked of the TransactionManager's state (Kafka's transitionTo calls in its
   * handlers): the machine's guards read it and take the transition. Reset by every handler.
   */
  readonly txnSignal: TxnSignal;
}

/**
 * initialized → READY, completed → READY, abortable → ABORTABLE_ERROR, fatal → FATAL_ERROR,
 * epochBump → INITIALIZING (protocol v1's abort that bumps the epoch: TransactionManager.completeTransaction).
 */
/** A send() waiting in waitOnMetadata: the call as the application made it. */
export interface HeldSend {
  readonly from: ActorId;
  readonly args: SendArgs;
  readonly deadline: number;
  /**
   * waitOnMetadata's `partitionsCount` as its loop last read it: the topic's partition count before
   * the last update, null while the topic was not known (the message of a timeout names it).
   */
  readonly partitionsCount: number | null;
}

export type TxnSignal = 'none' | 'initialized' | 'completed' | 'abortable' | 'fatal' | 'epochBump';

export interface ProducerInput {
  readonly self: ActorId;
  readonly app: ActorId;
  readonly client: string;
  readonly meta: ClusterMetadata;
  readonly config: ProducerConfig;
  readonly transactionVersion: 1 | 2;
  /**
   * Topics whose metadata the producer starts with: none in a run (a KafkaProducer knows no topic
   * before its first send()); machine tests of other rules start past waitOnMetadata.
   */
  readonly knownTopics?: readonly string[];
}

export function initialProducerContext(input: ProducerInput): ProducerContext {
  return {
    self: input.self,
    app: input.app,
    client: input.client,
    meta: input.meta,
    metadata: INITIAL_CLIENT_METADATA,
    connections: NO_CONNECTION_STATES,
    config: input.config,
    idempotent: input.config['enable.idempotence'],
    transactional: input.config['transactional.id'] !== null,
    transactionVersion: input.transactionVersion,
    producerId: -1,
    producerEpoch: -1,
    nextSequence: {},
    lastAckedSequence: {},
    partitionEpochs: {},
    epochBumpPending: false,
    partitionsToRewrite: [],
    unresolvedSequences: {},
    accumulating: {},
    batches: [],
    expiredInFlight: [],
    drainIndex: {},
    nextBatchId: 0,
    nextCorrelationId: 0,
    nextRef: 0,
    flushing: false,
    sticky: {},
    txnPartitions: [],
    pendingPartitions: [],
    pendingOffsets: null,
    endTxn: null,
    transactionStarted: false,
    inTransaction: false,
    initPending: false,
    clientEpochBumpRequired: false,
    epochBumpInit: false,
    coordinatorRequest: null,
    txnRetryArmed: false,
    lastError: null,
    abortableError: null,
    waiting: null,
    pendingTransition: null,
    topicsKnown: input.knownTopics ?? [],
    newTopics: [],
    topicExpiry: {},
    heldSend: null,
    recordCounts: NO_RECORD_COUNTS,
    bufferWaiters: [],
    txnSignal: 'none',
  };
}

/**
 * A handler's draft: a copy of the context with its TxnSignal reset, exactly as
 * `{ ...c, txnSignal: 'none' }` (same keys, same order), written out field by field. A spread of an
 * object whose fields V8 keeps out of line (as a clone made by a busy spread site is) takes its slow
 * path, ten times the cost of this literal, on every producer event; the literal keeps every copy
 * in one in-line layout. A context with one of the optional fields (set when a coordinator lives on
 * a partition leader) is spread, so that their order stays the order they were set in.
 */
export function producerDraft(c: ProducerContext): Mutable<ProducerContext> {
  if ('txnCoordinator' in c || 'groupCoordinator' in c) return { ...c, txnSignal: 'none' };
  return {
    self: c.self,
    app: c.app,
    client: c.client,
    meta: c.meta,
    metadata: c.metadata,
    connections: c.connections,
    config: c.config,
    idempotent: c.idempotent,
    transactional: c.transactional,
    transactionVersion: c.transactionVersion,
    producerId: c.producerId,
    producerEpoch: c.producerEpoch,
    nextSequence: c.nextSequence,
    lastAckedSequence: c.lastAckedSequence,
    partitionEpochs: c.partitionEpochs,
    epochBumpPending: c.epochBumpPending,
    partitionsToRewrite: c.partitionsToRewrite,
    unresolvedSequences: c.unresolvedSequences,
    accumulating: c.accumulating,
    batches: c.batches,
    expiredInFlight: c.expiredInFlight,
    drainIndex: c.drainIndex,
    nextBatchId: c.nextBatchId,
    nextCorrelationId: c.nextCorrelationId,
    nextRef: c.nextRef,
    flushing: c.flushing,
    sticky: c.sticky,
    txnPartitions: c.txnPartitions,
    pendingPartitions: c.pendingPartitions,
    pendingOffsets: c.pendingOffsets,
    endTxn: c.endTxn,
    transactionStarted: c.transactionStarted,
    inTransaction: c.inTransaction,
    initPending: c.initPending,
    clientEpochBumpRequired: c.clientEpochBumpRequired,
    epochBumpInit: c.epochBumpInit,
    coordinatorRequest: c.coordinatorRequest,
    txnRetryArmed: c.txnRetryArmed,
    lastError: c.lastError,
    abortableError: c.abortableError,
    waiting: c.waiting,
    pendingTransition: c.pendingTransition,
    topicsKnown: c.topicsKnown,
    newTopics: c.newTopics,
    topicExpiry: c.topicExpiry,
    heldSend: c.heldSend,
    recordCounts: c.recordCounts,
    bufferWaiters: c.bufferWaiters,
    txnSignal: 'none',
    // set on a draft (d.retryAfterLookup = true), an optional field is the context's last key
    ...(c.retryAfterLookup ? { retryAfterLookup: true as const } : {}),
    ...(c.expiryDeferred ? { expiryDeferred: true } : {}),
  };
}

/** Every record the producer still owes the application a result for. */
export function hasIncompleteRecords(ctx: ProducerContext): boolean {
  if (ctx.batches.length > 0) return true;
  for (const q of Object.values(ctx.accumulating)) if (queueSize(q) > 0) return true;
  return false;
}

/**
 * What a graceful close() still waits for besides its records (Sender.run after `running` turns
 * false): a transactional request in flight (`client.inFlightRequestCount() > 0`), one waiting out its
 * retry backoff inside a transaction (`hasPendingTransactionalRequests`: pending requests and
 * `hasOngoingTransaction`), or a transaction completing — COMMITTING_TRANSACTION or
 * ABORTING_TRANSACTION, whose EndTxn the third loop waits for (`hasOngoingTransaction` while
 * `isCompleting`).
 */
export function closeHeldByTransaction(ctx: ProducerContext): boolean {
  return ctx.coordinatorRequest !== null || (ctx.inTransaction && (ctx.txnRetryArmed || ctx.endTxn !== null));
}

/** close() may finish now: no record owed a result, nothing of the above, no transaction open. */
export function closeMayFinish(ctx: ProducerContext): boolean {
  return !hasIncompleteRecords(ctx) && !closeHeldByTransaction(ctx) && !ctx.inTransaction;
}

/**
 * close() must abort the open transaction first (Sender.run: `hasOngoingTransaction()` and not
 * `isCompleting()` → `beginAbort()`, "Aborting incomplete transaction due to shutdown"): IN_TRANSACTION
 * or ABORTABLE_ERROR, once the records and the transactional requests are done.
 */
export function closeMustAbort(ctx: ProducerContext): boolean {
  return !hasIncompleteRecords(ctx) && !closeHeldByTransaction(ctx) && ctx.inTransaction;
}

export function backoffMs(config: ProducerConfig, attempts: number): number {
  const base = config['retry.backoff.ms'] * 2 ** Math.max(0, attempts - 1);
  return Math.min(config['retry.backoff.max.ms'], base);
}
