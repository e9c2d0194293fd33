/**
 * The transactional client's request sequencing, tested on the TransactionManager's handlers directly
 * (Kafka's TransactionManager.maybeAddPartition, nextRequest, maybeTerminateRequestWithError; the
 * Sender's abortUndrainedBatches).
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../src/sim/actors/out';
import { resolveProducerConfig } from '../src/sim/config/producerConfig';
import type { Effect } from '../src/sim/kernel/effects';
import { hasIncompleteRecords, initialProducerContext } from '../src/sim/producer/producerContext';
import { accumulate, drain, failBatch, type ProducerDraft } from '../src/sim/producer/sender';
import { maybeAddPartition, maybeSendTxnRequest, onCoordinatorResponse } from '../src/sim/producer/transactionManager';
import { keyOf } from '../src/sim/protocol/topicPartition';
import { oneBrokerMeta } from './coordinator/groupRequests';

const meta = oneBrokerMeta;

/** A transactional producer (producerId 7, epoch 0) inside a transaction. */
function producer(transactionVersion: 1 | 2, lingerMs = 0): ProducerDraft {
  const config = resolveProducerConfig({ 'transactional.id': 'tx', 'linger.ms': lingerMs }).config;
  const d: ProducerDraft = {
    ...initialProducerContext({ self: 'p.producer', app: 'p.app', client: 'p', meta, config, transactionVersion }),
  };
  d.producerId = 7;
  d.producerEpoch = 0;
  // a transaction is open (beginTransaction() called): a failed batch makes it abortable
  d.inTransaction = true;
  return d;
}

const sends = (out: Out, rpc: string) =>
  out.effects.filter((e): e is Extract<Effect, { type: 'send' }> => e.type === 'send' && e.rpc === rpc).map((e) => e.payload);
const replies = (out: Out) =>
  out.effects.filter((e): e is Extract<Effect, { type: 'call' }> => e.type === 'call' && e.name === 'reply').map((e) => e.args);

function sendRecord(d: ProducerDraft, partition: number, now = 100): Out {
  const out = new Out();
  const rec = accumulate(d, { topic: 'orders', key: 'k', value: 'v', partition }, now, out);
  maybeAddPartition(d, keyOf(rec));
  return out;
}

describe('maybeAddPartition: when a transactional record may be sent', () => {
  it('protocol v2 notes the partition at send(): with linger.ms=0 the Sender loop sends it at once', () => {
    const d = producer(2);
    sendRecord(d, 0);
    expect(d.txnPartitions).toEqual(['orders-0']);
    expect(d.transactionStarted).toBe(true);
    const out = new Out();
    drain(d, 100, out);
    expect(sends(out, 'Produce')).toHaveLength(1);
  });

  it('protocol v1 queues the partition for AddPartitionsToTxn; its record waits for the answer', () => {
    const d = producer(1);
    sendRecord(d, 0);
    expect(d.txnPartitions).toEqual([]);
    expect(d.pendingPartitions).toEqual(['orders-0']);
    const out = new Out();
    maybeSendTxnRequest(d, out);
    drain(d, 100, out);
    expect(sends(out, 'AddPartitionsToTxn')).toHaveLength(1);
    expect(sends(out, 'Produce')).toHaveLength(0);
  });

  it('with linger.ms > 0 a v2 record waits for linger.ms, then goes', () => {
    const d = producer(2, 20);
    sendRecord(d, 0);
    const early = new Out();
    drain(d, 110, early);
    expect(sends(early, 'Produce')).toHaveLength(0);
    const late = new Out();
    drain(d, 120, late);
    expect(sends(late, 'Produce')).toHaveLength(1);
  });
});

