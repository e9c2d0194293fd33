/** The producer's statechart on its own: TransactionManager states, the guards that move between them, the effects. */
import { describe, expect, it } from 'vitest';
import { producerMachine } from '../../src/sim/producer/producer.machine';
import type { ProducerContext } from '../../src/sim/producer/producerContext';
import { calls, drive, inputOf, sends } from './harness';

const scenario = (config: Record<string, unknown>) => ({
  version: 1,
  seed: 1,
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'p', type: 'producer', config, script: [] }],
});

function producer(config: Record<string, unknown>) {
  const m = drive(producerMachine, inputOf(scenario(config), 'p.producer'));
  m.send({ type: 'boot' });
  return m;
}

const call = (type: string, args: Record<string, unknown> = {}) => ({ type, from: 'p.app', args });
const coordinatorAnswer = (type: string, correlationId: number, payload: Record<string, unknown>) => ({
  type,
  from: 'txn-coordinator',
  envelopeId: 1,
  inReplyTo: 0,
  payload: { correlationId, ...payload },
});

/** A transactional producer through initTransactions() and its InitProducerId. */
function initialized() {
  const m = producer({ 'transactional.id': 'tx' });
  const fx = m.send(call('initTransactions'), 1);
  expect(sends(fx)).toEqual(['InitProducerId→txn-coordinator']);
  m.send(coordinatorAnswer('InitProducerIdResponse', 0, { error: 'NONE', producerId: 7, producerEpoch: 0 }), 2);
  return m;
}

describe('producer statechart', () => {
  it('starts READY without idempotence, and INITIALIZING (asking for a producer id) with it', () => {
    expect(producer({ 'enable.idempotence': false }).state()).toBe('live.READY');
    const m = drive(producerMachine, inputOf(scenario({}), 'p.producer'));
    const fx = m.send({ type: 'boot' });
    expect(m.state()).toBe('live.INITIALIZING');
    expect(sends(fx)).toEqual(['InitProducerId→txn-coordinator']);
  });

  it('a transactional producer waits UNINITIALIZED and refuses send() before initTransactions()', () => {
    const m = producer({ 'transactional.id': 'tx' });
    expect(m.state()).toBe('live.UNINITIALIZED');
    const fx = m.send(call('send', { topic: 't', key: 'k', value: 'v' }));
    expect(m.state()).toBe('live.UNINITIALIZED');
    expect(calls(fx)).toEqual([expect.objectContaining({ to: 'p.app', name: 'reply', call: 'send', ok: false })]);
    expect(fx.some((e) => e.type === 'fact' && (e.fact as { error?: string }).error === 'IllegalStateException')).toBe(true);
  });

  it('INITIALIZING → READY when InitProducerId succeeds (guard "initialized"), answering initTransactions()', () => {
    const m = producer({ 'transactional.id': 'tx' });
    m.send(call('initTransactions'), 1);
    expect(m.state()).toBe('live.INITIALIZING');
    const fx = m.send(coordinatorAnswer('InitProducerIdResponse', 0, { error: 'NONE', producerId: 7, producerEpoch: 3 }), 2);
    expect(m.state()).toBe('live.READY');
    expect(m.context<ProducerContext>()).toMatchObject({ producerId: 7, producerEpoch: 3 });
    expect(calls(fx)).toEqual([expect.objectContaining({ name: 'reply', call: 'initTransactions', ok: true })]);
  });

  it('a retriable InitProducerId error keeps it INITIALIZING and arms the retry', () => {
    const m = producer({ 'transactional.id': 'tx' });
    m.send(call('initTransactions'), 1);
    const fx = m.send(
      coordinatorAnswer('InitProducerIdResponse', 0, { error: 'CONCURRENT_TRANSACTIONS', producerId: -1, producerEpoch: -1 }),
      2,
    );
    expect(m.state()).toBe('live.INITIALIZING');
    expect(fx.some((e) => e.type === 'timer' && e.name === 'txnRetryBackoffExpired')).toBe(true);
  });

  it('READY → IN_TRANSACTION → COMMITTING_TRANSACTION, and back to READY when the empty transaction completes (guard "completed")', () => {
    const m = initialized();
    m.send(call('beginTransaction'), 3);
    expect(m.state()).toBe('live.IN_TRANSACTION');
    const fx = m.send(call('commitTransaction'), 4);
    // nothing was sent in the transaction: EndTxn completes locally, the state is READY at once
    expect(m.state()).toBe('live.READY');
    expect(calls(fx)).toEqual([expect.objectContaining({ name: 'reply', call: 'commitTransaction', ok: true })]);
  });

  it('a transaction with a record sends EndTxn and waits COMMITTING_TRANSACTION for its answer', () => {
    const m = initialized();
    m.send(call('beginTransaction'), 3);
    m.send(call('send', { topic: 't', key: 'k', value: 'v' }), 4);
    expect(m.state()).toBe('live.IN_TRANSACTION');
    m.send(call('commitTransaction'), 5);
    expect(m.state()).toBe('live.COMMITTING_TRANSACTION');
  });

  it('PRODUCER_FENCED moves any live state to FATAL_ERROR (guard "fatal"), where calls fail with KafkaException until close()', () => {
    const m = producer({ 'transactional.id': 'tx' });
    m.send(call('initTransactions'), 1);
    m.send(coordinatorAnswer('InitProducerIdResponse', 0, { error: 'PRODUCER_FENCED', producerId: -1, producerEpoch: -1 }), 2);
    expect(m.state()).toBe('FATAL_ERROR');
    const fx = m.send(call('send', { topic: 't', key: 'k', value: 'v' }), 3);
    expect(calls(fx)).toEqual([expect.objectContaining({ name: 'reply', call: 'send', ok: false })]);
    // a response arriving now is not handled: FATAL_ERROR is outside `live`
    expect(m.send(coordinatorAnswer('EndTxnResponse', 1, { error: 'NONE' }), 4)).toEqual([]);
    m.send(call('close'), 5);
    expect(m.state()).toBe('live.UNINITIALIZED');
  });

  it('abortTransaction() from ABORTABLE_ERROR goes to ABORTING_TRANSACTION; other calls are refused there', () => {
    const m = initialized();
    m.send(call('beginTransaction'), 3);
    m.send(call('send', { topic: 't', key: 'k', value: 'v' }), 4);
    // linger.ms passes: the Sender drains the batch; it then fails with an error that is not retried
    expect(sends(m.send({ type: 'lingerExpired', key: 'linger:t-0', data: {} }, 9))).toEqual(['Produce→broker-0']);
    const produce = m.context<ProducerContext>().batches[0];
    expect(produce?.inFlight).toBe(true);
    m.send(
      {
        type: 'ProduceResponse',
        from: 'broker-0',
        envelopeId: 2,
        inReplyTo: 1,
        payload: {
          correlationId: produce?.correlationId,
          responses: [{ topic: 't', partition: 0, error: 'INVALID_RECORD', baseOffset: -1 }],
        },
      },
      5,
    );
    expect(m.state()).toBe('live.ABORTABLE_ERROR');
    expect(calls(m.send(call('commitTransaction'), 6))).toEqual([expect.objectContaining({ call: 'commitTransaction', ok: false })]);
    m.send(call('abortTransaction'), 7);
    expect(m.state()).toBe('live.ABORTING_TRANSACTION');
  });

  it('a crash forgets everything but the counters; restart starts a new KafkaProducer', () => {
    const m = initialized();
    m.send(call('beginTransaction'), 3);
    m.send({ type: 'crash' }, 4);
    expect(m.state()).toBe('down');
    const ctx = m.context<ProducerContext>();
    expect(ctx.producerId).toBe(-1);
    expect(ctx.nextCorrelationId).toBe(1);
    m.send({ type: 'restart' }, 5);
    expect(m.state()).toBe('live.UNINITIALIZED');
  });

  it('its guards read the outcome the last handler left in the context', () => {
    const guards = producerMachine.implementations.guards as Record<string, (a: { context: Partial<ProducerContext> }) => boolean>;
    expect(guards.fatal?.({ context: { txnSignal: 'fatal' } })).toBe(true);
    expect(guards.fatal?.({ context: { txnSignal: 'abortable' } })).toBe(false);
    expect(guards.initialized?.({ context: { txnSignal: 'initialized' } })).toBe(true);
    expect(guards.idempotentOnly?.({ context: { idempotent: true, transactional: true } })).toBe(false);
  });
});

