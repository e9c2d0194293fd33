/**
 * A fixture for the hosted coordinators' tests: broker-0 with partition 0 of an internal topic on
 * brokers 0-2, min ISR 2, the given ISR, led by broker-0 (or, `leading` false, by broker-1 under
 * leader epoch 1).
 */

import type { BrokerContext } from '../../src/sim/broker/broker.machine';
import { DEFAULT_PRODUCER_EXPIRATION } from '../../src/sim/broker/producerExpirationCheck';
import { initialReplication } from '../../src/sim/broker/replication';
import { type ClusterMetadata, TRANSACTION_STATE_TOPIC } from '../../src/sim/cluster/metadata';
import type { TxnMetadata } from '../../src/sim/coordinator/transactionMetadata';
import { createPartitionLog } from '../../src/sim/log/partitionLog';
import { asReplicatedLog } from '../../src/sim/log/replicaLog';
import { becomeLeader } from '../../src/sim/replication/leaderPartition';
import { transactionStateTopic } from '../../src/sim/scenario/build';

export const BROKERS = ['broker-0', 'broker-1', 'broker-2'];

/** A scenario's cluster with the transaction coordinator hosted: three brokers, one __transaction_state partition on all three, min ISR 2. */
export const HOSTED_TXN_CLUSTER = {
  brokers: 3,
  'transaction.state.log.replication.factor': 3,
  'transaction.state.log.min.isr': 2,
  'transaction.state.log.num.partitions': 1,
} as const;

/**
 * A scenario on that cluster: one producer application `app` (transactional.id app-1, from 500 ms)
 * writing to orders (RF 3), __transaction_state's followers 400 ms slow (a write takes about 800 ms),
 * and `faults` beside.
 */
export function slowTxnStateScenario(config: object, script: object[], faults: object[] = []) {
  return {
    version: 1,
    seed: 1,
    cluster: HOSTED_TXN_CLUSTER,
    topics: [{ name: 'orders', partitions: 1, replicationFactor: 3 }],
    clients: [{ id: 'app', type: 'producer', startAt: 500, config: { 'transactional.id': 'app-1', ...config }, script }],
    faults: [
      { type: 'slowReplication', target: 'broker-1', at: 0, delayMs: 400 },
      { type: 'slowReplication', target: 'broker-2', at: 0, delayMs: 400 },
      ...faults,
    ],
  };
}

/** The metadata of that cluster as its brokers and coordinators know it: __transaction_state-0 led by broker-0. */
export const HOSTED_TXN_META: ClusterMetadata = {
  brokers: BROKERS,
  topics: { [TRANSACTION_STATE_TOPIC]: transactionStateTopic(BROKERS, 1, 3) },
  transactionCoordinator: 'broker-0.txn-coordinator',
  groupCoordinator: 'group-coordinator',
  transactionStatePartitions: 1,
  consumerOffsetsPartitions: 1,
};

/** transactional.id `tx` in an open transaction on payments-0 (producer 1000, epoch 0), started at 5 ms. */
export const ONGOING_TXN: TxnMetadata = {
  transactionalId: 'tx',
  producerId: 1000,
  producerEpoch: 0,
  lastProducerEpoch: -1,
  txnTimeoutMs: 60000,
  state: 'Ongoing',
  partitions: ['payments-0'],
  txnStartTimestamp: 5,
  txnLastUpdateTimestamp: 5,
};

export function hostBroker(
  topic: string,
  meta: ClusterMetadata,
  isr: readonly string[],
  options: { leading?: boolean; transactionVersion?: 1 | 2 } = {},
): BrokerContext {
  const leading = options.leading ?? true;
  const key = `${topic}-0`;
  const log = asReplicatedLog(createPartitionLog(topic, 0));
  const leader = becomeLeader(
    { topic, partition: 0, leader: 'broker-0', leaderEpoch: 0, partitionEpoch: 0, replicas: BROKERS, isr },
    2,
    0,
    0,
  );
  const rep = initialReplication({
    controller: 'controller',
    replicaLagTimeMaxMs: 30000,
    replicaFetchWaitMaxMs: 500,
    heartbeatIntervalMs: 2000,
    minInsyncReplicas: { [topic]: 2 },
  });
  return {
    id: 'broker-0',
    partitions: { [key]: log },
    parked: [],
    nextParkId: 0,
    verification: true,
    transactionVersion: options.transactionVersion ?? 1,
    transactionCoordinator: meta.transactionCoordinator,
    verifying: [],
    verificationQueue: [],
    nextCorrelationId: 0,
    meta,
    producerExpiration: DEFAULT_PRODUCER_EXPIRATION,
    logsOpenedAtMs: 0,
    expiryChecks: {},
    replication: {
      ...rep,
      leading: leading ? { [key]: leader } : {},
      registrations: {
        [key]: {
          topic,
          partition: 0,
          leader: leading ? 'broker-0' : 'broker-1',
          leaderEpoch: leading ? 0 : 1,
          partitionEpoch: 0,
          replicas: BROKERS,
          isr,
          election: null,
        },
      },
    },
  };
}
