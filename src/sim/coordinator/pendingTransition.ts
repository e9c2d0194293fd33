/**
 * A transactional.id with a write to `__transaction_state` in flight (Kafka's
 * `TransactionMetadata.pendingTransitionInProgress`), as the hosted coordinator answers requests for it.
 *
 * Kafka's cache keeps the metadata from before the write until the write completes (a transition is a
 * `TxnTransitMetadata`, applied by `completeTransitionTo`), except that an epoch fence sets the bumped
 * epoch in memory before its PrepareAbort is appended (`endTransaction`'s `isEpochFence`). Each handler
 * checks the producer against that cache first and the pending transition after:
 * `handleAddPartitionsToTransaction` (AddOffsetsToTxn goes through it too) and `endTransaction` answer
 * INVALID_PRODUCER_ID_MAPPING or PRODUCER_FENCED before CONCURRENT_TRANSACTIONS; only
 * `prepareInitProducerIdTransit` answers the pending transition first.
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
 * The error a request gets while a write of its transactional.id is in flight: the producer checks
 * against the cache, then CONCURRENT_TRANSACTIONS. EndTxn's epoch check is its protocol's
 * (isValidEndTxnEpoch, shared with the handler); AddPartitionsToTxn and AddOffsetsToTxn need the current epoch.
 */
export function pendingTransitionError(cache: TxnMetadata | null, request: PendingCheckRequest, transactionVersion: 1 | 2): KafkaError {
  if (request.type === 'InitProducerId') return 'CONCURRENT_TRANSACTIONS';
  if (!cache || cache.producerId !== request.producerId) return 'INVALID_PRODUCER_ID_MAPPING';
  const epoch = request.producerEpoch ?? -1;
  const valid = request.type === 'EndTxn' ? isValidEndTxnEpoch(cache, epoch, transactionVersion) : epoch === cache.producerEpoch;
  return valid ? 'CONCURRENT_TRANSACTIONS' : 'PRODUCER_FENCED';
}
