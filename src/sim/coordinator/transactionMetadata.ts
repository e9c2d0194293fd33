/**
 * What the transaction coordinator knows about one transactional.id (Kafka's TransactionMetadata),
 * and how it is written to and read back from `__transaction_state`: the coordinator's state is a
 * log, so a new coordinator rebuilds it by replaying the last record of each transactional.id.
 */
import type { TxnState } from './transactionState';

export interface TxnMetadata {
  readonly transactionalId: string;
  readonly producerId: number;
  readonly producerEpoch: number;
  /** The epoch before the last bump (−1 if none). */
  readonly lastProducerEpoch: number;
  readonly txnTimeoutMs: number;
  readonly state: TxnState;
  /** Partitions in the transaction, as "topic-partition". */
  readonly partitions: readonly string[];
  readonly txnStartTimestamp: number;
  readonly txnLastUpdateTimestamp: number;
  /**
   * An epoch fence's write failed (TransactionMetadata.hasFailedEpochFence): the bumped epoch stays in
   * memory, and the next fence does not bump it again. Cleared when CompleteCommit/CompleteAbort is
   * prepared (prepareComplete); never written to the log.
   */
  readonly hasFailedEpochFence?: true;
}

/**
 * The value stored in __transaction_state (Kafka stores a binary schema, TransactionLogValue; this
 * is its readable form). The last producer epoch is not in it: a coordinator that loads the log knows
 * none (TransactionLog.readTxnRecordValue: lastProducerEpoch = NO_PRODUCER_EPOCH), so an epoch-bump
 * InitProducerId retried across a coordinator change is fenced (prepareIncrementProducerEpoch).
 */
export function encodeTxnRecord(m: TxnMetadata): string {
  return JSON.stringify({
    producerId: m.producerId,
    producerEpoch: m.producerEpoch,
    txnTimeoutMs: m.txnTimeoutMs,
    state: m.state,
    partitions: m.partitions,
    txnStartTimestamp: m.txnStartTimestamp,
    txnLastUpdateTimestamp: m.txnLastUpdateTimestamp,
  });
}

export function decodeTxnRecord(transactionalId: string, value: string): TxnMetadata | null {
  try {
    const v = JSON.parse(value) as Omit<TxnMetadata, 'transactionalId' | 'lastProducerEpoch'>;
    return {
      transactionalId,
      producerId: v.producerId,
      producerEpoch: v.producerEpoch,
      lastProducerEpoch: -1,
      txnTimeoutMs: v.txnTimeoutMs,
      state: v.state,
      partitions: v.partitions,
      txnStartTimestamp: v.txnStartTimestamp,
      txnLastUpdateTimestamp: v.txnLastUpdateTimestamp,
    };
  } catch {
    return null;
  }
}
