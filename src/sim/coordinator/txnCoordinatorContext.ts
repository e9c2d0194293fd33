/**
 * The transaction coordinator's context, and the part of Kafka's TransactionStateManager the
 * coordinator's handlers share: writing a transactional.id's new metadata to its
 * `__transaction_state` partition (persist) or changing it in memory only (setState, for
 * PrepareEpochFence), each change told as a `txnState` fact.
 */
import type { Mutable } from '../actors/draft';
import type { Out } from '../actors/out';
import { type ClusterMetadata, TRANSACTION_STATE_TOPIC } from '../cluster/metadata';
import type { ActorId } from '../kernel/envelope';
import { appendProducerBatch, type PartitionLog } from '../log/partitionLog';
import { coordinatorPartitionFor } from '../producer/partitioner';
import { topicPartitionKey } from '../protocol/topicPartition';
import { encodeTxnRecord, type TxnMetadata } from './transactionMetadata';
import { canTransition } from './transactionState';

export interface TxnCoordinatorConfig {
  /** transaction.abort.timed.out.transaction.cleanup.interval.ms */
  readonly cleanupIntervalMs: number;
  /** transaction.max.timeout.ms */
  readonly maxTimeoutMs: number;
  readonly transactionVersion: 1 | 2;
  /** How long replaying `__transaction_state` takes after a failover. */
  readonly loadTimeMs: number;
  /** Inter-broker request timeout for WriteTxnMarkers. */
  readonly requestTimeoutMs: number;
}

export const DEFAULT_TXN_COORDINATOR_CONFIG: TxnCoordinatorConfig = {
  cleanupIntervalMs: 10000,
  maxTimeoutMs: 900000,
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
  /** Requests in flight: correlation id → partitions it carries. */
  readonly inFlight: Readonly<Record<number, readonly string[]>>;
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
  const key = stateLogKey(d, m.transactionalId);
  const log = d.logs[key];
  if (log) {
    const { log: next } = appendProducerBatch(
      log,
      {
        producerId: -1,
        producerEpoch: -1,
        baseSequence: -1,
        isTransactional: false,
        records: [{ key: m.transactionalId, value: encodeTxnRecord(m), headers: {}, timestamp: now }],
      },
      now,
    );
    d.logs = { ...d.logs, [key]: next };
  }
  setState(d, m, out);
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
