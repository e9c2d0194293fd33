/**
 * The producer statechart against Kafka's TransactionManager.State.isTransitionValid (4.0): each
 * application call from each state either takes the transition Kafka allows or is refused — the
 * refused transition throws IllegalStateException on the application's thread (KafkaException
 * once an error is held) and the state stays — and protocol v1's abort that bumps the epoch goes
 * ABORTING_TRANSACTION → INITIALIZING → READY (completeTransaction with epochBumpRequired).
 */
import { describe, expect, it } from 'vitest';
import { producerMachine } from '../../src/sim/producer/producer.machine';
import type { ProducerContext } from '../../src/sim/producer/producerContext';
import { calls, type Driven, drive, inputOf, sends } from './harness';

const scenario = (config: Record<string, unknown>, transactionVersion?: 1 | 2) => ({
  version: 1,
  seed: 1,
  ...(transactionVersion ? { cluster: { 'transaction.version': transactionVersion } } : {}),
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'p', type: 'producer', config, script: [] }],
});

const call = (type: string, args: Record<string, unknown> = {}) => ({ type, from: 'p.app', args });
const answer = (type: string, from: string, payload: Record<string, unknown>) => ({ type, from, envelopeId: 1, inReplyTo: 0, payload });

function producer(config: Record<string, unknown>, transactionVersion?: 1 | 2): Driven {
  const m = drive(producerMachine, inputOf(scenario(config, transactionVersion), 'p.producer'));
  m.send({ type: 'boot' });
  return m;
}

/** A transactional producer with its producer id: READY. */
function ready(transactionVersion?: 1 | 2): Driven {
  const m = producer({ 'transactional.id': 'tx' }, transactionVersion);
  m.send(call('initTransactions'), 1);
  const init = m.context<ProducerContext>().coordinatorRequest;
  m.send(
    answer('InitProducerIdResponse', 'txn-coordinator', {
      correlationId: init?.correlationId,
      error: 'NONE',
      producerId: 7,
      producerEpoch: 0,
    }),
    2,
  );
  expect(m.state()).toBe('live.READY');
  return m;
}

/** IN_TRANSACTION with one record sent (v2: at once, no AddPartitionsToTxn); returns its batch. */
function sendOneBatch(m: Driven, now = 3) {
  m.send(call('beginTransaction'), now);
  m.send(call('send', { topic: 't', key: 'k', value: 'v' }), now);
  m.send({ type: 'lingerExpired', key: 'linger:t-0', data: {} }, now + 5);
  return m.context<ProducerContext>().batches[0];
}

/** broker-0's answer to the Produce of batch `b` on t-0. */
const produceAnswer = (b: { readonly correlationId: number | null } | undefined, error: string) =>
  answer('ProduceResponse', 'broker-0', {
    correlationId: b?.correlationId,
    responses: [{ topic: 't', partition: 0, error, baseOffset: error === 'NONE' ? 0 : -1 }],
  });

/** IN_TRANSACTION with one record sent and answered by `error`. */
function afterProduce(m: Driven, error: string, now = 3): Driven {
  const b = sendOneBatch(m, now);
  expect(b?.inFlight).toBe(true);
  m.send(produceAnswer(b, error), now + 6);
  return m;
}

/** Sends an application call; returns the producer's reply and the state it is in afterwards. */
function refusal(m: Driven, name: string, now = 20): { ok: unknown; error: unknown; state: string } {
  const before = m.state();
  const reply = calls(m.send(call(name), now)).find((c) => c.name === 'reply') as { ok?: unknown; error?: unknown } | undefined;
  expect(m.state()).toBe(before);
  return { ok: reply?.ok, error: reply?.error, state: m.state() };
}

const invalid = (from: string, to: string) => `Invalid transition attempted from state ${from} to state ${to}`;

