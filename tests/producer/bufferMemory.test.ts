/**
 * buffer.memory (Kafka's BufferPool, owned by the RecordAccumulator): a new batch takes
 * max(batch.size, the record's size) from the pool (RecordAccumulator.append → free.allocate) until it
 * completes (RecordAccumulator.deallocate); a send() whose batch finds no room blocks, at most what
 * waitOnMetadata left of max.block.ms (KafkaProducer.doSend's remainingWaitMs), woken oldest first
 * when a batch gives memory back (BufferPool's waiters), and then fails with
 * BufferExhaustedException — an ApiException: the future and the callback fail. A batch larger than
 * buffer.memory throws IllegalArgumentException at once; a record larger than buffer.memory is
 * refused by ensureValidRecordSize. On the old code buffer.memory was no config key and send() never
 * waited for memory.
 */
import { describe, expect, it } from 'vitest';
import { allowList, englishWords, runWords, scenarioWords, stateWords } from '../../e2e/korean-words';
import type { LossFinding } from '../../src/sim/checks/verdict';
import { resolveProducerConfig } from '../../src/sim/config/producerConfig';
import type { Effect } from '../../src/sim/kernel/effects';
import { clientMetricsAt } from '../../src/sim/metrics/clientMetrics';
import { narrate } from '../../src/sim/narration/narrate';
import { bufferAvailable, bufferUsed } from '../../src/sim/producer/bufferPool';
import { producerMachine } from '../../src/sim/producer/producer.machine';
import type { ProducerContext } from '../../src/sim/producer/producerContext';
import { runScenario, stateAt } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { onBrokerZero } from '../fixtures/oneBrokerMetadata';
import { type Driven, drive, inputOf, replies, sends } from '../machines/harness';

const BATCH = 16384;

const scenario = (config: Record<string, unknown>, topics = [{ name: 't', partitions: 4 }]) => ({
  version: 1,
  seed: 1,
  topics,
  clients: [{ id: 'p', type: 'producer', config, script: [] }],
});

const CONFIG = { 'enable.idempotence': false, 'linger.ms': 0, 'batch.size': BATCH, 'buffer.memory': 2 * BATCH };

function producer(config: Record<string, unknown> = {}, options: { metadataKnown?: boolean } = {}): Driven {
  const m = drive(producerMachine, inputOf(scenario({ ...CONFIG, ...config }), 'p.producer', options));
  m.send({ type: 'boot' });
  return m;
}

const send = (partition: number, value = 'v', from = 'p.app', topic = 't') => ({
  type: 'send',
  from,
  args: { topic, partition, key: 'k', value, headers: { event_id: `e-${topic}-${partition}-${value.length}` } },
});
const ctx = (m: Driven) => m.context<ProducerContext>();
const facts = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'fact' ? [e.fact as Fact] : []));
const notes = (fx: readonly Effect[]) => facts(fx).flatMap((f) => (f.kind === 'note' ? [f.text] : []));
const produceRequests = (fx: readonly Effect[]) =>
  fx.flatMap((e) =>
    e.type === 'send' && e.rpc === 'Produce' ? [e.payload as { correlationId: number; partitions: { partition: number }[] }] : [],
  );

/** The broker's answer to the batch of `partition` in flight. */
function ack(m: Driven, partition: number, now: number): Effect[] {
  const b = ctx(m).batches.find((x) => x.partition === partition && x.inFlight);
  expect(b).toBeDefined();
  return m.send(
    {
      type: 'ProduceResponse',
      from: 'broker-0',
      envelopeId: 9,
      inReplyTo: 0,
      payload: { correlationId: b?.correlationId, responses: [{ topic: 't', partition, error: 'NONE', baseOffset: 0 }] },
    },
    now,
  );
}

const bufferDeadline = (m: Driven, now: number, from = 'p.app') =>
  m.send({ type: 'maxBlockExpired', key: `maxBlock:buffer:${from}`, data: { call: 'send:buffer', from } }, now);

/** Two batches in flight (partitions 0 and 1): the pool of 2 × batch.size is full. */
function full(config: Record<string, unknown> = {}): Driven {
  const m = producer(config);
  m.send(send(0), 0);
  m.send(send(1), 0);
  expect(ctx(m).batches.filter((b) => b.inFlight)).toHaveLength(2);
  expect(bufferAvailable(ctx(m))).toBe(0);
  return m;
}

