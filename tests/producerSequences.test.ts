/**
 * The idempotent producer's sequence rules, tested on the Sender's handlers directly (Kafka's
 * TransactionManager: requestEpochBumpForPartition, bumpIdempotentProducerEpoch,
 * maybeUpdateProducerIdAndEpoch; TxnPartitionEntry.startSequencesAtBeginning; RecordAccumulator
 * .shouldStopDrainBatchesForPartition).
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../src/sim/actors/out';
import type { ClusterMetadata } from '../src/sim/cluster/metadata';
import type { Effect } from '../src/sim/kernel/effects';
import { translateNote } from '../src/sim/narration/notes';
import { accumulate, drain, onConnectionLost, onDeliveryTimeout, onProduceResponse, type ProducerDraft } from '../src/sim/producer/sender';
import { bumpIdempotentEpoch, maybeUpdatePartitionEpoch, requestEpochBumpForPartition } from '../src/sim/producer/sequences';
import { topicPartitionKey } from '../src/sim/protocol/topicPartition';
import type { Fact } from '../src/sim/trace/facts';
import { producerDraft } from './fixtures/producerDraft';

const meta: ClusterMetadata = {
  brokers: ['broker-0'],
  topics: {
    orders: { name: 'orders', partitions: 1, leaders: ['broker-0'] },
    accounts: { name: 'accounts', partitions: 1, leaders: ['broker-0'] },
  },
  transactionCoordinator: 'txn-coordinator',
  groupCoordinator: 'group-coordinator',
  transactionStatePartitions: 3,
  consumerOffsetsPartitions: 3,
};

/** An idempotent producer with producerId 7, epoch 0, linger.ms=0. */
const producer = (config: Record<string, string | number | boolean> = {}) => producerDraft(meta, config);

function send(d: ProducerDraft, topic: string, key: string | null, now = 0): void {
  accumulate(d, { topic, key, value: 'v' }, now, new Out());
  drain(d, now, new Out());
}

/** The Produce requests a handler sent, as (topic, epoch, baseSequence). */
function produced(out: Out): [string, number, number][] {
  return out.effects
    .filter((e): e is Extract<Effect, { type: 'send' }> => e.type === 'send' && e.rpc === 'Produce')
    .flatMap((e) => {
      const p = e.payload as { partitions: { topic: string; batch: { producerEpoch: number; baseSequence: number } }[] };
      return p.partitions.map((x): [string, number, number] => [x.topic, x.batch.producerEpoch, x.batch.baseSequence]);
    });
}

const batchOf = (d: ProducerDraft, topic: string) => d.batches.find((b) => b.topic === topic);

/** Puts a batch back in flight under a new correlation id (as a retry would), returning that id. */
function sendAgain(d: ProducerDraft, batchId: number): number {
  const correlationId = 1000 + batchId;
  d.batches = d.batches.map((b) => (b.id === batchId ? { ...b, inFlight: true, correlationId, attempts: b.attempts + 1 } : b));
  return correlationId;
}