describe('nextRequest in ABORTABLE_ERROR: a queued EndTxn(COMMIT) is failed, never sent', () => {
  function committingAfterFailure(transactionVersion: 1 | 2): ProducerDraft {
    const d = producer(transactionVersion);
    d.txnPartitions = ['orders-0', 'orders-1'];
    d.transactionStarted = true;
    d.endTxn = 'COMMIT';
    d.waiting = { call: 'commitTransaction', from: 'p.app' };
    // one send failed (INVALID_RECORD): transitionToAbortableError
    d.abortableError = 'INVALID_RECORD';
    return d;
  }

  for (const v of [1, 2] as const) {
    it(`protocol v${v}: with no batch incomplete, EndTxn(COMMIT) is terminated with the error and commitTransaction() fails`, () => {
      const d = committingAfterFailure(v);
      const out = new Out();
      maybeSendTxnRequest(d, out);
      expect(sends(out, 'EndTxn')).toEqual([]);
      expect(d.endTxn).toBeNull();
      expect(replies(out)).toEqual([{ call: 'commitTransaction', ok: false, error: 'INVALID_RECORD' }]);
    });
  }

  it('while a batch is still incomplete, nothing is sent and commitTransaction() keeps waiting (EndTxn waits for every batch)', () => {
    const d = committingAfterFailure(2);
    d.batches = [
      {
        id: 1,
        topic: 'orders',
        partition: 1,
        broker: 'broker-0',
        leaderEpoch: 0,
        records: [],
        createdAt: 0,
        baseSequence: 0,
        sequenceReset: false,
        producerId: 7,
        producerEpoch: 0,
        attempts: 1,
        inFlight: true,
        retryAt: 0,
        correlationId: 3,
      },
    ];
    const out = new Out();
    maybeSendTxnRequest(d, out);
    expect(sends(out, 'EndTxn')).toEqual([]);
    expect(d.endTxn).toBe('COMMIT');
    expect(replies(out)).toEqual([]);
  });

  it('records never drained fail with the abortable error (abortUndrainedBatches), and a pending AddPartitionsToTxn is not sent', () => {
    const d = producer(1);
    d.txnPartitions = ['orders-0'];
    d.transactionStarted = true;
    accumulate(d, { topic: 'orders', key: 'k', value: 'v', partition: 1 }, 0, new Out());
    d.pendingPartitions = ['orders-1'];
    d.abortableError = 'INVALID_RECORD';
    const out = new Out();
    maybeSendTxnRequest(d, out);
    expect(sends(out, 'AddPartitionsToTxn')).toEqual([]);
    expect(hasIncompleteRecords(d)).toBe(false);
    const results = out.effects.filter((e) => e.type === 'fact' && e.fact.kind === 'sendResult');
    expect(results.map((e) => (e as Extract<Effect, { type: 'fact' }>).fact)).toMatchObject([{ error: 'INVALID_RECORD', offset: null }]);
  });

  it('once abortTransaction() has cleared the error, EndTxn(ABORT) goes out', () => {
    const d = producer(2);
    d.txnPartitions = ['orders-0'];
    d.transactionStarted = true;
    d.endTxn = 'ABORT';
    const out = new Out();
    maybeSendTxnRequest(d, out);
    expect(sends(out, 'EndTxn')).toMatchObject([{ committed: false }]);
  });
});

describe('protocol v1: an abort after a failed batch ends with an epoch bump (KIP-360 clientSideEpochBumpRequired)', () => {
  function inFlightBatch(d: ProducerDraft) {
    return {
      id: 1,
      topic: 'orders',
      partition: 0,
      broker: 'broker-0',
      leaderEpoch: 0,
      records: [],
      createdAt: 0,
      baseSequence: 0,
      sequenceReset: false,
      producerId: d.producerId,
      producerEpoch: d.producerEpoch,
      attempts: 1,
      inFlight: true,
      retryAt: 0,
      correlationId: 3,
    };
  }

  it('maybeTransitionToErrorState: a batch failing in an open transaction requires the bump; one failing while committing does not', () => {
    const open = producer(1);
    failBatch(open, inFlightBatch(open), 'INVALID_RECORD', new Out(), true);
    expect(open.clientEpochBumpRequired).toBe(true);
    const committing = producer(1);
    committing.endTxn = 'COMMIT';
    failBatch(committing, inFlightBatch(committing), 'INVALID_RECORD', new Out(), true);
    expect(committing.clientEpochBumpRequired).toBe(false);
    const v2 = producer(2);
    failBatch(v2, inFlightBatch(v2), 'INVALID_RECORD', new Out(), true);
    expect(v2.clientEpochBumpRequired).toBe(false);
  });

  it('EndTxn(ABORT) answered: InitProducerId with the current producerId and epoch; abortTransaction() completes with its answer and sequences restart', () => {
    const d = producer(1);
    d.txnPartitions = ['orders-0'];
    d.transactionStarted = true;
    d.endTxn = 'ABORT';
    d.clientEpochBumpRequired = true;
    d.nextSequence = { 'orders-0': 3 };
    d.waiting = { call: 'abortTransaction', from: 'p.app' };
    const end = new Out();
    maybeSendTxnRequest(d, end);
    const endTxn = sends(end, 'EndTxn')[0] as { correlationId: number };
    const bumpOut = new Out();
    expect(
      onCoordinatorResponse(
        d,
        { type: 'EndTxnResponse', payload: { correlationId: endTxn.correlationId, error: 'NONE', producerId: -1, producerEpoch: -1 } },
        bumpOut,
      ),
      // completeTransaction with the bump required: ABORTING_TRANSACTION → INITIALIZING
    ).toBe('epochBump');
    expect(sends(bumpOut, 'InitProducerId')).toMatchObject([{ transactionalId: 'tx', producerId: 7, producerEpoch: 0 }]);
    expect(replies(bumpOut)).toEqual([]);
    const init = sends(bumpOut, 'InitProducerId')[0] as { correlationId: number };
    const done = new Out();
    expect(
      onCoordinatorResponse(
        d,
        { type: 'InitProducerIdResponse', payload: { correlationId: init.correlationId, error: 'NONE', producerId: 7, producerEpoch: 1 } },
        done,
      ),
    ).toBe('completed');
    expect(d.producerEpoch).toBe(1);
    expect(d.nextSequence).toEqual({});
    expect(replies(done)).toEqual([{ call: 'abortTransaction', ok: true, error: null }]);
  });
});

