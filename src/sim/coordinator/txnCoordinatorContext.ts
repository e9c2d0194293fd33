/**
 * The transaction coordinator's context, and the part of Kafka's TransactionStateManager the
 * coordinator's handlers share: writing a transactional.id's new metadata to its
 * `__transaction_state` partition (persist) or changing it in memory only (setState, for
 * PrepareEpochFence), each change told as a `txnState` fact.
 */
import type { Mutable } from '../actors/draft';
import type { Out } from '../actors/out';
import type { ConnectionStates } from '../cluster/connectionStates';
import { type ClusterMetadata, TRANSACTION_STATE_TOPIC } from '../cluster/metadata';
import type { Effect } from '../kernel/effects';
import type { ActorId } from '../kernel/envelope';
import { appendProducerBatch, type PartitionLog } from '../log/partitionLog';
import { coordinatorPartitionFor } from '../producer/partitioner';
import { topicPartitionKey } from '../protocol/topicPartition';
import type { OpenAddPartitionsBatch } from './addPartitionsBatch';
import { rearmOnChange } from './transactionalIdExpiration';
import { encodeTxnRecord, type TxnMetadata } from './transactionMetadata';
import { canTransition } from './transactionState';

export interface TxnCoordinatorConfig {
  /** transaction.abort.timed.out.transaction.cleanup.interval.ms */
  readonly cleanupIntervalMs: number;
  /** transaction.max.timeout.ms */
  readonly maxTimeoutMs: number;
  /** transactional.id.expiration.ms (transactionalIdExpiration.ts) */
  readonly transactionalIdExpirationMs: number;
  /** transaction.remove.expired.transaction.cleanup.interval.ms */
  readonly removeExpiredIntervalMs: number;
  readonly transactionVersion: 1 | 2;
  /** How long replaying `__transaction_state` takes after a failover. */
  readonly loadTimeMs: number;
  /** Inter-broker request timeout for WriteTxnMarkers. */
  readonly requestTimeoutMs: number;
}

export const DEFAULT_TXN_COORDINATOR_CONFIG: TxnCoordinatorConfig = {
  cleanupIntervalMs: 10000,
  maxTimeoutMs: 900000,
  transactionalIdExpirationMs: 604800000,
  removeExpiredIntervalMs: 3600000,
  transactionVersion: 1,
  loadTimeMs: 50,
  requestTimeoutMs: 30000,
};

export interface MarkerWork {
  readonly result: 'COMMIT' | 'ABORT';
  readonly producerId: number;
  readonly producerEpoch: number;
  /** Partitions whose marker is not yet acknowledged. */
  readonly remaining: readonly string[];
  /**
   * The channel's requests carrying some of these partitions (generated: waiting to be sent or in
   * flight, `MarkerSends`), oldest first: correlation id and the partitions of this transaction it
   * carries. A list, not an object keyed by correlation id: integer keys live in V8's elements store,
   * which a spread copies at the size of the largest id so far — a copy per request that grew with the run.
   */
  readonly inFlight: readonly MarkerRequest[];
  /** Partitions refused with a retriable error, waiting out the channel's `markerRetry` pause. Absent: none. */
  readonly paused?: readonly string[];
  /**
   * A hosted coordinator's PrepareCommit/PrepareAbort (or another write of this transaction) is not
   * yet acknowledged: none of its markers is queued until it is (Kafka queues them in the append's
   * callback, TransactionCoordinator.endTransaction → addTxnMarkersToSend). Absent: queued.
   */
  readonly awaitingWrite?: true;
}

export interface MarkerRequest {
  readonly correlationId: number;
  readonly partitions: readonly string[];
}

/** One transaction's marker in a WriteTxnMarkers request of the channel (a TxnMarkerEntry, fixed when the request is generated). */
export interface MarkerBatchEntry {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  readonly coordinatorEpoch: number;
  readonly result: 'COMMIT' | 'ABORT';
  readonly partitions: readonly string[];
}

/** A WriteTxnMarkers request of the channel: every marker queued for one broker when it was generated. */
export interface MarkerBatch {
  readonly correlationId: number;
  readonly markers: readonly MarkerBatchEntry[];
}

/**
 * The marker channel's requests to one broker (TransactionMarkerChannelManager's InterBrokerSendThread
 * over a NetworkClient with maxInFlightRequestsPerConnection = 1): the one in flight, and those
 * generated after it, waiting (InterBrokerSendThread's unsentRequests), oldest first.
 */
export interface MarkerSends {
  readonly inFlight?: MarkerBatch;
  readonly unsent: readonly MarkerBatch[];
}

