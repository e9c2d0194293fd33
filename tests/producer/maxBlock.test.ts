/**
 * max.block.ms bounds the producer's blocking transactional calls (KafkaProducer.initTransactions,
 * sendOffsetsToTransaction, commitTransaction, abortTransaction: `result.await(maxBlockTimeMs, …)`):
 * TransactionalRequestResult.await throws TimeoutException ("Timeout expired after <ms>ms while
 * awaiting <operation>") while the request goes on. TransactionManager.handleCachedTransactionRequestResult
 * keeps the timed-out result: the same call again waits for it (or returns it at once), any other
 * transactional call throws IllegalStateException. On the old code a call waited without limit.
 */
import { describe, expect, it } from 'vitest';
import { resolveProducerConfig } from '../../src/sim/config/producerConfig';
import type { Effect } from '../../src/sim/kernel/effects';
import { producerMachine } from '../../src/sim/producer/producer.machine';
import type { ProducerContext } from '../../src/sim/producer/producerContext';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { answerOf, appCall, type Driven, drive, inputOf, replies, sends } from '../machines/harness';

const scenario = (config: Record<string, unknown>, transactionVersion: 1 | 2 = 2) => ({
  version: 1,
  seed: 1,
  cluster: { 'transaction.version': transactionVersion },
  topics: [{ name: 't', partitions: 1 }],
  clients: [{ id: 'p', type: 'producer', config: { 'transactional.id': 'tx', ...config }, script: [] }],
});

const timers = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'timer' && e.key === 'maxBlock' ? [e] : []));
const deadline = (m: Driven, call: string, now: number) => m.send({ type: 'maxBlockExpired', key: 'maxBlock', data: { call } }, now);

function producer(config: Record<string, unknown> = {}, transactionVersion: 1 | 2 = 2): Driven {
  const m = drive(producerMachine, inputOf(scenario(config, transactionVersion), 'p.producer'));
  m.send({ type: 'boot' });
  return m;
}

function initProducerIdAnswer(m: Driven, now: number, error = 'NONE') {
  const req = m.context<ProducerContext>().coordinatorRequest;
  expect(req?.rpc).toBe('InitProducerId');
  return m.send(answerOf('InitProducerIdResponse', { correlationId: req?.correlationId, error, producerId: 7, producerEpoch: 0 }), now);
}

function endTxnAnswer(m: Driven, now: number, error = 'NONE') {
  const req = m.context<ProducerContext>().coordinatorRequest;
  expect(req?.rpc).toBe('EndTxn');
  return m.send(answerOf('EndTxnResponse', { correlationId: req?.correlationId, error, producerId: 7, producerEpoch: 1 }), now);
}

/** READY, then a transaction with one acknowledged record, its commitTransaction() called at `at`: EndTxn in flight. */
function committing(at: number): Driven {
  const m = producer();
  m.send(appCall('initTransactions'), 0);
  initProducerIdAnswer(m, 1);
  m.send(appCall('beginTransaction'), 2);
  m.send(appCall('send', { topic: 't', key: 'k', value: 'v' }), 2);
  m.send({ type: 'lingerExpired', key: 'linger:t-0', data: {} }, 7);
  const b = m.context<ProducerContext>().batches[0];
  m.send(
    {
      type: 'ProduceResponse',
      from: 'broker-0',
      envelopeId: 2,
      inReplyTo: 0,
      payload: { correlationId: b?.correlationId, responses: [{ topic: 't', partition: 0, error: 'NONE', baseOffset: 0 }] },
    },
    8,
  );
  const fx = m.send(appCall('commitTransaction'), at);
  expect(sends(fx)).toEqual(['EndTxn→txn-coordinator']);
  expect(timers(fx)).toEqual([expect.objectContaining({ name: 'maxBlockExpired', delay: 60000, data: { call: 'commitTransaction' } })]);
  return m;
}

describe('max.block.ms (ProducerConfig)', () => {
  it('defaults to 60000 and must be at least 0', () => {
    expect(resolveProducerConfig({}).config['max.block.ms']).toBe(60000);
    expect(resolveProducerConfig({ 'max.block.ms': 1500 }).config['max.block.ms']).toBe(1500);
    expect(resolveProducerConfig({ 'max.block.ms': -1 }).errors.map((e) => e.key)).toEqual(['max.block.ms']);
  });
});