describe('buffer.memory (ProducerConfig)', () => {
  it("defaults to Kafka's 33554432 and must be a long ≥ 0", () => {
    expect(resolveProducerConfig({}).config['buffer.memory']).toBe(33554432);
    expect(resolveProducerConfig({ 'buffer.memory': 0 }).errors).toEqual([]);
    expect(resolveProducerConfig({ 'buffer.memory': -1 }).errors.map((e) => e.key)).toEqual(['buffer.memory']);
    expect(resolveProducerConfig({ 'buffer.memory': 1.5 }).errors.map((e) => e.key)).toEqual(['buffer.memory']);
  });
});

describe('the pool: what each batch holds until it completes', () => {
  it('a new batch takes batch.size (a larger record its own size), a record joining an open batch nothing', () => {
    const m = producer({ 'linger.ms': 100, 'buffer.memory': 1_000_000 });
    expect(bufferUsed(ctx(m))).toBe(0);
    m.send(send(0), 0);
    expect(bufferUsed(ctx(m))).toBe(BATCH);
    // the same partition's open batch takes it: no allocation
    m.send(send(0, 'w'), 1);
    expect(bufferUsed(ctx(m))).toBe(BATCH);
    // a record larger than batch.size opens a batch of its own size
    const big = 'x'.repeat(20000);
    m.send(send(1, big), 2);
    // a batch of batch.size or more is ready at once: it is drained, and keeps its memory in flight
    const bigBytes = ctx(m).batches.find((b) => b.partition === 1)?.records[0]?.bytes as number;
    expect(bigBytes).toBeGreaterThan(BATCH);
    expect(bufferUsed(ctx(m))).toBe(BATCH + bigBytes);
    m.send({ type: 'lingerExpired', key: 'linger:t-0', data: {} }, 100);
    expect(ctx(m).batches.filter((b) => b.inFlight)).toHaveLength(2);
    expect(bufferUsed(ctx(m))).toBe(BATCH + bigBytes);
    ack(m, 0, 102);
    expect(bufferUsed(ctx(m))).toBe(bigBytes);
    ack(m, 1, 103);
    expect(bufferUsed(ctx(m))).toBe(0);
  });

  it('a batch that expires in flight (delivery.timeout.ms) gives its memory back', () => {
    const m = producer({ 'buffer.memory': 1_000_000 });
    m.send(send(0), 0);
    const b = ctx(m).batches[0];
    expect(b?.inFlight).toBe(true);
    expect(bufferUsed(ctx(m))).toBe(BATCH);
    const fx = m.send({ type: 'deliveryTimeout', key: `delivery:${b?.id}`, data: { batchId: b?.id } }, 120000);
    expect(facts(fx)).toContainEqual(expect.objectContaining({ kind: 'sendResult', error: 'TimeoutException' }));
    expect(bufferUsed(ctx(m))).toBe(0);
  });
});