describe('TxnOffsetCommitHandler: what each TxnOffsetCommit error does to the transaction', () => {
  function committingOffsets(error: string) {
    const d = producer(2);
    d.transactionStarted = true;
    d.pendingOffsets = {
      offsets: [{ topic: 'orders', partition: 0, offset: 3 }],
      groupId: 'g',
      generationId: 1,
      memberId: 'm',
      phase: 'TxnOffsetCommit',
    } as never;
    d.waiting = { call: 'sendOffsetsToTransaction', from: 'p.app' };
    d.coordinatorRequest = { rpc: 'TxnOffsetCommit', correlationId: 5, attempts: 1 };
    const out = new Out();
    const signal = onCoordinatorResponse(d, { type: 'TxnOffsetCommitResponse', payload: { correlationId: 5, error: error as never } }, out);
    const errors = out.effects.flatMap((e) =>
      e.type === 'fact' && e.fact.kind === 'clientError' ? [e.fact as unknown as { error: string; fatal: boolean }] : [],
    );
    return { d, out, signal, errors };
  }

  it('UNKNOWN_MEMBER_ID and ILLEGAL_GENERATION: abortable CommitFailedException (KIP-447)', () => {
    for (const error of ['UNKNOWN_MEMBER_ID', 'ILLEGAL_GENERATION']) {
      const r = committingOffsets(error);
      expect(r.signal).toBe('abortable');
      expect(replies(r.out)).toEqual([{ call: 'sendOffsetsToTransaction', ok: false, error: 'CommitFailedException' }]);
    }
  });

  it('TRANSACTION_ABORTABLE and FENCED_INSTANCE_ID: abortable with their own error, not a CommitFailedException', () => {
    for (const error of ['TRANSACTION_ABORTABLE', 'FENCED_INSTANCE_ID']) {
      const r = committingOffsets(error);
      expect(r.signal).toBe('abortable');
      expect(replies(r.out)).toEqual([{ call: 'sendOffsetsToTransaction', ok: false, error }]);
      expect(r.errors.map((e) => e.error)).toEqual([error]);
    }
  });

  it('INVALID_PRODUCER_EPOCH is treated as PRODUCER_FENCED: fatal', () => {
    const r = committingOffsets('INVALID_PRODUCER_EPOCH');
    expect(r.signal).toBe('fatal');
    expect(r.errors).toMatchObject([{ error: 'PRODUCER_FENCED', fatal: true }]);
  });

  it('an unexpected error such as INVALID_PRODUCER_ID_MAPPING is fatal (KafkaException), not abortable', () => {
    const r = committingOffsets('INVALID_PRODUCER_ID_MAPPING');
    expect(r.signal).toBe('fatal');
    expect(r.errors).toMatchObject([{ error: 'INVALID_PRODUCER_ID_MAPPING', fatal: true }]);
  });

  it('any retriable error (e.g. NOT_ENOUGH_REPLICAS) sends the same offsets again after retry.backoff.ms', () => {
    const r = committingOffsets('NOT_ENOUGH_REPLICAS');
    expect(r.signal).toBe('none');
    expect(r.d.pendingOffsets).not.toBeNull();
    expect(r.out.effects.some((e) => e.type === 'timer' && e.name === 'txnRetryBackoffExpired')).toBe(true);
  });
});