describe('commitTransaction() gives up at max.block.ms', () => {
  it('throws TimeoutException with Kafka message while EndTxn goes on; the retry returns its result', () => {
    const m = committing(10);
    const fx = deadline(m, 'commitTransaction', 60010);
    expect(replies(fx)).toEqual([
      expect.objectContaining({
        call: 'commitTransaction',
        ok: false,
        error: 'TimeoutException',
        message: 'Timeout expired after 60000ms while awaiting EndTxn(true)',
      }),
    ]);
    // the request goes on: nothing is cancelled, nothing sent again, the state stays
    expect(sends(fx)).toEqual([]);
    expect(m.state()).toBe('live.COMMITTING_TRANSACTION');
    expect(m.context<ProducerContext>().pendingTransition).toEqual({ call: 'commitTransaction', result: null });

    // a different operation is refused: "the commit may already be in the progress of completing"
    const abort = m.send(appCall('abortTransaction'), 60011);
    expect(replies(abort)).toEqual([
      expect.objectContaining({
        call: 'abortTransaction',
        ok: false,
        error: 'Cannot attempt operation `abortTransaction` because the previous call to `commitTransaction` timed out and must be retried',
      }),
    ]);
    expect(m.state()).toBe('live.COMMITTING_TRANSACTION');

    // EndTxn's answer completes the transaction with nobody waiting
    const done = endTxnAnswer(m, 61000);
    expect(replies(done)).toEqual([]);
    expect(m.state()).toBe('live.READY');

    // commitTransaction() again: the cached result, at once, with no request
    const retry = m.send(appCall('commitTransaction'), 62000);
    expect(replies(retry)).toEqual([expect.objectContaining({ call: 'commitTransaction', ok: true })]);
    expect(sends(retry)).toEqual([]);
    expect(m.state()).toBe('live.READY');
    expect(m.context<ProducerContext>().pendingTransition).toBeNull();
  });

  it('a retry while EndTxn is still out waits again, for max.block.ms again, and is answered by it', () => {
    const m = committing(10);
    deadline(m, 'commitTransaction', 60010);
    const retry = m.send(appCall('commitTransaction'), 60020);
    expect(replies(retry)).toEqual([]);
    expect(sends(retry)).toEqual([]);
    expect(timers(retry)).toEqual([expect.objectContaining({ delay: 60000, data: { call: 'commitTransaction' } })]);
    // the first deadline's timer, were it still armed, finds another deadline: nothing happens
    expect(replies(deadline(m, 'commitTransaction', 60010))).toEqual([]);
    const done = endTxnAnswer(m, 61000);
    expect(replies(done)).toEqual([expect.objectContaining({ call: 'commitTransaction', ok: true })]);
    expect(done).toContainEqual({ type: 'cancel', key: 'maxBlock' });
    expect(m.context<ProducerContext>().pendingTransition).toBeNull();
  });

  it('a call answered in time cancels its deadline', () => {
    const m = committing(10);
    const done = endTxnAnswer(m, 20);
    expect(replies(done)).toEqual([expect.objectContaining({ call: 'commitTransaction', ok: true })]);
    expect(done).toContainEqual({ type: 'cancel', key: 'maxBlock' });
    expect(replies(deadline(m, 'commitTransaction', 60010))).toEqual([]);
  });

  it('fenced meanwhile: the retry throws the fatal error (transitionToFatalError fails the pending result)', () => {
    const m = committing(10);
    deadline(m, 'commitTransaction', 60010);
    endTxnAnswer(m, 6000, 'PRODUCER_FENCED');
    expect(m.state()).toBe('FATAL_ERROR');
    const retry = m.send(appCall('commitTransaction'), 62000);
    expect(replies(retry)).toEqual([expect.objectContaining({ call: 'commitTransaction', ok: false, error: 'PRODUCER_FENCED' })]);
  });
});