describe('send() blocks while the pool has no room (BufferPool.allocate)', () => {
  it('blocks the application in send(), readies every batch, and goes on when an acknowledged batch frees memory', () => {
    const m = producer({ 'linger.ms': 1000 });
    m.send(send(0), 0);
    m.send(send(1), 0);
    // lingering: nothing sent yet, and the pool is full
    expect(ctx(m).batches).toHaveLength(0);
    const fx = m.send(send(2), 5);
    expect(replies(fx)).toEqual([]);
    expect(ctx(m).bufferWaiters).toEqual([expect.objectContaining({ from: 'p.app', size: BATCH, since: 5, maxTimeToBlock: 60000 })]);
    expect(notes(fx)).toEqual([
      'send() to t blocks in BufferPool.allocate: its new batch needs 16384 bytes, and buffer.memory (32768 bytes) has 0 free until a batch completes; it waits at most 60000 ms (what is left of max.block.ms)',
    ]);
    expect(fx).toContainEqual(
      expect.objectContaining({ type: 'timer', key: 'maxBlock:buffer:p.app', name: 'maxBlockExpired', delay: 60000 }),
    );
    // RecordAccumulator.ready: `exhausted` makes the lingering batches ready at once
    expect(sends(fx)).toEqual(['Produce→broker-0']);
    expect(produceRequests(fx)[0]?.partitions.map((p) => p.partition)).toEqual([0, 1]);
    expect(ctx(m).accumulating['t-2']).toBeUndefined();

    const freed = ack(m, 0, 8);
    expect(replies(freed)).toEqual([expect.objectContaining({ call: 'send', ok: true, topic: 't', partition: 2, bufferWaitedMs: 3 })]);
    expect(freed).toContainEqual({ type: 'cancel', key: 'maxBlock:buffer:p.app' });
    expect(ctx(m).bufferWaiters).toEqual([]);
    expect(ctx(m).accumulating['t-2']?.bytes).toBeGreaterThan(0);
    expect(bufferUsed(ctx(m))).toBe(2 * BATCH);
  });

  it('fails with BufferExhaustedException and Kafka’s message after max.block.ms: the future and callback fail, nothing is thrown', () => {
    const m = full({ 'max.block.ms': 1500 });
    m.send(send(2), 10);
    const fx = bufferDeadline(m, 1510);
    expect(replies(fx)).toEqual([
      expect.objectContaining({ call: 'send', ok: true, partition: 2, bufferWaitedMs: 1500, failed: 'BufferExhaustedException' }),
    ]);
    expect(facts(fx)).toContainEqual({
      kind: 'clientError',
      client: 'p',
      error: 'BufferExhaustedException',
      during:
        'send: Failed to allocate 16384 bytes within the configured max blocking time 1500 ms. Total memory: 32768 bytes. Available memory: 0 bytes. Poolable size: 16384 bytes',
      fatal: false,
    });
    expect(facts(fx)).toContainEqual(
      expect.objectContaining({ kind: 'sendResult', partition: 2, offset: null, error: 'BufferExhaustedException' }),
    );
    expect(ctx(m).bufferWaiters).toEqual([]);
    expect(ctx(m).accumulating['t-2']).toBeUndefined();
  });

  it('waits only what waitOnMetadata left of max.block.ms (doSend: remainingWaitMs)', () => {
    const m = drive(
      producerMachine,
      inputOf(
        scenario(CONFIG, [
          { name: 't', partitions: 4 },
          { name: 'u', partitions: 1 },
        ]),
        'p.producer',
        { metadataKnown: false },
      ),
    );
    m.send({ type: 'boot' });
    const answer = (topics: string[], now: number) => {
      const id = ctx(m).metadata.inFlight as number;
      return m.send(
        {
          type: 'MetadataResponse',
          from: 'broker-0',
          envelopeId: 9,
          inReplyTo: 0,
          payload: {
            correlationId: id,
            brokers: ['broker-0'],
            topics: topics.map((name) => ({
              name,
              partitions: [0, 1, 2, 3].slice(0, name === 'u' ? 1 : 4).map(onBrokerZero),
            })),
          },
        },
        now,
      );
    };
    m.send(send(0), 0);
    answer(['t'], 2);
    m.send(send(1), 2);
    expect(bufferAvailable(ctx(m))).toBe(0);
    // the send() to u waits 400 ms on metadata, then for memory: 60000 - 400 ms at most
    m.send(send(0, 'v', 'p.app', 'u'), 100);
    const fx = answer(['u'], 500);
    expect(replies(fx)).toEqual([]);
    expect(ctx(m).bufferWaiters).toEqual([expect.objectContaining({ since: 500, maxTimeToBlock: 59600 })]);
    expect(fx).toContainEqual(expect.objectContaining({ type: 'timer', key: 'maxBlock:buffer:p.app', delay: 59600 }));
    const given = bufferDeadline(m, 60100);
    expect(facts(given)).toContainEqual(
      expect.objectContaining({
        error: 'BufferExhaustedException',
        during: expect.stringContaining('within the configured max blocking time 59600 ms'),
      }),
    );
  });

  it('wakes the waiters oldest first, each once the pool has room for its batch', () => {
    const m = full();
    m.send(send(2, 'v', 'p.app'), 1);
    const second = m.send(send(3, 'v', 'q.app'), 2);
    expect(notes(second)).toEqual([
      'send() to t blocks in BufferPool.allocate behind 1 earlier send() waiting for buffer.memory: its new batch needs 16384 bytes; it waits at most 60000 ms (what is left of max.block.ms)',
    ]);
    expect(ctx(m).bufferWaiters.map((w) => w.from)).toEqual(['p.app', 'q.app']);
    // one batch's memory: the oldest waiter goes on, the other keeps waiting
    const one = ack(m, 0, 5);
    expect(replies(one).map((r) => r.to)).toEqual(['p.app']);
    expect(ctx(m).bufferWaiters.map((w) => w.from)).toEqual(['q.app']);
    const two = ack(m, 1, 6);
    expect(replies(two).map((r) => r.to)).toEqual(['q.app']);
    expect(ctx(m).bufferWaiters).toEqual([]);
  });

  it('a later send() queues behind a waiter even when its own batch would fit (the oldest takes the memory first)', () => {
    // room for three batches: two are taken, the big record's batch needs more than the third
    const m = producer({ 'buffer.memory': 3 * BATCH, 'linger.ms': 1000 });
    m.send(send(0), 0);
    m.send(send(1), 0);
    const big = 'x'.repeat(BATCH + 100);
    m.send(send(2, big, 'p.app'), 1);
    expect(ctx(m).bufferWaiters.map((w) => w.from)).toEqual(['p.app']);
    expect(bufferAvailable(ctx(m))).toBe(BATCH);
    m.send(send(3, 'v', 'q.app'), 2);
    expect(ctx(m).bufferWaiters.map((w) => w.from)).toEqual(['p.app', 'q.app']);
    // one batch more: the big one goes; what is left is too little for the other
    expect(replies(ack(m, 0, 4)).map((r) => r.to)).toEqual(['p.app']);
    expect(ctx(m).bufferWaiters.map((w) => w.from)).toEqual(['q.app']);
    expect(replies(ack(m, 1, 5)).map((r) => r.to)).toEqual(['q.app']);
    expect(ctx(m).bufferWaiters).toEqual([]);
  });
});

