/**
 * KafkaProducer.close() waits (timeout Long.MAX_VALUE) until the Sender has sent what the
 * accumulator holds and every request in flight is answered; only then does it return. Before, the
 * model's close() forgot its records: a send() followed by a restart without flush() was never sent.
 */
import { describe, expect, it } from 'vitest';
import { keyOf } from '../src/sim/protocol/topicPartition';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';
import { summarize } from '../src/sim/trace/summary';

const facts = (trace: ReturnType<typeof runScenario>) =>
  trace.steps.flatMap((s) => (s.facts as Fact[]).map((f) => ({ t: s.t, i: s.i, f })));

describe('close() with a record not yet sent', () => {
  const trace = runScenario({
    version: 1,
    seed: 14,
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        script: [
          { op: 'send', topic: 'orders', key: 'order-123', value: 'OrderCreated', headers: { event_id: 'evt-1' } },
          { op: 'restart', note: 'close() then a new producer' },
          { op: 'send', topic: 'orders', key: 'order-124', value: 'OrderCreated', headers: { event_id: 'evt-2' } },
          { op: 'flush' },
        ],
      },
    ],
  });

  it('the record is sent and acknowledged by the closing producer, before the new one sends', () => {
    const results = facts(trace).flatMap((x) => (x.f.kind === 'sendResult' ? [{ i: x.i, eventId: x.f.eventId, error: x.f.error }] : []));
    expect(results.map((r) => [r.eventId, r.error])).toEqual([
      ['evt-1', null],
      ['evt-2', null],
    ]);
    const log = summarize(trace).partitions.find((p) => keyOf(p) === 'orders-0');
    expect(log?.records.map((r) => r.headers.event_id)).toEqual(['evt-1', 'evt-2']);
  });

  it('close() returns only after that answer', () => {
    const evt1 = facts(trace).find((x) => x.f.kind === 'sendResult' && x.f.eventId === 'evt-1');
    const close = trace.steps.find((s) => s.actor === 'orders-service.producer' && s.label === 'close');
    const closeReply = trace.steps.find((s) => s.i > (close?.i ?? 0) && s.actor === 'orders-service.app' && s.label === 'reply');
    expect(evt1).toBeDefined();
    // close() follows send(), which returned once the producer's Metadata was answered (2 ms)
    expect(close?.t).toBe(2);
    // the application's next step after close(): its answer, after evt-1's acknowledgement (4 ms)
    expect(closeReply?.i).toBeGreaterThan(evt1?.i as number);
    expect(closeReply?.t).toBe(evt1?.t);
  });
});

describe('close() inside a transaction', () => {
  const trace = runScenario({
    version: 1,
    seed: 3,
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [
      {
        id: 'svc',
        type: 'producer',
        config: { 'transactional.id': 'svc-1' },
        script: [
          { op: 'beginTransaction' },
          { op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
          { op: 'restart' },
          { op: 'beginTransaction' },
          { op: 'send', topic: 'orders', key: 'k', value: 'b', headers: { event_id: 'e2' } },
          { op: 'commitTransaction' },
        ],
      },
    ],
  });

  it("the open transaction's record is written before the producer closes, and the transaction ends aborted", () => {
    const f = facts(trace);
    const e1 = f.find((x) => x.f.kind === 'sendResult' && x.f.eventId === 'e1');
    expect(e1?.f).toMatchObject({ error: null, offset: 0 });
    const states = f.flatMap((x) => (x.f.kind === 'txnState' ? [x.f.to] : []));
    expect(states).toContain('CompleteAbort');
    expect(states[states.length - 1]).toBe('CompleteCommit');
  });
});
