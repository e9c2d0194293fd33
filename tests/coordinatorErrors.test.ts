/**
 * What the transactional client does with each error answering AddPartitionsToTxn, EndTxn and
 * InitProducerId, on TransactionManager.onCoordinatorResponse directly (Kafka's
 * AddPartitionsToTxnHandler, EndTxnHandler, InitProducerIdHandler, 4.0 line): a fenced epoch and
 * INVALID_TXN_STATE / INVALID_PRODUCER_ID_MAPPING are fatal; retriable errors send the same request
 * again (AddPartitionsToTxn after 20 ms); TRANSACTION_ABORTABLE on AddPartitionsToTxn is abortable.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../src/sim/actors/out';
import type { ClusterMetadata } from '../src/sim/cluster/metadata';
import { resolveProducerConfig } from '../src/sim/config/producerConfig';
import { initialProducerContext } from '../src/sim/producer/producerContext';
import type { ProducerDraft } from '../src/sim/producer/sender';
import { type CoordinatorResponse, onCoordinatorResponse } from '../src/sim/producer/transactionManager';
import type { KafkaError } from '../src/sim/protocol/errors';
import { oneBrokerMetadata } from './fixtures/oneBrokerMetadata';

const meta: ClusterMetadata = oneBrokerMetadata;

type Rpc = 'AddPartitionsToTxn' | 'EndTxn' | 'InitProducerId';

/** A protocol v1 transactional producer (producerId 7, epoch 0) waiting for the answer to `rpc`. */
function waitingFor(rpc: Rpc): ProducerDraft {
  const config = resolveProducerConfig({ 'transactional.id': 'tx' }).config;
  const d: ProducerDraft = {
    ...initialProducerContext({ self: 'p.producer', app: 'p.app', client: 'p', meta, config, transactionVersion: 1 }),
  };
  d.producerId = 7;
  d.producerEpoch = 0;
  d.transactionStarted = true;
  if (rpc === 'AddPartitionsToTxn') d.pendingPartitions = ['orders-0'];
  if (rpc === 'EndTxn') d.endTxn = 'COMMIT';
  if (rpc === 'InitProducerId') d.initPending = true;
  d.coordinatorRequest = { rpc, correlationId: 5, attempts: 1 };
  return d;
}

function answer(rpc: Rpc, error: KafkaError) {
  const d = waitingFor(rpc);
  const payload = { correlationId: 5, error, producerId: -1, producerEpoch: -1, partitions: [{ topic: 'orders', partition: 0, error }] };
  const out = new Out();
  const signal = onCoordinatorResponse(d, { type: `${rpc}Response`, payload } as unknown as CoordinatorResponse, out);
  const retryIn = out.effects.flatMap((e) => (e.type === 'timer' && e.key === 'txnRetry' ? [e.delay] : []));
  return { d, signal, retryIn };
}

describe('coordinator answers on the transactional client', () => {
  it.each(['AddPartitionsToTxn', 'EndTxn', 'InitProducerId'] as const)(
    '%s: PRODUCER_FENCED and INVALID_PRODUCER_EPOCH are fatal',
    (rpc) => {
      expect(answer(rpc, 'PRODUCER_FENCED').signal).toBe('fatal');
      expect(answer(rpc, 'INVALID_PRODUCER_EPOCH').signal).toBe('fatal');
    },
  );

  it.each(['AddPartitionsToTxn', 'EndTxn'] as const)('%s: INVALID_TXN_STATE and INVALID_PRODUCER_ID_MAPPING are fatal', (rpc) => {
    expect(answer(rpc, 'INVALID_TXN_STATE').signal).toBe('fatal');
    expect(answer(rpc, 'INVALID_PRODUCER_ID_MAPPING').signal).toBe('fatal');
  });

  it('CONCURRENT_TRANSACTIONS is retried: AddPartitionsToTxn after 20 ms, EndTxn and InitProducerId after retry.backoff.ms', () => {
    expect(answer('AddPartitionsToTxn', 'CONCURRENT_TRANSACTIONS')).toMatchObject({ signal: 'none', retryIn: [20] });
    expect(answer('EndTxn', 'CONCURRENT_TRANSACTIONS')).toMatchObject({ signal: 'none', retryIn: [100] });
    expect(answer('InitProducerId', 'CONCURRENT_TRANSACTIONS')).toMatchObject({ signal: 'none', retryIn: [100] });
  });

  it('AddPartitionsToTxn retries after 20 ms only while no partition is in the transaction yet', () => {
    const d = waitingFor('AddPartitionsToTxn');
    d.txnPartitions = ['orders-1'];
    d.pendingPartitions = ['orders-0'];
    const out = new Out();
    const payload = { correlationId: 5, error: 'CONCURRENT_TRANSACTIONS', partitions: [] };
    onCoordinatorResponse(d, { type: 'AddPartitionsToTxnResponse', payload } as unknown as CoordinatorResponse, out);
    expect(out.effects.flatMap((e) => (e.type === 'timer' && e.key === 'txnRetry' ? [e.delay] : []))).toEqual([100]);
  });

  it('the 20 ms is for CONCURRENT_TRANSACTIONS only: a coordinator loading or moved waits retry.backoff.ms', () => {
    expect(answer('AddPartitionsToTxn', 'COORDINATOR_LOAD_IN_PROGRESS')).toMatchObject({ signal: 'none', retryIn: [100] });
    expect(answer('AddPartitionsToTxn', 'NOT_COORDINATOR')).toMatchObject({ signal: 'none', retryIn: [100] });
  });

  it('TRANSACTION_ABORTABLE on AddPartitionsToTxn is abortable, not fatal', () => {
    expect(answer('AddPartitionsToTxn', 'TRANSACTION_ABORTABLE').signal).toBe('abortable');
  });
});