export interface TxnCoordinatorContext {
  readonly id: ActorId;
  readonly meta: ClusterMetadata;
  readonly config: TxnCoordinatorConfig;
  /** Durable: producer ids are never handed out twice, even across a failover. */
  readonly nextProducerId: number;
  readonly coordinatorEpoch: number;
  readonly txns: Readonly<Record<string, TxnMetadata>>;
  readonly logs: Readonly<Record<string, PartitionLog>>;
  readonly markers: Readonly<Record<string, MarkerWork>>;
  readonly nextCorrelationId: number;
  /**
   * When this coordinator's broker started (TransactionCoordinator.startup scheduled the
   * "transaction-abort" task at a fixed rate, its first run one cleanup interval later): the cleanup
   * runs are at startedAtMs + k × interval, k ≥ 1. Absent: started with the cluster, at 0; a restart
   * sets it.
   */
  readonly startedAtMs?: number;
  /**
   * When __transaction_state is replicated: the broker hosting this coordinator, whose leader
   * replicas take its writes (acks=-1), and what the writes and leaderships are (hostedTxnCoordinator).
   */
  readonly hosted?: HostedState;
  /** Brokers' v4+ AddPartitionsToTxn requests with some transaction not answered yet (addPartitionsBatch.ts). */
  readonly addPartitionsBatches?: readonly OpenAddPartitionsBatch[];
  /**
   * The one-replica coordinator's lookups of moved data-partition leaders (markerMetadata.ts): whose
   * turn among the brokers is next, and the Metadata request in flight. Absent until the first one.
   */
  readonly leaderLookup?: { readonly turn: number; readonly inFlight?: number };
  /**
   * The one-replica coordinator restarted: the leader moves its brokers told while it was down were
   * missed, so a refused or lost marker of a replicated partition makes it ask (markerMetadata.ts).
   * Absent: its cache has every move (told by the brokers, broker/txnStateHost.ts).
   */
  readonly leadersMissed?: true;
  /**
   * The marker channel's NetworkClient connection states per leader (cluster/connectionStates.ts;
   * markerChannel.ts `markerNodeDisconnected`): absent while every node is READY or never tried.
   */
  readonly markerConnections?: ConnectionStates;
  /** The marker channel's requests per destination broker (markerChannel.ts `flushMarkers`): absent while none. */
  readonly markerSends?: Readonly<Record<ActorId, MarkerSends>>;
}

/** A write to __transaction_state waiting for the host's acks=-1 answer (TransactionStateManager.appendTransactionToLog). */
export interface PendingWrite {
  readonly id: number;
  readonly transactionalId: string;
  readonly partition: number;
  readonly coordinatorEpoch: number;
  /**
   * The transactional.id's metadata and markers before the request that wrote: what Kafka's cache
   * holds while the write is in flight, restored when it fails (an epoch fence's bumped epoch kept,
   * with hasFailedEpochFence).
   */
  readonly before: TxnMetadata | null;
  readonly markersBefore: MarkerWork | null;
  readonly metadata: TxnMetadata;
  /** What the request does once the write succeeded (its answer, the markers, the timeout), held until then. */
  readonly deferred: readonly Effect[];
  /** A write issued by the success of an earlier one in the same request: dropped if that one fails. */
  readonly after: number | null;
}

/** A __transaction_state partition this coordinator leads: loading (its records to replay) or loaded. */
export interface OwnedPartition {
  readonly coordinatorEpoch: number;
  readonly loading: readonly { readonly key: string; readonly value: string | null }[] | null;
}

export interface HostedState {
  readonly host: ActorId;
  readonly owned: Readonly<Record<number, OwnedPartition>>;
  readonly writes: Readonly<Record<number, PendingWrite>>;
  readonly nextWriteId: number;
}

export interface TxnCoordinatorInput {
  readonly id: ActorId;
  readonly meta: ClusterMetadata;
  readonly config: TxnCoordinatorConfig;
  readonly logs: readonly PartitionLog[];
}

export type TxnDraft = Mutable<TxnCoordinatorContext>;

export function stateLogKey(d: TxnDraft, transactionalId: string): string {
  return topicPartitionKey(TRANSACTION_STATE_TOPIC, coordinatorPartitionFor(transactionalId, d.meta.transactionStatePartitions));
}

