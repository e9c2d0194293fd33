/**
 * A consume-transform-produce application (exactly-once: send, sendOffsetsToTransaction,
 * commitTransaction) idle past transactional.id.expiration.ms: it commits evt-1, the coordinator
 * forgets its transactional.id enricher-0, and evt-2 comes 9 s later. Kafka 4.0 (KAFKA-18019):
 * INVALID_PRODUCER_ID_MAPPING is fatal for the producer. Protocol 2: the group coordinator's
 * verification of the TxnOffsetCommit answers it, TxnOffsetCommitHandler's "Unexpected error" is
 * fatal and fails sendOffsetsToTransaction() itself. Protocol 1: the AddPartitionsToTxn for the
 * output is refused first, and sendOffsetsToTransaction()'s AddOffsetsToTxn stays queued — in
 * FATAL_ERROR the Sender sends nothing and transitionToFatalError fails only the pending transition —
 * so the call waits max.block.ms and throws TimeoutException (the model answered it at once with the
 * fatal error before). Either way the application aborts (the canonical loop's catch of a
 * KafkaException), abortTransaction() throws, the instance closes — not fenced — and evt-2's output
 * is lost: its offset was never committed, so a new instance (a new producer id) would process it.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration/narrate';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { summarize } from '../../src/sim/trace/summary';

const ctp = (transactionVersion: 1 | 2, expirationMs = 5000): Scenario =>
  ({
    version: 1,
    seed: 7,
    cluster: {
      'transaction.version': transactionVersion,
      'transactional.id.expiration.ms': expirationMs,
      'transaction.remove.expired.transaction.cleanup.interval.ms': 1000,
    },
    topics: [
      { name: 'orders', partitions: 1 },
      { name: 'order-results', partitions: 1 },
    ],
    clients: [
      {
        id: 'orders-service',
        type: 'producer',
        script: [
          { op: 'send', topic: 'orders', key: 'order-1', value: 'OrderCreated #1', headers: { event_id: 'evt-1' } },
          { op: 'flush' },
          { op: 'send', topic: 'orders', key: 'order-2', value: 'OrderCreated #2', headers: { event_id: 'evt-2' }, delayMs: 9000 },
          { op: 'flush' },
        ],
      },
      {
        id: 'enricher',
        type: 'consumer',
        config: { 'group.id': 'enricher', 'auto.offset.reset': 'earliest', 'enable.auto.commit': false },
        topics: ['orders'],
        processing: { mode: 'exactly-once', outputTopic: 'order-results', producerConfig: { 'transactional.id': 'enricher-0' } },
      },
    ],
  }) as unknown as Scenario;

type AnyFact = { kind: string } & Record<string, unknown>;
const factsOf = (trace: Trace, kind: string) =>
  trace.steps.flatMap((s) => (s.facts as readonly AnyFact[]).filter((f) => f.kind === kind).map((f) => ({ t: s.t, i: s.i, f })));
const enricherErrors = (trace: Trace) =>
  factsOf(trace, 'clientError')
    .filter(({ f }) => f.client === 'enricher' && !/Metadata|connection/.test(String(f.during)))
    .map(({ t, f }) => `${t} ${f.error} ${String(f.during).split(':')[0]}${f.fatal ? ' fatal' : ''}`);
const appNotes = (trace: Trace) =>
  factsOf(trace, 'note')
    .filter(({ f }) => f.actor === 'enricher.app')
    .map(({ t, f }) => `${t} ${f.text}`);
const outputLayer = (trace: Trace) => summarize(trace).verdict.layers.find((l) => l.layer === 'output');
const dead = (trace: Trace) => factsOf(trace, 'txnState').filter(({ f }) => f.to === 'Dead' && f.transactionalId === 'enricher-0');

describe('consume-transform-produce with an expired transactional.id', () => {
  it('protocol 2: the TxnOffsetCommit is refused INVALID_PRODUCER_ID_MAPPING, fatal; sendOffsetsToTransaction() fails at once; the instance closes unfenced', () => {
    const trace = runScenario(ctp(2));
    expect(dead(trace).map(({ t }) => t)).toEqual([9000]);
    const errors = enricherErrors(trace);
    expect(errors[0]).toBe('9011 INVALID_PRODUCER_ID_MAPPING TxnOffsetCommit fatal');
    expect(errors).toContain('9011 KafkaException abortTransaction');
    const notes = appNotes(trace);
    expect(notes).toContain('9011 sendOffsetsToTransaction failed (INVALID_PRODUCER_ID_MAPPING): aborting');
    expect(notes.at(-1)).toMatch(
      /^9011 abortTransaction failed with .*INVALID_PRODUCER_ID_MAPPING.*: this instance's producer can only be closed, and it closes$/,
    );
    expect(notes.join(' ')).not.toMatch(/fenced/);
    const output = outputLayer(trace);
    expect(output?.status).toBe('lost');
    expect(output?.sentence).toContain('evt-2 sent by enricher, failed with INVALID_PRODUCER_ID_MAPPING');
  });

  it('protocol 1: the AddPartitionsToTxn is refused, fatal; sendOffsetsToTransaction() waits max.block.ms for its queued AddOffsetsToTxn, throws TimeoutException, and the instance closes', () => {
    const trace = runScenario(ctp(1));
    expect(dead(trace).map(({ t }) => t)).toEqual([9000]);
    const errors = enricherErrors(trace);
    expect(errors[0]).toBe('9009 INVALID_PRODUCER_ID_MAPPING AddPartitionsToTxn fatal');
    // max.block.ms (60000) after the call: TransactionalRequestResult.await's TimeoutException
    const timeout = factsOf(trace, 'clientError').find(({ f }) => f.error === 'TimeoutException' && f.client === 'enricher');
    expect(String(timeout?.f.during)).toBe('sendOffsetsToTransaction: Timeout expired after 60000ms while awaiting AddOffsetsToTxn');
    expect(timeout?.t).toBeGreaterThanOrEqual(9009 + 60000 - 10);
    expect(narrate(trace, timeout?.i ?? -1, 'en')).toContain('the producer is in FATAL_ERROR, so the request it waited for is never sent');
    expect(narrate(trace, timeout?.i ?? -1, 'ko')).toContain('프로듀서가 FATAL_ERROR 상태라서 기다리던 요청은 끝내 보내지지 않습니다');
    // nothing queued went out in FATAL_ERROR (before it, the first transaction's requests did)
    expect(trace.envelopes.some((e) => e.from === 'enricher.producer' && e.rpc === 'EndTxn' && e.sentAt < 9000)).toBe(true);
    const sentAfter = trace.envelopes
      .filter((e) => e.from === 'enricher.producer' && e.sentAt > 9009 && e.rpc !== 'Metadata')
      .map((e) => e.rpc);
    expect(sentAfter).toEqual([]);
    const notes = appNotes(trace);
    expect(notes.some((n) => /sendOffsetsToTransaction failed \(TimeoutException\): aborting$/.test(n))).toBe(true);
    expect(notes.at(-1)).toMatch(/: this instance's producer can only be closed, and it closes$/);
    expect(outputLayer(trace)?.status).toBe('lost');
  });

  it('with an expiration longer than the idle time both outputs commit under the same producer id', () => {
    const trace = runScenario(ctp(2, 20000));
    expect(dead(trace)).toEqual([]);
    expect(enricherErrors(trace).filter((e) => e.endsWith('fatal'))).toEqual([]);
    expect(outputLayer(trace)?.status).toBe('once');
  });
});
