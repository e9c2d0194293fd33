/**
 * The consumer sends one Fetch per broker, naming every fetchable partition that broker leads, and
 * none to a broker whose Fetch is still in flight (AbstractFetch.prepareFetchRequests:
 * `fetchable.computeIfAbsent(node, …)`, and "Skipping fetch for partition … because previous request
 * to … has not been processed" — `nodesWithPendingFetchRequests`, cleared by handleFetchSuccess /
 * handleFetchFailure). The broker answers such a fetch whole: at once when any partition has data
 * (fetch.min.bytes), an error or is above its read bound (DelayedFetch case F), else held until one
 * of its partitions completes it or fetch.max.wait.ms passes (ReplicaManager.fetchMessages,
 * DelayedFetch.tryComplete / onComplete). On the old code every partition had a Fetch of its own.
 */
import { describe, expect, it } from 'vitest';
import { brokerMachine } from '../../src/sim/broker/broker.machine';
import { fetchWhilePolling, onFetchResponse } from '../../src/sim/consumer/fetcher';
import { onRequestLost } from '../../src/sim/consumer/requestLost';
import type { Effect } from '../../src/sim/kernel/effects';
import type { EnvelopeRecord } from '../../src/sim/kernel/envelope';
import { narrate } from '../../src/sim/narration/narrate';
import { runScenario } from '../../src/sim/run';
import { drive, inputOf } from '../machines/harness';
import { context, response, run, sent, tp0, tp1 } from './fixture';

/** A consumer of t-0 and t-1 (both led by broker-0), positions known, a poll() waiting. */
const polling = (overrides: Record<string, unknown> = {}) =>
  context({}, 2, { positions: { 't-0': 4, 't-1': 7 }, assignment: [tp0, tp1], pollWaiting: 'c.app', ...overrides });

const partitionsOf = (f: Record<string, unknown>) => (f.partitions as { topic: string; partition: number; fetchOffset: number }[]) ?? [];

describe('the consumer: one Fetch per broker', () => {
  it('sends one Fetch naming both partitions its broker leads, with their offsets and the request-level settings', () => {
    const { effects } = run(polling(), (d, out) => fetchWhilePolling(d, out));
    const fetches = sent(effects).filter((e) => e.rpc === 'Fetch');
    expect(fetches).toHaveLength(1);
    const f = fetches[0] as Record<string, unknown>;
    expect(f.to).toBe('broker-0');
    expect(partitionsOf(f).map((p) => [p.topic, p.partition, p.fetchOffset])).toEqual([
      ['t', 0, 4],
      ['t', 1, 7],
    ]);
    expect(f).toMatchObject({ isolationLevel: 'read_uncommitted', maxWaitMs: 500, minBytes: 1 });
  });

  it('a partition that becomes fetchable while its broker has a Fetch in flight waits for that answer', () => {
    // t-0's Fetch (correlation id 9) is out to broker-0; t-1 has just got its position
    const inFlight = polling({ fetching: { 't-0': 9 }, fetchingFrom: { 'broker-0': 9 }, nextCorrelationId: 10 });
    const before = run(inFlight, (d, out) => fetchWhilePolling(d, out));
    expect(sent(before.effects).filter((e) => e.rpc === 'Fetch')).toEqual([]);
    // the answer for t-0 (nothing new) frees broker-0: one Fetch names both partitions again
    const answer = response(
      'FetchResponse',
      {
        correlationId: 9,
        partitions: [
          { ...tp0, error: 'NONE', highWatermark: 4, lastStableOffset: 4, logStartOffset: 0, batches: [], abortedTransactions: [] },
        ],
      },
      500,
    );
    const after = run(before.d, (d, out) => onFetchResponse(d, answer as never, out));
    const fetches = sent(after.effects).filter((e) => e.rpc === 'Fetch');
    expect(fetches).toHaveLength(1);
    expect(partitionsOf(fetches[0] as Record<string, unknown>).map((p) => p.partition)).toEqual([0, 1]);
    expect(after.d.fetchingFrom).toEqual({ 'broker-0': 10 });
  });

  it('a Fetch lost (a disconnect) frees its broker, and both its partitions are fetched again', () => {
    const inFlight = polling({ fetching: { 't-0': 9, 't-1': 9 }, fetchingFrom: { 'broker-0': 9 }, nextCorrelationId: 10 });
    const lost = {
      type: 'disconnected',
      now: 30000,
      envelopeId: 1,
      rpc: 'Fetch',
      to: 'broker-0',
      timedOut: true,
      reason: 'timeout',
      payload: { correlationId: 9 },
    } as const;
    const after = run(inFlight, (d, out) => onRequestLost(d, lost as never, out));
    const fetches = sent(after.effects).filter((e) => e.rpc === 'Fetch');
    expect(fetches).toHaveLength(1);
    expect(partitionsOf(fetches[0] as Record<string, unknown>).map((p) => p.partition)).toEqual([0, 1]);
    expect(after.d.fetchingFrom).toEqual({ 'broker-0': 10 });
  });
});