describe('the hard limit and the record size check', () => {
  it('a batch.size above buffer.memory: send() throws IllegalArgumentException at once, no callback', () => {
    const m = producer({ 'batch.size': 65536, 'buffer.memory': 32768 });
    const fx = m.send(send(0), 0);
    expect(replies(fx)).toEqual([
      expect.objectContaining({
        call: 'send',
        ok: false,
        error: 'IllegalArgumentException',
        message: 'Attempt to allocate 65536 bytes, but there is a hard limit of 32768 on memory allocations.',
      }),
    ]);
    expect(facts(fx)).toContainEqual(expect.objectContaining({ kind: 'sendResult', offset: null, error: 'IllegalArgumentException' }));
    expect(ctx(m).accumulating).toEqual({});
    expect(ctx(m).bufferWaiters).toEqual([]);
  });

  it('a record larger than buffer.memory fails with RecordTooLargeException (ensureValidRecordSize), before any allocation', () => {
    const m = producer({ 'buffer.memory': 100 });
    const fx = m.send(send(0, 'x'.repeat(200)), 0);
    expect(replies(fx)).toEqual([expect.objectContaining({ call: 'send', ok: true })]);
    expect(facts(fx)).toContainEqual(
      expect.objectContaining({
        kind: 'clientError',
        error: 'RecordTooLargeException',
        during: expect.stringMatching(/bytes > buffer\.memory 100\)$/),
      }),
    );
    expect(facts(fx)).toContainEqual(expect.objectContaining({ kind: 'sendResult', offset: null, error: 'RecordTooLargeException' }));
  });
});

const losses = (trace: ReturnType<typeof runScenario>) =>
  (summarize(trace).verdict.layers.find((f) => f.layer === 'loss') as LossFinding).losses;