describe('idempotent epoch bump (KIP-360): only the partitions that caused it are rewritten', () => {
  it('bumpIdempotentProducerEpoch rewrites the triggering partition from 0 and leaves every other in-flight batch as it was', () => {
    const d = producer();
    send(d, 'orders', 'a');
    send(d, 'orders', 'b');
    send(d, 'accounts', 'c');
    requestEpochBumpForPartition(d, 'accounts-0');
    bumpIdempotentEpoch(d, new Out());
    expect(d.producerEpoch).toBe(1);
    expect(d.batches.filter((b) => b.topic === 'orders').map((b) => [b.producerEpoch, b.baseSequence])).toEqual([
      [0, 0],
      [0, 1],
    ]);
    expect(batchOf(d, 'accounts')).toMatchObject({ producerEpoch: 1, baseSequence: 0, sequenceReset: true });
    expect(d.partitionEpochs).toEqual({ 'orders-0': 0, 'accounts-0': 1 });
  });

  it('a partition still on the old epoch starts at sequence 0 under the new one only once nothing of it is in flight', () => {
    const d = producer();
    send(d, 'orders', 'a');
    requestEpochBumpForPartition(d, 'accounts-0');
    bumpIdempotentEpoch(d, new Out());
    // a new record for orders-0 waits behind the old epoch's in-flight batch (shouldStopDrainBatchesForPartition)
    accumulate(d, { topic: 'orders', key: 'b', value: 'v' }, 1, new Out());
    const blocked = new Out();
    drain(d, 1, blocked);
    expect(produced(blocked)).toEqual([]);
    maybeUpdatePartitionEpoch(d, 'orders-0');
    expect(d.partitionEpochs['orders-0']).toBe(0);
    // the old batch is acknowledged: now the partition moves to epoch 1, sequence 0
    const first = batchOf(d, 'orders');
    onProduceResponse(
      d,
      {
        correlationId: first?.correlationId as number,
        responses: [{ topic: 'orders', partition: 0, error: 'NONE', baseOffset: 0, errorMessage: null }],
      },
      2,
      new Out(),
    );
    const sent = new Out();
    drain(d, 2, sent);
    expect(produced(sent)).toEqual([['orders', 1, 0]]);
  });

  it('a batch refused with a non-retriable error (INVALID_RECORD) bumps the epoch for its own partition only; a retry elsewhere keeps its epoch and sequence', () => {
    const d = producer();
    send(d, 'accounts', null);
    send(d, 'orders', 'evt-1');
    const bad = batchOf(d, 'accounts');
    onProduceResponse(
      d,
      {
        correlationId: bad?.correlationId as number,
        responses: [{ topic: 'accounts', partition: 0, error: 'INVALID_RECORD', baseOffset: -1, errorMessage: null }],
      },
      3,
      new Out(),
    );
    expect(d.partitionsToRewrite).toEqual(['accounts-0']);
    // the orders request times out: the connection is closed and the batch retried
    onConnectionLost(d, 'broker-0', 'REQUEST_TIMED_OUT', 30000, new Out());
    const retry = new Out();
    drain(d, 30200, retry);
    expect(d.producerEpoch).toBe(1);
    expect(produced(retry)).toEqual([['orders', 0, 0]]);
  });

  it('an expired batch that had been retried leaves its partition unresolved; with nothing of it in flight and a gap, the epoch is bumped for it', () => {
    const d = producer();
    send(d, 'orders', 'a');
    onConnectionLost(d, 'broker-0', 'REQUEST_TIMED_OUT', 30000, new Out());
    const b = batchOf(d, 'orders');
    onDeliveryTimeout(d, b?.id as number, 120000, new Out());
    expect(d.unresolvedSequences).toEqual({ 'orders-0': 1 });
    // no new batch is drained for an unresolved partition … until the Sender loop resolves it
    accumulate(d, { topic: 'orders', key: 'b', value: 'v' }, 120000, new Out());
    const next = new Out();
    drain(d, 120000, next);
    expect(d.unresolvedSequences).toEqual({});
    expect(d.producerEpoch).toBe(1);
    expect(produced(next)).toEqual([['orders', 1, 0]]);
  });

  it('an unresolved sequence resolves without a bump when a later batch of the partition was acknowledged', () => {
    const d = producer();
    send(d, 'orders', 'a');
    send(d, 'orders', 'b');
    onConnectionLost(d, 'broker-0', 'REQUEST_TIMED_OUT', 30000, new Out());
    const [a, b] = [...d.batches].sort((x, y) => x.baseSequence - y.baseSequence);
    // b is retried alone (a waits behind its backoff here) and acknowledged; a expires
    const retried = sendAgain(d, b?.id as number);
    onDeliveryTimeout(d, a?.id as number, 120000, new Out());
    onProduceResponse(
      d,
      { correlationId: retried, responses: [{ topic: 'orders', partition: 0, error: 'NONE', baseOffset: 1, errorMessage: null }] },
      30100,
      new Out(),
    );
    drain(d, 30100, new Out());
    expect(d.unresolvedSequences).toEqual({});
    expect(d.producerEpoch).toBe(0);
  });

  it('OUT_OF_ORDER_SEQUENCE_NUMBER for a batch that is not the next one is retried without a bump', () => {
    const d = producer();
    send(d, 'orders', 'a');
    send(d, 'orders', 'b');
    const second = d.batches.find((x) => x.baseSequence === 1);
    onProduceResponse(
      d,
      {
        correlationId: second?.correlationId as number,
        responses: [{ topic: 'orders', partition: 0, error: 'OUT_OF_ORDER_SEQUENCE_NUMBER', baseOffset: -1, errorMessage: null }],
      },
      3,
      new Out(),
    );
    expect(d.epochBumpPending).toBe(false);
    expect(d.batches.find((x) => x.baseSequence === 1)?.inFlight).toBe(false);
  });

  it(`OUT_OF_ORDER_SEQUENCE_NUMBER for the next sequence is a real gap: the epoch is bumped for that partition (${topicPartitionKey('orders', 0)})`, () => {
    const d = producer();
    send(d, 'orders', 'a');
    const first = batchOf(d, 'orders');
    onProduceResponse(
      d,
      {
        correlationId: first?.correlationId as number,
        responses: [{ topic: 'orders', partition: 0, error: 'OUT_OF_ORDER_SEQUENCE_NUMBER', baseOffset: -1, errorMessage: null }],
      },
      3,
      new Out(),
    );
    expect(d.partitionsToRewrite).toEqual(['orders-0']);
  });
});

