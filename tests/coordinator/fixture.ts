/** What the marker-channel tests share: transaction `tx` (producer 1000, epoch 0) in PrepareCommit. */
import type { TxnMetadata } from '../../src/sim/coordinator/transactionMetadata';

export const preparedTxn = (partitions: readonly string[]): TxnMetadata => ({
  transactionalId: 'tx',
  producerId: 1000,
  producerEpoch: 0,
  lastProducerEpoch: -1,
  txnTimeoutMs: 60000,
  state: 'PrepareCommit',
  partitions,
  txnStartTimestamp: 0,
  txnLastUpdateTimestamp: 0,
});
