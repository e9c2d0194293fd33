/**
 * What the marker-channel tests share: a booted one-replica coordinator of a three-broker cluster with
 * topic `t` (three partitions), and transaction `tx` (producer 1000, epoch 0) in PrepareCommit.
 */

import { transactionCoordinatorMachine } from '../../src/sim/coordinator/transactionCoordinator.machine';
import type { TxnMetadata } from '../../src/sim/coordinator/transactionMetadata';
import type { TxnCoordinatorContext } from '../../src/sim/coordinator/txnCoordinatorContext';
import { drive, inputOf } from '../machines/harness';

const scenario = {
  version: 1,
  seed: 1,
  cluster: { brokers: 3 },
  topics: [{ name: 't', partitions: 3 }],
  clients: [{ id: 'p', type: 'producer', config: { 'transactional.id': 'tx' }, script: [] }],
};

/** The coordinator's context after its boot. */
export function bootedCoordinator(): TxnCoordinatorContext {
  const m = drive(transactionCoordinatorMachine, inputOf(scenario, 'txn-coordinator'));
  m.send({ type: 'boot' }, 0);
  return m.context<TxnCoordinatorContext>();
}

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