/** A consumer of a two-partition topic whose partitions two brokers lead; the producer writes to events-1 at 1 s. */
const twoBrokers = {
  version: 1,
  seed: 3,
  run: { maxTimeMs: 3000 },
  cluster: { brokers: 2, 'group.initial.rebalance.delay.ms': 0 },
  topics: [{ name: 'events', partitions: 4, leaders: [0, 1, 0, 1] }],
  clients: [
    {
      id: 'writer',
      type: 'producer',
      script: [
        { op: 'send', topic: 'events', partition: 1, key: 'k', value: 'v', headers: { event_id: 'evt-1' }, at: 1000 },
        { op: 'flush' },
      ],
    },
    {
      id: 'reader',
      type: 'consumer',
      config: { 'group.id': 'reader', 'auto.offset.reset': 'earliest' },
      topics: ['events'],
      processing: { mode: 'at-least-once' },
    },
  ],
};

describe('a run: one Fetch per broker, answered whole', () => {
  const trace = runScenario(twoBrokers);
  const envelopes: EnvelopeRecord[] = [];
  for (let i = 0; i < trace.envelopes.length; i++) envelopes.push(trace.envelopes.at(i) as EnvelopeRecord);
  const fetches = envelopes.filter((e) => e.rpc === 'Fetch' && e.from === 'reader.consumer');
  const named = (e: EnvelopeRecord) => partitionsOf(e.payload).map((p) => p.partition);

  it('sends two requests at a time, one to each broker, each naming the partitions that broker leads', () => {
    expect(fetches.length).toBeGreaterThan(2);
    // the partitions a broker leads, as their positions become known (the first Fetch may name one)
    for (const f of fetches) expect([[0, 2], [0], [2], [1, 3], [1], [3]]).toContainEqual(named(f));
    for (const f of fetches) expect(named(f).every((p) => p % 2 === (f.to === 'broker-0' ? 0 : 1))).toBe(true);
    expect(fetches.filter((f) => f.to === 'broker-0' && named(f).length === 2).length).toBeGreaterThan(0);
    expect(fetches.filter((f) => f.to === 'broker-1' && named(f).length === 2).length).toBeGreaterThan(0);
    // never two Fetches in flight to one broker
    for (const f of fetches) {
      const answer = envelopes.find((e) => e.inReplyTo === f.id);
      const next = fetches.find((g) => g.to === f.to && g.id > f.id);
      if (answer && next) expect(next.sentAt).toBeGreaterThanOrEqual(answer.sentAt);
    }
  });

  it('the broker holds the fetch until one partition gets data, then answers every partition of it', () => {
    const answer = envelopes.find(
      (e) =>
        e.rpc === 'FetchResponse' &&
        e.to === 'reader.consumer' &&
        partitionsOf(e.payload).length > 0 &&
        (e.payload.partitions as { batches: unknown[] }[]).some((p) => p.batches.length > 0),
    ) as EnvelopeRecord;
    expect(answer).toBeDefined();
    const request = envelopes[answer.inReplyTo as number] as EnvelopeRecord;
    expect(named(request)).toEqual([1, 3]);
    const parts = answer.payload.partitions as { partition: number; batches: unknown[] }[];
    expect(parts.map((p) => [p.partition, p.batches.length])).toEqual([
      [1, 1],
      [3, 0],
    ]);
    // held from before the write (not answered at fetch.max.wait.ms: answered as the record landed)
    expect(request.sentAt).toBeLessThan(1000);
    expect(answer.sentAt).toBeGreaterThanOrEqual(1000);
    expect(answer.sentAt - request.sentAt).toBeLessThan(500);
  });

  it('is narrated partition by partition, in English and Korean', () => {
    const stepOf = (e: EnvelopeRecord | undefined) => (e?.deliveredStep ?? -1) as number;
    const held = fetches.find(
      (f) => named(f).length === 2 && f.to === 'broker-1' && !envelopes.some((e) => e.inReplyTo === f.id && e.sentStep === f.deliveredStep),
    );
    expect(narrate(trace, stepOf(held), 'en')).toContain('has nothing at or past offset 0 of events-1 and offset 0 of events-3 for');
    expect(narrate(trace, stepOf(held), 'ko')).toContain('events-1의 offset 0, events-3의 offset 0 이후 데이터가 없어');
    const emptyAnswer = envelopes.find(
      (e) =>
        e.rpc === 'FetchResponse' &&
        e.to === 'reader.consumer' &&
        partitionsOf(e.payload).length === 2 &&
        (e.payload.partitions as { batches: unknown[] }[]).every((p) => p.batches.length === 0),
    );
    expect(narrate(trace, stepOf(emptyAnswer), 'en')).toMatch(
      /got the answer to its Fetch of events-[01] and events-[23]: nothing new of events-/,
    );
    expect(narrate(trace, stepOf(emptyAnswer), 'ko')).toMatch(/events-[01], events-[23] Fetch의 응답을 받았습니다/);
  });
});