describe('the bump in the narration', () => {
  it('names the partitions that restart at sequence 0, in English and Korean', () => {
    const d = producer();
    requestEpochBumpForPartition(d, 'accounts-0');
    const out = new Out();
    bumpIdempotentEpoch(d, out);
    const notes = out.effects.flatMap((e) => (e.type === 'fact' && e.fact.kind === 'note' ? [e.fact as Fact] : []));
    const text = notes.map((f) => (f.kind === 'note' ? f.text : '')).join('');
    expect(text).toBe('bumped its own epoch to 1 after a batch failed or could not be confirmed; accounts-0 restarts at sequence 0');
    expect(translateNote(text, 'ko')).toBe(
      '배치가 실패했거나 확인되지 않아 스스로 epoch를 1로 올렸습니다. accounts-0의 시퀀스는 0부터 다시 시작합니다',
    );
  });

  it('names each batch in flight it rewrites, its old epoch and sequence and its new ones (the epoch-bump-duplicate story)', () => {
    const d = producer();
    send(d, 'orders', null);
    send(d, 'orders', 'a');
    // the first batch (sequence 0) failed for good: it leaves the in-flight batches before the bump
    d.batches = d.batches.filter((b) => b.baseSequence !== 0);
    requestEpochBumpForPartition(d, 'orders-0');
    const out = new Out();
    bumpIdempotentEpoch(d, out);
    const text = out.effects
      .flatMap((e) => (e.type === 'fact' && e.fact.kind === 'note' ? [(e.fact as Extract<Fact, { kind: 'note' }>).text] : []))
      .join('');
    expect(text).toBe(
      'bumped its own epoch to 1 after a batch failed or could not be confirmed; orders-0 restarts at sequence 0; batches in flight rewritten: orders-0 epoch 0 sequence 1 → epoch 1 sequence 0',
    );
    expect(translateNote(text, 'ko')).toBe(
      '배치가 실패했거나 확인되지 않아 스스로 epoch를 1로 올렸습니다. orders-0의 시퀀스는 0부터 다시 시작합니다. 다시 쓴 전송 중 배치: orders-0 epoch 0 시퀀스 1 → epoch 1 시퀀스 0',
    );
  });
});
