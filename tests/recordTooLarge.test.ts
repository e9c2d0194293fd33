/**
 * A record larger than max.request.size, against Kafka's client (KafkaProducer.doSend →
 * ensureValidRecordSize; the ApiException catch: callback.onCompletion(nullMetadata, e),
 * TransactionManager.maybeTransitionToErrorState): send() returns, its callback fails at once with
 * RecordTooLargeException, nothing reaches the accumulator, and a transaction becomes abortable.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../src/sim/actors/out';
import { estimateRecordBytes } from '../src/sim/log/partitionLog';
import { producerMachine } from '../src/sim/producer/producer.machine';
import type { ProducerContext } from '../src/sim/producer/producerContext';
import { queueSize } from '../src/sim/producer/recordAccumulator';
import { accumulate, refuseBeforeAppend, UNKNOWN_PARTITION } from '../src/sim/producer/sender';
import { keyOf } from '../src/sim/protocol/topicPartition';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';
import { summarize } from '../src/sim/trace/summary';
import { oneBrokerMetadata } from './fixtures/oneBrokerMetadata';
import { producerDraft } from './fixtures/producerDraft';
import { calls, drive, inputOf } from './machines/harness';

type SendResult = Extract<Fact, { kind: 'sendResult' }>;
const factsOf = (out: Out) => out.effects.flatMap((e) => (e.type === 'fact' ? [e.fact] : []));
const sendResults = (out: Out) => factsOf(out).filter((f): f is SendResult => f.kind === 'sendResult');
const bytesOf = (key: string | null, value: string) => estimateRecordBytes({ key, value, headers: {} });

describe('RecordTooLargeException at send() (KafkaProducer.ensureValidRecordSize)', () => {
  const meta = {
    ...oneBrokerMetadata,
    topics: { orders: { name: 'orders', partitions: 3, leaders: ['broker-0', 'broker-0', 'broker-0'] } },
  };

  it('a record of exactly max.request.size bytes is accepted; one byte more is refused before the accumulator', () => {
    const max = bytesOf(null, 'x'.repeat(30));
    const d = producerDraft(meta, { 'max.request.size': max });
    expect(refuseBeforeAppend(d, { topic: 'orders', key: null, value: 'x'.repeat(30), partition: 0 }, 0, new Out())).toBeNull();
    const out = new Out();
    const refused = refuseBeforeAppend(d, { topic: 'orders', key: null, value: 'x'.repeat(31), partition: 0 }, 0, out);
    expect(refused).toMatchObject({ ref: 0, partition: 0 });
    expect(sendResults(out)).toEqual([
      {
        kind: 'sendResult',
        client: 'p',
        ref: 0,
        topic: 'orders',
        partition: 0,
        offset: null,
        error: 'RecordTooLargeException',
        eventId: null,
        // refused before the accumulator: never sent (the verdict reads it)
        beforeAppend: true,
      },
    ]);
    const error = factsOf(out).find((f) => f.kind === 'clientError');
    expect(error).toMatchObject({
      error: 'RecordTooLargeException',
      during: `send() (${max + 1} bytes > max.request.size ${max})`,
    });
    expect(Object.values(d.accumulating).every((q) => queueSize(q) === 0)).toBe(true);
  });

  it('the partition is what doSend knows before the accumulator: the explicit one, the key’s, else UNKNOWN_PARTITION (-1)', () => {
    const d = producerDraft(meta, { 'max.request.size': 25 });
    const big = 'x'.repeat(40);
    const keyed = refuseBeforeAppend(d, { topic: 'orders', key: 'order-7', value: big }, 0, new Out());
    const twin = accumulate(producerDraft(meta), { topic: 'orders', key: 'order-7', value: 'v' }, 0, new Out());
    expect(keyed?.partition).toBe(twin.partition);
    expect(refuseBeforeAppend(d, { topic: 'orders', key: null, value: big }, 0, new Out())?.partition).toBe(UNKNOWN_PARTITION);
    expect(refuseBeforeAppend(d, { topic: 'orders', key: null, value: big, partition: 2 }, 0, new Out())?.partition).toBe(2);
  });

  it('a refused record uses no sequence number and moves no sticky partition: the next record is sequence 0 where it would have been', () => {
    const d = producerDraft(meta, { 'max.request.size': 25 });
    const sticky = d.sticky;
    refuseBeforeAppend(d, { topic: 'orders', key: null, value: 'x'.repeat(40) }, 0, new Out());
    expect(d.sticky).toBe(sticky);
    const rec = accumulate(d, { topic: 'orders', key: null, value: 'ok' }, 0, new Out());
    expect(rec.ref).toBe(1);
    expect(d.nextSequence[keyOf(rec)] ?? 0).toBe(0);
  });
});

describe('the producer statechart on a record too large', () => {
  const scenario = (config: Record<string, unknown>) => ({
    version: 1,
    seed: 1,
    topics: [{ name: 't', partitions: 1 }],
    clients: [{ id: 'p', type: 'producer', config: { 'max.request.size': 40, ...config }, script: [] }],
  });
  const call = (type: string, args: Record<string, unknown> = {}) => ({ type, from: 'p.app', args });

  it('send() returns (its future failed): an idempotent producer stays READY and sends nothing', () => {
    const m = drive(producerMachine, inputOf(scenario({ 'enable.idempotence': false }), 'p.producer'));
    m.send({ type: 'boot' });
    const fx = m.send(call('send', { topic: 't', key: 'k', value: 'x'.repeat(60) }), 1);
    expect(m.state()).toBe('live.READY');
    expect(calls(fx)).toEqual([{ to: 'p.app', name: 'reply', call: 'send', ok: true, error: null, ref: 0, topic: 't', partition: 0 }]);
    expect(fx.some((e) => e.type === 'send')).toBe(false);
  });

  it('a transactional producer goes to ABORTABLE_ERROR: the transaction must be aborted', () => {
    const m = drive(producerMachine, inputOf(scenario({ 'transactional.id': 'tx' }), 'p.producer'));
    m.send({ type: 'boot' });
    m.send(call('initTransactions'), 1);
    m.send(
      {
        type: 'InitProducerIdResponse',
        from: 'txn-coordinator',
        envelopeId: 1,
        inReplyTo: 0,
        payload: { correlationId: 0, error: 'NONE', producerId: 7, producerEpoch: 0 },
      },
      2,
    );
    m.send(call('beginTransaction'), 3);
    expect(m.state()).toBe('live.IN_TRANSACTION');
    m.send(call('send', { topic: 't', key: 'k', value: 'x'.repeat(60) }), 4);
    expect(m.state()).toBe('live.ABORTABLE_ERROR');
    expect(m.context<ProducerContext>().abortableError).toBe('RecordTooLargeException');
  });
});

describe('a run: one record over max.request.size in a transaction', () => {
  /** A transaction of 'small' then a record too large, `gapMs` later, then commitTransaction(). */
  function run(gapMs: number) {
    const trace = runScenario({
      version: 1,
      seed: 1,
      topics: [{ name: 'orders', partitions: 1 }],
      clients: [
        {
          id: 'p',
          type: 'producer',
          config: { 'transactional.id': 'tx', 'max.request.size': 60 },
          script: [
            { op: 'beginTransaction' },
            { op: 'send', topic: 'orders', key: 'k', value: 'small' },
            { op: 'send', topic: 'orders', key: 'k', value: 'x'.repeat(100), delayMs: gapMs },
            { op: 'commitTransaction' },
          ],
        },
      ],
    });
    const results = trace.steps.flatMap((s) => s.facts as Fact[]).filter((f): f is SendResult => f.kind === 'sendResult');
    const log = summarize(trace).partitions.find((p) => keyOf(p) === 'orders-0');
    return { results, records: log?.records.map((r) => [r.control ?? r.value, r.txnOutcome]) };
  }

  it('sent after the small record went out: the commit fails, the application aborts, and the small record is aborted in the log', () => {
    const { results, records } = run(100);
    expect(results.map((r) => [r.ref, r.offset, r.error])).toEqual([
      [0, 0, null],
      [1, null, 'RecordTooLargeException'],
    ]);
    expect(records).toEqual([
      ['small', 'aborted'],
      ['ABORT', null],
    ]);
  });

  it('sent while the small record still lingered: the small record fails with the same error (abortUndrainedBatches) and nothing is written', () => {
    const { results, records } = run(0);
    expect(results.map((r) => [r.ref, r.error])).toEqual([
      [1, 'RecordTooLargeException'],
      [0, 'RecordTooLargeException'],
    ]);
    expect(records).toEqual([]);
  });
});
