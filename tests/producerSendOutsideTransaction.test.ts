/**
 * A transactional producer's send() outside a transaction, against Kafka's client: KafkaProducer.doSend
 * appends the record to the accumulator first, then TransactionManager.maybeAddPartition throws
 * IllegalStateException ("Cannot add partition … to transaction while in state  READY", or "… before
 * completing a call to initTransactions"), so send() throws — yet the record stays in its partition's
 * batch. RecordAccumulator.shouldStopDrainBatchesForPartition holds it back while
 * isSendToPartitionAllowed(tp) is false; a later transaction that adds the partition carries it out
 * (and commits it); else it expires after delivery.timeout.ms, and on the Sender thread
 * (setPoisonStateOnInvalidTransition) READY → ABORTABLE_ERROR poisons the producer into FATAL_ERROR
 * with an IllegalStateException. In ABORTABLE_ERROR and FATAL_ERROR maybeFailWithError throws after
 * the append too, and the Sender fails the record (abortUndrainedBatches, maybeAbortBatches).
 * Before, the model refused the call and never accumulated the record: the audit's scenario lost evt-0
 * ("never sent by app before the run ended"), which Kafka commits.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Effect } from '../src/sim/kernel/effects';
import { narrate } from '../src/sim/narration/narrate';
import { producerMachine } from '../src/sim/producer/producer.machine';
import type { ProducerContext } from '../src/sim/producer/producerContext';
import { queueSize } from '../src/sim/producer/recordAccumulator';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';
import { summarize } from '../src/sim/trace/summary';
import { calls, drive, inputOf } from './machines/harness';

type SendResult = Extract<Fact, { kind: 'sendResult' }>;
type ClientError = Extract<Fact, { kind: 'clientError' }>;

const facts = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'fact' ? [e.fact as Fact] : []));
const results = (fx: readonly Effect[]) => facts(fx).filter((f): f is SendResult => f.kind === 'sendResult');
const errors = (fx: readonly Effect[]) => facts(fx).filter((f): f is ClientError => f.kind === 'clientError');
const produces = (fx: readonly Effect[]) =>
  fx.flatMap((e) =>
    e.type === 'send' && e.rpc === 'Produce' ? [e.payload as { partitions: { batch: { records: { value: string }[] } }[] }] : [],
  );
const queued = (m: ReturnType<typeof drive>, tp: string) => queueSize(m.context<ProducerContext>().accumulating[tp]);

describe('the producer statechart: send() outside a transaction', () => {
  const scenario = (config: Record<string, unknown> = {}) => ({
    version: 1,
    seed: 1,
    topics: [{ name: 't', partitions: 2 }],
    clients: [
      {
        id: 'p',
        type: 'producer',
        config: { 'transactional.id': 'tx', 'linger.ms': 0, 'delivery.timeout.ms': 5000, 'request.timeout.ms': 1000, ...config },
        script: [],
      },
    ],
  });
  const call = (type: string, args: Record<string, unknown> = {}) => ({ type, from: 'p.app', args });
  const send = (value: string, partition = 0) => call('send', { topic: 't', key: 'k', value, partition });
  const reply = (fx: readonly Effect[]) => calls(fx).find((c) => c.name === 'reply');

  function booted() {
    const m = drive(producerMachine, inputOf(scenario(), 'p.producer'));
    m.send({ type: 'boot' });
    return m;
  }
  function ready() {
    const m = booted();
    m.send(call('initTransactions'), 1);
    const payload = {
      correlationId: m.context<ProducerContext>().coordinatorRequest?.correlationId,
      error: 'NONE',
      producerId: 7,
      producerEpoch: 0,
    };
    m.send({ type: 'InitProducerIdResponse', from: 'txn-coordinator', envelopeId: 1, inReplyTo: 0, payload }, 2);
    expect(m.state()).toBe('live.READY');
    return m;
  }

  it('READY: send() throws maybeAddPartition’s IllegalStateException, and the record stays in the accumulator, not sent', () => {
    const m = ready();
    const fx = m.send(send('orphan'), 10);
    expect(m.state()).toBe('live.READY');
    const reason = 'Cannot add partition t-0 to transaction while in state  READY';
    expect(reply(fx)).toMatchObject({ call: 'send', ok: false, error: reason, ref: 0, topic: 't', partition: 0 });
    expect(errors(fx)).toEqual([expect.objectContaining({ error: 'IllegalStateException', during: `send: ${reason}`, fatal: false })]);
    expect(queued(m, 't-0')).toBe(1);
    expect(produces(fx)).toEqual([]);
    expect(results(fx)).toEqual([]);
  });

  it('UNINITIALIZED: the message is the one before initTransactions; the record waits all the same', () => {
    const m = booted();
    expect(m.state()).toBe('live.UNINITIALIZED');
    const fx = m.send(send('early'), 1);
    expect(reply(fx)).toMatchObject({
      ok: false,
      error: 'Cannot add partition t-0 to transaction before completing a call to initTransactions',
    });
    expect(queued(m, 't-0')).toBe(1);
    expect(produces(fx)).toEqual([]);
  });

  it('a later transaction that adds the partition carries the held record out in the same batch', () => {
    const m = ready();
    m.send(send('orphan'), 10);
    m.send(call('beginTransaction'), 20);
    const fx = m.send(send('inside'), 21);
    expect(reply(fx)).toMatchObject({ ok: true });
    expect(produces(fx).map((p) => p.partitions.map((x) => x.batch.records.map((r) => r.value)))).toEqual([[['orphan', 'inside']]]);
  });

  it('a transaction to another partition of the same leader: the held batch stops that leader’s drain, the commit waits, and turns abortable when it expires', () => {
    const m = ready();
    m.send(send('orphan', 0), 10);
    m.send(call('beginTransaction'), 20);
    // RecordAccumulator.drainBatchesForOneNode: shouldStopDrainBatchesForPartition(t-0) → break, its
    // drainIndex left on t-0 — so t-1's batch on the same broker waits too
    const fx = m.send(send('inside', 1), 21);
    expect(produces(fx)).toEqual([]);
    expect([queued(m, 't-0'), queued(m, 't-1')]).toEqual([1, 1]);
    // EndTxn waits while any batch is incomplete (TransactionManager.nextRequest(accumulator.hasIncomplete()))
    const commit = m.send(call('commitTransaction'), 22);
    expect(commit.some((e) => e.type === 'send' && e.rpc === 'EndTxn')).toBe(false);
    m.send({ type: 'accumulatorExpiry', data: { tp: 't-0' } }, 5010);
    expect(m.state()).toBe('live.ABORTABLE_ERROR');
  });

  it('nothing adds the partition: the batch expires, and READY → ABORTABLE_ERROR poisons the producer into FATAL_ERROR', () => {
    const m = ready();
    m.send(send('orphan'), 10);
    const fx = m.send({ type: 'accumulatorExpiry', data: { tp: 't-0' } }, 5010);
    expect(m.state()).toBe('FATAL_ERROR');
    expect(results(fx).map((r) => [r.ref, r.error])).toEqual([[0, 'TimeoutException']]);
    expect(errors(fx).map((e) => [e.error, e.during, e.fatal])).toEqual([
      ['TimeoutException', 'Expiring 1 record(s) for t-0:5000 ms has passed since batch creation', false],
      ['IllegalStateException', 'TransactionalId tx: Invalid transition attempted from state READY to state ABORTABLE_ERROR', true],
    ]);
    expect(m.context<ProducerContext>().lastError).toBe('IllegalStateException');
    // maybeFailWithError: every transactional call now throws a new IllegalStateException
    const begin = m.send(call('beginTransaction'), 5020);
    expect(reply(begin)).toMatchObject({ ok: false, error: 'IllegalStateException' });
    expect(errors(begin)[0]?.during).toBe(
      "beginTransaction: Producer with transactionalId 'tx' and ProducerIdAndEpoch(producerId=7, epoch=0) cannot execute transactional method because of previous invalid state transition attempt",
    );
  });

  it('FATAL_ERROR: a send() is appended, then failed at once with the fatal error (maybeAbortBatches)', () => {
    const m = ready();
    m.send(send('orphan'), 10);
    m.send({ type: 'accumulatorExpiry', data: { tp: 't-0' } }, 5010);
    const fx = m.send(send('late', 1), 5020);
    expect(results(fx).map((r) => [r.ref, r.partition, r.error])).toEqual([[1, 1, 'IllegalStateException']]);
    expect(reply(fx)).toMatchObject({ ok: false, error: 'IllegalStateException' });
    expect(produces(fx)).toEqual([]);
  });

  it('ABORTABLE_ERROR: the record is appended, then failed by the Sender loop with the abortable error', () => {
    const m = ready();
    m.send(call('beginTransaction'), 20);
    m.send(call('send', { topic: 't', key: 'k', value: 'x'.repeat(2_000_000), partition: 0 }), 21);
    expect(m.state()).toBe('live.ABORTABLE_ERROR');
    const fx = m.send(send('after'), 22);
    expect(results(fx).map((r) => [r.ref, r.error])).toEqual([[1, 'RecordTooLargeException']]);
    expect(reply(fx)).toMatchObject({ ok: false });
    expect(queued(m, 't-0')).toBe(0);
  });

  it('COMMITTING_TRANSACTION: a record to a partition of the committing transaction is refused, yet goes out with it', () => {
    const m = ready();
    m.send(call('beginTransaction'), 20);
    m.send(send('inside'), 21);
    m.send(call('commitTransaction'), 22);
    expect(m.state()).toBe('live.COMMITTING_TRANSACTION');
    const fx = m.send(send('during-commit'), 23);
    expect(reply(fx)).toMatchObject({ ok: false, error: 'Cannot add partition t-0 to transaction while in state  COMMITTING_TRANSACTION' });
    expect(produces(fx).map((p) => p.partitions.map((x) => x.batch.records.map((r) => r.value)))).toEqual([[['during-commit']]]);
  });

  it('a record over max.request.size outside a transaction: its future fails, and send() throws the invalid transition', () => {
    const m = ready();
    const fx = m.send(call('send', { topic: 't', key: 'k', value: 'x'.repeat(2_000_000), partition: 0 }), 10);
    expect(m.state()).toBe('live.READY');
    expect(results(fx).map((r) => r.error)).toEqual(['RecordTooLargeException']);
    expect(reply(fx)).toMatchObject({
      ok: false,
      error: 'TransactionalId tx: Invalid transition attempted from state READY to state ABORTABLE_ERROR',
    });
    expect(queued(m, 't-0')).toBe(0);
  });
});

describe('a run: send() before beginTransaction, then a transaction to the same partition (the audit’s f3)', () => {
  const scenario = () => JSON.parse(readFileSync(new URL('./fixtures/sendOutsideTransaction.json', import.meta.url), 'utf8'));

  it('send() throws, yet evt-0 is committed in one batch with evt-1, and a read_committed reader sees it', () => {
    const trace = runScenario(scenario());
    // the send() goes on once its Metadata is answered (waitOnMetadata): that step refuses it
    const refused = trace.steps.find((s) => s.actor === 'app.producer' && (s.facts as Fact[]).some((f) => f.kind === 'clientError'));
    expect(refused?.before).toBe('live.READY');
    const error = (refused?.facts as Fact[]).find((f): f is ClientError => f.kind === 'clientError');
    expect(error).toMatchObject({
      error: 'IllegalStateException',
      during: 'send: Cannot add partition orders-0 to transaction while in state  READY',
    });
    const s = summarize(trace);
    const log = s.partitions.find((p) => p.topic === 'orders' && p.partition === 0);
    expect(log?.records.filter((r) => r.control === null).map((r) => [r.offset, r.headers.event_id, r.txnOutcome])).toEqual([
      [0, 'evt-0', 'committed'],
      [1, 'evt-1', 'committed'],
    ]);
    const lost = s.verdict.layers.find((f) => f.layer === 'loss');
    expect(lost && 'losses' in lost ? lost.losses : null).toEqual([]);
    const delivery = s.verdict.layers.find((f) => f.layer === 'delivery');
    expect(delivery && 'events' in delivery ? delivery.events : null).toBe(2);
  });

  it('the narration of the refused send says the record stays in the accumulator (en, ko)', () => {
    const trace = runScenario(scenario());
    const i = trace.steps.findIndex((s) => s.actor === 'app.producer' && (s.facts as Fact[]).some((f) => f.kind === 'clientError'));
    expect(narrate(trace, i, 'en')).toMatch(/was refused with IllegalStateException: .*the record stays in the producer's accumulator/);
    expect(narrate(trace, i, 'ko')).toMatch(
      /IllegalStateException으로 거부됐습니다: READY 상태에서는 .*레코드는 프로듀서의 accumulator에 남습니다/,
    );
  });

  it('with no later transaction the held record expires: the producer is poisoned, evt-0 fails with TimeoutException', () => {
    const s = scenario();
    s.clients[0].script = [s.clients[0].script[0]];
    s.clients[0].config['delivery.timeout.ms'] = 3000;
    s.clients[0].config['request.timeout.ms'] = 1000;
    const trace = runScenario(s);
    expect(trace.steps.some((x) => x.actor === 'app.producer' && x.after === 'FATAL_ERROR')).toBe(true);
    const lost = summarize(trace).verdict.layers.find((f) => f.layer === 'loss');
    expect(lost && 'losses' in lost ? lost.losses.map((l) => [l.eventId, l.kind, l.cause]) : null).toEqual([
      ['evt-0', 'not-acked', 'TimeoutException'],
    ]);
  });
});