/** Writes a transactional.id's new metadata to `__transaction_state` and makes it current. */
export function persist(d: TxnDraft, m: TxnMetadata, now: number, out: Out): void {
  const previous = d.txns[m.transactionalId];
  if (previous && previous.state !== m.state && !canTransition(previous.state, m.state)) {
    // never happens if the handlers below are right; the invariant checks watch for it too
    out.fact({ kind: 'clientError', client: d.id, error: 'IllegalStateException', during: `${previous.state} → ${m.state}`, fatal: false });
    return;
  }
  if (d.hosted) {
    appendToHost(d, d.hosted, m, out);
    setState(d, m, out);
    rearmOnChange(d, previous, m, now, out);
    return;
  }
  appendStateRecord(d, m.transactionalId, encodeTxnRecord(m), now);
  setState(d, m, out);
  rearmOnChange(d, previous, m, now, out);
}

/**
 * Appends a transactional.id's record to its `__transaction_state` partition on the one-replica log,
 * which takes the write at once: its metadata, or a tombstone (`null`) when it expires.
 */
export function appendStateRecord(d: TxnDraft, transactionalId: string, value: string | null, now: number): void {
  const key = stateLogKey(d, transactionalId);
  const log = d.logs[key];
  if (!log) return;
  const { log: next } = appendProducerBatch(
    log,
    {
      producerId: -1,
      producerEpoch: -1,
      baseSequence: -1,
      isTransactional: false,
      records: [{ key: transactionalId, value, headers: {}, timestamp: now }],
    },
    now,
  );
  d.logs = { ...d.logs, [key]: next };
}

/**
 * The write as an in-process call to the host broker (ReplicaManager.appendRecords with acks=-1 and
 * the transaction's timeout); the answer comes back as the call `txnStateAppended`.
 */
function appendToHost(d: TxnDraft, h: HostedState, m: TxnMetadata, out: Out): void {
  appendRecordToHost(d, h, m, encodeTxnRecord(m), m.txnTimeoutMs, out);
}

/**
 * An expired transactional.id's tombstone (a null value) as a write to the host
 * (writeTombstonesForExpiredTransactionalIds: acks=-1, the coordinator's request.timeout.ms). The
 * write's metadata is the id pending Dead (prepareDead); the cache keeps the id until it succeeds.
 */
export function appendTombstoneToHost(d: TxnDraft, h: HostedState, m: TxnMetadata, out: Out): void {
  appendRecordToHost(d, h, { ...m, state: 'Dead' }, null, d.config.requestTimeoutMs, out);
}

function appendRecordToHost(d: TxnDraft, h: HostedState, m: TxnMetadata, value: string | null, timeoutMs: number, out: Out): void {
  const id = h.nextWriteId;
  const partition = coordinatorPartitionFor(m.transactionalId, d.meta.transactionStatePartitions);
  out.call(h.host, 'appendTxnState', {
    writeId: id,
    partition,
    key: m.transactionalId,
    value,
    timeoutMs,
  });
  const write: PendingWrite = {
    id,
    transactionalId: m.transactionalId,
    partition,
    coordinatorEpoch: h.owned[partition]?.coordinatorEpoch ?? -1,
    before: d.txns[m.transactionalId] ?? null,
    markersBefore: d.markers[m.transactionalId] ?? null,
    metadata: m,
    deferred: [],
    after: null,
  };
  d.hosted = { ...h, writes: { ...h.writes, [id]: write }, nextWriteId: id + 1 };
}

/** Changes the in-memory state without writing (PrepareEpochFence is not persisted). */
export function setState(d: TxnDraft, m: TxnMetadata, out: Out): void {
  const previous = d.txns[m.transactionalId];
  d.txns = { ...d.txns, [m.transactionalId]: m };
  if (!previous || previous.state !== m.state || previous.producerEpoch !== m.producerEpoch)
    out.fact({
      kind: 'txnState',
      transactionalId: m.transactionalId,
      producerId: m.producerId,
      producerEpoch: m.producerEpoch,
      from: previous?.state ?? '(new)',
      to: m.state,
    });
}

/**
 * What the cache holds for `transactionalId` while a write of it is in flight: the `before` of its
 * earliest write (a request's first write records it; later writes of the same request chain on it).
 * `undefined` when nothing is in flight; `null` for a transactional.id being created.
 */
export function cacheWhileWriting(ctx: TxnCoordinatorContext, transactionalId: string): TxnMetadata | null | undefined {
  let earliest: { id: number; before: TxnMetadata | null } | undefined;
  for (const w of Object.values(ctx.hosted?.writes ?? {}))
    if (w.transactionalId === transactionalId && (!earliest || w.id < earliest.id)) earliest = w;
  return earliest === undefined ? undefined : earliest.before;
}
