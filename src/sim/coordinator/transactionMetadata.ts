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
}

/** The value stored in __transaction_state (Kafka stores a binary schema; this is its readable form). */
export function encodeTxnRecord(m: TxnMetadata): string {
  return JSON.stringify({
    producerId: m.producerId,
    producerEpoch: m.producerEpoch,
    lastProducerEpoch: m.lastProducerEpoch,
    txnTimeoutMs: m.txnTimeoutMs,
    state: m.state,
    partitions: m.partitions,
    txnStartTimestamp: m.txnStartTimestamp,
    txnLastUpdateTimestamp: m.txnLastUpdateTimestamp,
  });
}

export function decodeTxnRecord(transactionalId: string, value: string): TxnMetadata | null {
  try {
    const v = JSON.parse(value) as Omit<TxnMetadata, 'transactionalId'>;
    return { transactionalId, ...v };
  } catch {
    return null;
  }
}