describe('producer transitions (TransactionManager.State.isTransitionValid)', () => {
  it('READY → INITIALIZING is not valid: a second initTransactions() is refused and the producer stays READY', () => {
    const m = ready();
    expect(refusal(m, 'initTransactions')).toEqual({ ok: false, error: invalid('READY', 'INITIALIZING'), state: 'live.READY' });
    // nothing was asked of the coordinator
    expect(m.context<ProducerContext>().coordinatorRequest).toBeNull();
  });

  it('from READY only IN_TRANSACTION: commit, abort and sendOffsets are refused', () => {
    const m = ready();
    expect(refusal(m, 'commitTransaction').error).toBe(invalid('READY', 'COMMITTING_TRANSACTION'));
    expect(refusal(m, 'abortTransaction').error).toBe(invalid('READY', 'ABORTING_TRANSACTION'));
    expect(refusal(m, 'sendOffsetsToTransaction').error).toBe(
      'Cannot send offsets if a transaction is not in progress (currentState= READY)',
    );
  });

  it('IN_TRANSACTION → IN_TRANSACTION and → INITIALIZING are not valid', () => {
    const m = ready();
    m.send(call('beginTransaction'), 3);
    expect(refusal(m, 'beginTransaction').error).toBe(invalid('IN_TRANSACTION', 'IN_TRANSACTION'));
    expect(refusal(m, 'initTransactions').error).toBe(invalid('IN_TRANSACTION', 'INITIALIZING'));
  });

  it('INITIALIZING and UNINITIALIZED: only the first initTransactions() leads on', () => {
    const u = producer({ 'transactional.id': 'tx' });
    expect(u.state()).toBe('live.UNINITIALIZED');
    expect(refusal(u, 'commitTransaction').error).toBe(invalid('UNINITIALIZED', 'COMMITTING_TRANSACTION'));
    expect(refusal(u, 'abortTransaction').error).toBe(invalid('UNINITIALIZED', 'ABORTING_TRANSACTION'));
    // TransactionManager.beginTransaction: maybeFailWithError passes, transitionTo(IN_TRANSACTION) does not
    expect(refusal(u, 'beginTransaction').error).toBe(invalid('UNINITIALIZED', 'IN_TRANSACTION'));
    u.send(call('initTransactions'), 1);
    expect(u.state()).toBe('live.INITIALIZING');
    expect(refusal(u, 'beginTransaction').error).toBe(invalid('INITIALIZING', 'IN_TRANSACTION'));
    expect(refusal(u, 'abortTransaction').error).toBe(invalid('INITIALIZING', 'ABORTING_TRANSACTION'));
  });

  it('a producer without transactional.id refuses every transactional call', () => {
    const plain = producer({ 'enable.idempotence': false });
    expect(plain.state()).toBe('live.READY');
    for (const name of ['initTransactions', 'beginTransaction', 'commitTransaction', 'abortTransaction'])
      expect(refusal(plain, name).error).toBe(
        'Cannot use transactional methods without enabling transactions by setting the transactional.id configuration property',
      );
    const idempotent = producer({});
    expect(idempotent.state()).toBe('live.INITIALIZING');
    expect(refusal(idempotent, 'initTransactions').error).toMatch(/^Cannot use transactional methods/);
  });

  it('ABORTABLE_ERROR (reached from IN_TRANSACTION): the held error is thrown first; only ABORTING_TRANSACTION leads on', () => {
    const m = afterProduce(ready(), 'INVALID_RECORD');
    expect(m.state()).toBe('live.ABORTABLE_ERROR');
    for (const name of ['beginTransaction', 'commitTransaction', 'initTransactions', 'sendOffsetsToTransaction'])
      expect(refusal(m, name).ok).toBe(false);
    m.send(call('abortTransaction'), 21);
    expect(m.state()).toBe('live.ABORTING_TRANSACTION');
  });

  it('ABORTING_TRANSACTION skips an abortable error and refuses begin and initTransactions', () => {
    const m = ready();
    const b = sendOneBatch(m);
    m.send(call('abortTransaction'), 9);
    expect(m.state()).toBe('live.ABORTING_TRANSACTION');
    m.send(produceAnswer(b, 'INVALID_RECORD'), 10);
    expect(m.state()).toBe('live.ABORTING_TRANSACTION');
    expect(refusal(m, 'beginTransaction').error).toBe(invalid('ABORTING_TRANSACTION', 'IN_TRANSACTION'));
    expect(refusal(m, 'initTransactions').error).toBe(invalid('ABORTING_TRANSACTION', 'INITIALIZING'));
  });

  it('protocol v1: an abort after a failed send ends ABORTING_TRANSACTION → INITIALIZING (the epoch bump) → READY', () => {
    const m = ready(1);
    m.send(call('beginTransaction'), 3);
    m.send(call('send', { topic: 't', key: 'k', value: 'v' }), 3);
    // v1: the partition is added to the transaction first
    const add = m.context<ProducerContext>().coordinatorRequest;
    expect(add?.rpc).toBe('AddPartitionsToTxn');
    m.send(
      answer('AddPartitionsToTxnResponse', 'txn-coordinator', {
        correlationId: add?.correlationId,
        error: 'NONE',
        partitions: [{ topic: 't', partition: 0 }],
      }),
      4,
    );
    m.send({ type: 'lingerExpired', key: 'linger:t-0', data: {} }, 8);
    const b = m.context<ProducerContext>().batches[0];
    expect(b?.inFlight).toBe(true);
    m.send(produceAnswer(b, 'INVALID_RECORD'), 9);
    expect(m.state()).toBe('live.ABORTABLE_ERROR');
    expect(m.context<ProducerContext>().clientEpochBumpRequired).toBe(true);
    m.send(call('abortTransaction'), 10);
    const endTxn = m.context<ProducerContext>().coordinatorRequest;
    expect(endTxn?.rpc).toBe('EndTxn');
    const fx = m.send(
      answer('EndTxnResponse', 'txn-coordinator', {
        correlationId: endTxn?.correlationId,
        error: 'NONE',
        producerId: -1,
        producerEpoch: -1,
      }),
      11,
    );
    // the abort is complete; the epoch bump follows in INITIALIZING, and abortTransaction() waits for it
    expect(m.state()).toBe('live.INITIALIZING');
    expect(sends(fx)).toEqual(['InitProducerId→txn-coordinator']);
    expect(calls(fx).filter((c) => c.name === 'reply')).toEqual([]);
    const bump = m.context<ProducerContext>().coordinatorRequest;
    const done = m.send(
      answer('InitProducerIdResponse', 'txn-coordinator', {
        correlationId: bump?.correlationId,
        error: 'NONE',
        producerId: 7,
        producerEpoch: 1,
      }),
      12,
    );
    expect(m.state()).toBe('live.READY');
    expect(m.context<ProducerContext>().producerEpoch).toBe(1);
    expect(calls(done)).toEqual([expect.objectContaining({ name: 'reply', call: 'abortTransaction', ok: true })]);
  });

  it('COMMITTING_TRANSACTION → ABORTABLE_ERROR is valid; COMMITTING_TRANSACTION → IN_TRANSACTION is not', () => {
    const m = ready();
    const b = sendOneBatch(m);
    m.send(call('commitTransaction'), 9);
    expect(m.state()).toBe('live.COMMITTING_TRANSACTION');
    expect(refusal(m, 'beginTransaction').error).toBe(invalid('COMMITTING_TRANSACTION', 'IN_TRANSACTION'));
    m.send(produceAnswer(b, 'INVALID_RECORD'), 21);
    expect(m.state()).toBe('live.ABORTABLE_ERROR');
  });
});
