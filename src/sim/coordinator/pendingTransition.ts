/**
 * A transactional.id with a write to `__transaction_state` in flight (Kafka's
 * `TransactionMetadata.pendingTransitionInProgress`), as the hosted coordinator answers requests for it.
 *
 * Kafka's cache keeps the metadata from before the write until the write completes (a transition is a
 * `TxnTransitMetadata`, applied by `completeTransitionTo`), except that an epoch fence sets the bumped
 * epoch in memory before its PrepareAbort is appended (`endTransaction`'s `isEpochFence`). In 4.0
 * `prepareInitProducerIdTransit` and `handleAddPartitionsToTransaction` (AddOffsetsToTxn goes through
 * it too; KAFKA-18660) answer the pending transition first; `endTransaction` under protocol v2 checks
 * the producer id, then the pending transition, then the epoch (KAFKA-18464); only
 * `endTransactionWithTV1` checks the producer id and epoch against that cache before
 * CONCURRENT_TRANSACTIONS.
 */
import type { KafkaError } from '../protocol/errors';
import { isValidEndTxnEpoch } from './transactionCoordinator.machine';
import type { TxnMetadata } from './transactionMetadata';

export { cacheWhileWriting } from './txnCoordinatorContext';

/** The request kinds the hosted coordinator serves, with the fields the producer checks read. */
export interface PendingCheckRequest {
  readonly type: string;
  readonly producerId?: number;
  readonly producerEpoch?: number;
}

/**
 * The error a request gets while a write of its transactional.id is in flight: CONCURRENT_TRANSACTIONS,
 * except an EndTxn naming another producer id (INVALID_PRODUCER_ID_MAPPING) and, under protocol v1,
 * one whose epoch is not the cache's (PRODUCER_FENCED, isValidEndTxnEpoch).
 */
export function pendingTransitionError(cache: TxnMetadata | null, request: PendingCheckRequest, transactionVersion: 1 | 2): KafkaError {
  if (request.type !== 'EndTxn') return 'CONCURRENT_TRANSACTIONS';
  if (!cache || cache.producerId !== request.producerId) return 'INVALID_PRODUCER_ID_MAPPING';
  if (transactionVersion === 2) return 'CONCURRENT_TRANSACTIONS';
  return isValidEndTxnEpoch(cache, request.producerEpoch ?? -1, 1) ? 'CONCURRENT_TRANSACTIONS' : 'PRODUCER_FENCED';
}