describe('in a run: the record refused for buffer.memory is never sent', () => {
  const run = (config: Record<string, unknown>) =>
    runScenario({
      version: 1,
      seed: 1,
      topics: [{ name: 't', partitions: 3 }],
      clients: [
        {
          id: 'p',
          type: 'producer',
          config: { ...CONFIG, ...config },
          script: [0, 1, 2].map((p) => ({ op: 'send', topic: 't', partition: p, key: 'k', value: 'v', headers: { event_id: `e${p}` } })),
        },
      ],
      // the first two batches are answered late: the third send() gives up first
      faults: [{ type: 'delay', rpc: 'Produce', count: 2, delayMs: 1000 }],
    });

  it('BufferExhaustedException: the verdict says never sent, and the narration says why, in English and Korean', () => {
    const trace = run({ 'max.block.ms': 500 });
    expect(losses(trace)).toMatchObject([{ eventId: 'e2', kind: 'never-sent', cause: 'BufferExhaustedException', actor: 'p' }]);
    const blocked = trace.steps.find((s) => (s.facts as Fact[]).some((f) => f.kind === 'note' && f.text.includes('BufferPool.allocate')));
    const failed = trace.steps.find((s) => (s.facts as Fact[]).some((f) => f.kind === 'clientError'));
    expect(blocked).toBeDefined();
    expect(failed?.t).toBe((blocked?.t as number) + 500);
    const en = narrate(trace, failed?.i as number, 'en');
    const ko = narrate(trace, failed?.i as number, 'ko');
    expect(en).toContain('gave up with BufferExhaustedException');
    expect(en).toContain('the record is never sent');
    expect(ko).toContain('BufferExhaustedException으로 포기했습니다');
    expect(narrate(trace, blocked?.i as number, 'ko')).toContain('BufferPool.allocate에서 멈춥니다');
  });

  it('the refusal counts in record-error-total (doSend’s catch: errors.record()), and its sendResult says beforeAppend', () => {
    const trace = run({ 'max.block.ms': 500 });
    const refused = [...trace.steps]
      .flatMap((s) => s.facts as Fact[])
      .filter((f) => f.kind === 'sendResult' && f.error === 'BufferExhaustedException');
    expect(refused).toEqual([expect.objectContaining({ beforeAppend: true })]);
    const view = stateAt(trace, trace.steps.length);
    const metrics = clientMetricsAt(trace, view, 'p')?.metrics ?? [];
    expect(metrics.find((m) => m.name === 'record-error-total')?.value).toBe(1);
  });

  it('the Korean narration of the wait, its end and the refusals keeps only Kafka’s names in Latin script', () => {
    for (const config of [{ 'max.block.ms': 500 }, { 'max.block.ms': 5000 }, { 'batch.size': 65536 }, { 'buffer.memory': 100 }]) {
      const trace = run(config);
      const words = allowList([...scenarioWords(trace.scenario), ...runWords(trace.built), ...stateWords(trace.steps)]);
      const problems = trace.steps.flatMap((_, i) => englishWords(narrate(trace, i, 'ko'), words).map((w) => `${i}: ${w}`));
      expect(problems).toEqual([]);
    }
  });

  it('a send() freed in time: every record once, nothing lost', () => {
    const trace = run({ 'max.block.ms': 5000 });
    expect(losses(trace)).toEqual([]);
  });
});

describe('a producer fenced while send() calls wait for memory', () => {
  it('its failed batches give their memory back: every waiter goes on, in order, and is refused with the fatal error', () => {
    const m = drive(
      producerMachine,
      inputOf(scenario({ ...CONFIG, 'enable.idempotence': true, 'transactional.id': 'tx', 'linger.ms': 1000 }), 'p.producer'),
    );
    m.send({ type: 'boot' });
    m.send({ type: 'initTransactions', from: 'p.app', args: {} }, 0);
    const init = ctx(m).coordinatorRequest;
    m.send(
      {
        type: 'InitProducerIdResponse',
        from: 'txn-coordinator',
        envelopeId: 1,
        inReplyTo: 0,
        payload: { correlationId: init?.correlationId, error: 'NONE', producerId: 7, producerEpoch: 0 },
      },
      1,
    );
    m.send({ type: 'beginTransaction', from: 'p.app', args: {} }, 2);
    m.send(send(0), 2);
    m.send(send(1), 2);
    for (const [from, partition] of [
      ['p.app', 2],
      ['q.app', 3],
      ['r.app', 0],
    ] as const)
      m.send(send(partition, 'vv', from), 3);
    expect(ctx(m).bufferWaiters.map((w) => w.from)).toEqual(['p.app', 'q.app', 'r.app']);
    const inFlight = ctx(m).batches.filter((b) => b.inFlight);
    expect(inFlight).toHaveLength(2);
    const fx = m.send(
      {
        type: 'ProduceResponse',
        from: 'broker-0',
        envelopeId: 9,
        inReplyTo: 0,
        payload: {
          correlationId: inFlight[0]?.correlationId,
          responses: inFlight.map((b) => ({ topic: 't', partition: b.partition, error: 'PRODUCER_FENCED', baseOffset: -1 })),
        },
      },
      5,
    );
    expect(m.state()).toBe('FATAL_ERROR');
    expect(ctx(m).bufferWaiters).toEqual([]);
    expect(replies(fx).map((r) => r.to)).toEqual(['p.app', 'q.app', 'r.app']);
    expect(bufferUsed(ctx(m))).toBe(0);
  });
});