describe('a batch that expires in flight (Sender.getExpiredInflightBatches; completeBatch → unmutePartition)', () => {
  it("at max.in.flight.requests.per.connection=1 its partition stays muted until its request's connection closes", () => {
    const m = producer({ 'enable.idempotence': false, acks: 1, 'linger.ms': 0, 'max.in.flight.requests.per.connection': 1 });
    const first = m.send(call('send', { topic: 't', key: 'k', value: 'a' }), 1);
    const produce = first.find((e) => e.type === 'send' && e.rpc === 'Produce');
    expect(produce).toBeDefined();
    expect(sends(m.send(call('send', { topic: 't', key: 'k', value: 'b' }), 100_000))).toEqual([]);
    // delivery.timeout.ms (120 s) passes: the first record fails, but its request is still outstanding
    const expiry = m.send({ type: 'deliveryTimeout', key: 'delivery:0', data: { batchId: 0 } }, 120_001);
    expect(sends(expiry)).toEqual([]);
    expect(m.context<ProducerContext>().expiredInFlight).toHaveLength(1);
    // request.timeout.ms closes the connection: the request is gone, the partition drains
    const closed = m.send(
      {
        type: 'disconnected',
        to: 'broker-0',
        rpc: 'Produce',
        envelopeId: 4,
        payload: (produce as { payload: Record<string, unknown> }).payload,
        timedOut: true,
        reason: 'timeout',
      },
      120_010,
    );
    // the close put broker-0 in its reconnect backoff: b goes once it has passed (its connection attempt)
    expect(sends(closed)).toEqual([]);
    expect(m.context<ProducerContext>().expiredInFlight).toEqual([]);
    const reconnected = m.send({ type: 'reconnectBackoffExpired', key: 'reconnect:broker-0', data: { node: 'broker-0' } }, 120_060);
    expect(sends(reconnected)).toEqual(['Produce→broker-0']);
  });
});