describe('initTransactions() gives up at max.block.ms', () => {
  it('throws TimeoutException awaiting InitProducerId; the retry waits for the same InitProducerId', () => {
    const m = producer();
    const fx = m.send(appCall('initTransactions'), 0);
    expect(sends(fx)).toEqual(['InitProducerId→txn-coordinator']);
    const timedOut = deadline(m, 'initTransactions', 60000);
    expect(replies(timedOut)).toEqual([
      expect.objectContaining({
        call: 'initTransactions',
        error: 'TimeoutException',
        message: 'Timeout expired after 60000ms while awaiting InitProducerId',
      }),
    ]);
    expect(m.state()).toBe('live.INITIALIZING');
    // beginTransaction() meanwhile: throwIfPendingState
    expect(replies(m.send(appCall('beginTransaction'), 60001))).toEqual([
      expect.objectContaining({
        ok: false,
        error: expect.stringMatching(/previous call to `initTransactions` timed out and must be retried$/),
      }),
    ]);
    const retry = m.send(appCall('initTransactions'), 60002);
    expect(sends(retry)).toEqual([]);
    expect(replies(retry)).toEqual([]);
    const done = initProducerIdAnswer(m, 60003);
    expect(replies(done)).toEqual([expect.objectContaining({ call: 'initTransactions', ok: true })]);
    expect(m.state()).toBe('live.READY');
  });
});

describe('sendOffsetsToTransaction() gives up at max.block.ms', () => {
  it('throws TimeoutException and keeps no pending transition: abortTransaction() may follow', () => {
    const m = producer({}, 1);
    m.send(appCall('initTransactions'), 0);
    initProducerIdAnswer(m, 1);
    m.send(appCall('beginTransaction'), 2);
    const fx = m.send(
      appCall('sendOffsetsToTransaction', {
        groupId: 'g',
        generationId: 1,
        memberId: 'm',
        offsets: [{ topic: 'in', partition: 0, offset: 3 }],
      }),
      3,
    );
    expect(sends(fx)).toEqual(['AddOffsetsToTxn→txn-coordinator']);
    const timedOut = deadline(m, 'sendOffsetsToTransaction', 60003);
    expect(replies(timedOut)).toEqual([
      expect.objectContaining({ error: 'TimeoutException', message: 'Timeout expired after 60000ms while awaiting AddOffsetsToTxn' }),
    ]);
    expect(m.context<ProducerContext>().pendingTransition).toBeNull();
    m.send(appCall('abortTransaction'), 60004);
    expect(m.state()).toBe('live.ABORTING_TRANSACTION');
  });
});

describe('a run whose EndTxn is slower than max.block.ms', () => {
  const run = () =>
    runScenario({
      version: 1,
      id: 'max-block-commit',
      seed: 3,
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        {
          id: 'orders-service',
          type: 'producer',
          config: { 'transactional.id': 'orders-1', 'max.block.ms': 2000 },
          script: [
            { op: 'beginTransaction' },
            { op: 'send', topic: 'orders', key: 'o-1', value: 'created', headers: { event_id: 'evt-1' } },
            { op: 'commitTransaction' },
          ],
        },
      ],
      faults: [{ type: 'delay', rpc: 'EndTxn', from: 'orders-service', nth: 1, delayMs: 5000 }],
    } as never);

  it('the application calls commitTransaction() again after each TimeoutException until the commit returns', () => {
    const trace = run();
    const facts = trace.steps.flatMap((s) => (s.facts as Fact[]).map((f) => ({ t: s.t, f })));
    const timeouts = facts.filter((x) => x.f.kind === 'clientError' && x.f.error === 'TimeoutException');
    expect(timeouts.map((x) => x.t)).toEqual([2004, 4004]);
    const appCalls = trace.steps.filter((s) => s.kind === 'call' && s.from === 'orders-service.app').map((s) => s.label);
    // no abortTransaction(): it would throw while the commit is pending
    expect(appCalls.filter((c) => c.endsWith('Transaction'))).toEqual([
      'beginTransaction',
      'commitTransaction',
      'commitTransaction',
      'commitTransaction',
    ]);
    const last = trace.steps.filter((s) => s.actor === 'orders-service.app').at(-1);
    expect(last?.after).toBe('done');
    expect(facts.filter((x) => x.f.kind === 'clientError' && x.f.error === 'IllegalStateException')).toEqual([]);
  });
});