/** broker-0 leading t-0 and t-1 (t-0 holds one record at offset 0). */
const brokerScenario = { version: 1, seed: 1, topics: [{ name: 't', partitions: 2 }], clients: [] };
let envelope = 100;
const fetchRpc = (partitions: { partition: number; fetchOffset: number }[], isolationLevel = 'read_uncommitted') => ({
  type: 'Fetch',
  from: 'c.consumer',
  envelopeId: envelope++,
  inReplyTo: null,
  payload: {
    correlationId: envelope,
    isolationLevel,
    maxWaitMs: 500,
    minBytes: 1,
    partitions: partitions.map((p) => ({ topic: 't', ...p, maxRecords: 500 })),
  },
});
const produce = (partition: number, transactionalId: string | null = null) => ({
  type: 'Produce',
  from: 'p.producer',
  envelopeId: envelope++,
  inReplyTo: null,
  payload: {
    correlationId: envelope,
    acks: -1,
    transactionalId,
    partitions: [
      {
        topic: 't',
        partition,
        batch: {
          producerId: 7,
          producerEpoch: 0,
          baseSequence: 0,
          isTransactional: transactionalId !== null,
          records: [{ key: 'k', value: 'v', headers: {}, timestamp: 0 }],
        },
      },
    ],
  },
});
const fetchAnswers = (fx: readonly Effect[]) =>
  fx.flatMap((e) =>
    e.type === 'send' && e.rpc === 'FetchResponse'
      ? [e.payload.partitions as { partition: number; error: string; batches: unknown[] }[]]
      : [],
  );

describe('the broker: a multi-partition fetch completes as a whole', () => {
  const start = () => drive(brokerMachine, inputOf(brokerScenario, 'broker-0'));

  it('holds a fetch with nothing to return, and answers every partition when one of them gets data', () => {
    const m = start();
    expect(
      fetchAnswers(
        m.send(
          fetchRpc([
            { partition: 0, fetchOffset: 0 },
            { partition: 1, fetchOffset: 0 },
          ]),
          1,
        ),
      ),
    ).toEqual([]);
    const fx = m.send(produce(1), 50);
    const answers = fetchAnswers(fx);
    expect(answers).toHaveLength(1);
    expect((answers[0] ?? []).map((p) => [p.partition, p.error, p.batches.length])).toEqual([
      [0, 'NONE', 0],
      [1, 'NONE', 1],
    ]);
  });

  it('answers at once when one partition has data, the other partitions with it', () => {
    const m = start();
    m.send(produce(0), 1);
    const answers = fetchAnswers(
      m.send(
        fetchRpc([
          { partition: 0, fetchOffset: 0 },
          { partition: 1, fetchOffset: 0 },
        ]),
        2,
      ),
    );
    expect((answers[0] ?? []).map((p) => [p.partition, p.batches.length])).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('an error on one partition (OFFSET_OUT_OF_RANGE) completes the whole fetch at once', () => {
    const m = start();
    const answers = fetchAnswers(
      m.send(
        fetchRpc([
          { partition: 0, fetchOffset: 0 },
          { partition: 1, fetchOffset: 5 },
        ]),
        1,
      ),
    );
    expect((answers[0] ?? []).map((p) => [p.partition, p.error])).toEqual([
      [0, 'NONE'],
      [1, 'OFFSET_OUT_OF_RANGE'],
    ]);
  });

  it('a partition above its read bound (case F) completes the whole fetch in an instant, not at fetch.max.wait.ms', () => {
    // an open transaction on t-1 (protocol v1, verification off: appended at once) pins its LSO at 0 below its HW 1
    const m = drive(brokerMachine, { ...(inputOf(brokerScenario, 'broker-0') as object), verification: false, transactionVersion: 1 });
    m.send(produce(1, 'tx'), 1);
    // read_committed: t-0 at its bound (0) would wait; t-1 at 1 is above its LSO 0
    const fx = m.send(
      fetchRpc(
        [
          { partition: 0, fetchOffset: 0 },
          { partition: 1, fetchOffset: 1 },
        ],
        'read_committed',
      ),
      2,
    );
    expect(fetchAnswers(fx)).toEqual([]);
    const timer = fx.find((e) => e.type === 'timer' && e.name === 'fetchWaitExpired');
    expect(timer?.type === 'timer' ? timer.delay : null).toBe(1);
    // the same fetch with t-0 alone is held for fetch.max.wait.ms
    const alone = m.send(fetchRpc([{ partition: 0, fetchOffset: 0 }], 'read_committed'), 3);
    const held = alone.find((e) => e.type === 'timer' && e.name === 'fetchWaitExpired');
    expect(held?.type === 'timer' ? held.delay : null).toBe(500);
  });
});
