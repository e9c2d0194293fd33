/**
 * What each Produce error does to a batch and to the producer, on the Sender's handler directly
 * (Kafka's Sender.completeBatch / canRetry, TransactionManager.canRetry, handleFailedBatch and
 * maybeTransitionToErrorState, 4.0 line): fatal for PRODUCER_FENCED; for a transactional producer,
 * abortable for every other error that is not retried; retriable errors keep the batch and its
 * sequence; a duplicate is a success.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../src/sim/actors/out';
import type { ClusterMetadata } from '../src/sim/cluster/metadata';
import { resolveProducerConfig } from '../src/sim/config/producerConfig';
import { initialProducerContext } from '../src/sim/producer/producerContext';
import { accumulate, drain, onProduceResponse, type ProducerDraft } from '../src/sim/producer/sender';
import { maybeAddPartition } from '../src/sim/producer/transactionManager';
import type { KafkaError } from '../src/sim/protocol/errors';
import { keyOf } from '../src/sim/protocol/topicPartition';
import { oneBrokerMetadata } from './fixtures/oneBrokerMetadata';

const meta: ClusterMetadata = oneBrokerMetadata;

/** A producer (producerId 7, epoch 0) with one batch of orders-0 in flight at sequence 0. */
function inFlight(transactional: boolean): ProducerDraft {
  const config = resolveProducerConfig({ 'linger.ms': 0, ...(transactional ? { 'transactional.id': 'tx' } : {}) }).config;
  const d: ProducerDraft = {
    ...initialProducerContext({ self: 'p.producer', app: 'p.app', client: 'p', meta, config, transactionVersion: 2 }),
  };
  d.producerId = 7;
  d.producerEpoch = 0;
  const rec = accumulate(d, { topic: 'orders', key: 'k', value: 'v', partition: 0 }, 0, new Out());
  maybeAddPartition(d, keyOf(rec));
  drain(d, 0, new Out());
  expect(d.batches).toHaveLength(1);
  expect(d.batches[0]).toMatchObject({ inFlight: true, baseSequence: 0 });
  return d;
}

function answer(d: ProducerDraft, error: KafkaError) {
  const b = d.batches[0] as { correlationId: number };
  const out = new Out();
  const outcome = onProduceResponse(
    d,
    { correlationId: b.correlationId, responses: [{ topic: 'orders', partition: 0, error, baseOffset: -1, errorMessage: null }] },
    10,
    out,
  );
  return { outcome, out };
}

describe('Produce errors of a transactional producer', () => {
  it('PRODUCER_FENCED is fatal (ProducerFencedException)', () => {
    const d = inFlight(true);
    expect(answer(d, 'PRODUCER_FENCED').outcome).toBe('fatal');
    expect(d.batches).toHaveLength(0);
  });

  it.each(['INVALID_PRODUCER_EPOCH', 'TRANSACTION_ABORTABLE', 'INVALID_TXN_STATE'] as const)(
    '%s fails the batch and is abortable (not retried, not fatal)',
    (error) => {
      const d = inFlight(true);
      expect(answer(d, error).outcome).toBe('abortable');
      expect(d.batches).toHaveLength(0);
    },
  );

  it('OUT_OF_ORDER_SEQUENCE_NUMBER for the next sequence (a real gap) fails the batch: abortable, no epoch bump of its own', () => {
    const d = inFlight(true);
    expect(answer(d, 'OUT_OF_ORDER_SEQUENCE_NUMBER').outcome).toBe('abortable');
    expect(d.batches).toHaveLength(0);
    expect(d.producerEpoch).toBe(0);
  });

  it('a retriable error (NOT_ENOUGH_REPLICAS) keeps the batch with its sequence, to be sent again', () => {
    const d = inFlight(true);
    expect(answer(d, 'NOT_ENOUGH_REPLICAS').outcome).toBe('ok');
    expect(d.batches).toEqual([expect.objectContaining({ inFlight: false, baseSequence: 0 })]);
  });

  it('DUPLICATE_SEQUENCE_NUMBER completes the batch as a success', () => {
    const d = inFlight(true);
    expect(answer(d, 'DUPLICATE_SEQUENCE_NUMBER').outcome).toBe('ok');
    expect(d.batches).toHaveLength(0);
  });
});

describe('Produce errors of an idempotent (non-transactional) producer', () => {
  it('OUT_OF_ORDER_SEQUENCE_NUMBER for the next sequence: retried after an epoch bump for its partition (KIP-360), never fatal', () => {
    const d = inFlight(false);
    expect(answer(d, 'OUT_OF_ORDER_SEQUENCE_NUMBER').outcome).toBe('ok');
    expect(d.batches).toEqual([expect.objectContaining({ inFlight: false })]);
    expect(d.partitionsToRewrite).toEqual(['orders-0']);
  });

  it('INVALID_PRODUCER_EPOCH fails the batch, and its partition is bumped (no transaction to abort)', () => {
    const d = inFlight(false);
    expect(answer(d, 'INVALID_PRODUCER_EPOCH').outcome).toBe('ok');
    expect(d.batches).toHaveLength(0);
    expect(d.partitionsToRewrite).toEqual(['orders-0']);
  });
});
