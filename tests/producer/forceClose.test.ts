/**
 * KafkaProducer.close(Duration timeout) with a finite timeout (the script's `restart` with
 * `closeTimeoutMs`): `initiateClose()`, `ioThread.join(timeoutMs)`, and a Sender still running after
 * it — or a timeout of 0, which does not wait — is closed forcefully (`Sender.forceClose`). Sender.run
 * then skips its loops (nothing more sent, no answer waited for, no transaction aborted),
 * `TransactionManager.close()` fails the queued transactional requests ("The producer closed
 * forcefully") and `RecordAccumulator.abortIncompleteBatches()` fails every incomplete batch, in
 * flight or not ("Producer is closed forcefully."): a record the leader appended is reported failed.
 * The old code had no close timeout (its schema refused `closeTimeoutMs`; its close() always waited).
 */
import { describe, expect, it } from 'vitest';
import type { TopicFinding } from '../../src/sim/checks/verdict';
import { findingText } from '../../src/sim/checks/verdictText';
import { narrate } from '../../src/sim/narration/narrate';
import { runScenario } from '../../src/sim/run';
import { validateScenario } from '../../src/sim/scenario/validate';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';

type Trace = ReturnType<typeof runScenario>;

const FORCED = 'Producer is closed forcefully.';

const run = (script: unknown[], opts: { config?: Record<string, unknown>; cluster?: Record<string, unknown>; faults?: unknown[] } = {}) =>
  runScenario({
    version: 1,
    seed: 3,
    cluster: opts.cluster ?? {},
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [{ id: 'svc', type: 'producer', config: { 'linger.ms': 0, ...opts.config }, script }],
    faults: opts.faults ?? [],
  } as Parameters<typeof runScenario>[0]);

const send = (e: string) => ({ op: 'send', topic: 'orders', key: 'k', value: 'v', headers: { event_id: e } });

const facts = (trace: Trace) => trace.steps.flatMap((s) => (s.facts as Fact[]).map((fact) => ({ step: s, fact })));

const resultsOf = (trace: Trace, eventId: string) =>
  facts(trace).flatMap(({ step, fact }) => (fact.kind === 'sendResult' && fact.eventId === eventId ? [{ step, fact }] : []));

/** The verdict's finding for the topic orders, at the end of the run. */
const ordersFinding = (trace: Trace) =>
  summarize(trace).verdict.layers.find((l) => l.layer === 'log' && l.subject === 'orders') as TopicFinding;

const appendedIn = (trace: Trace, eventId: string) =>
  facts(trace).some(({ fact }) => fact.kind === 'append' && fact.control === null && fact.eventIds.includes(eventId));

/** A batch in flight when close() is called: e0 first (the producer id and metadata), then e1 drained at its send(). */
const inFlightThenClose = (close: Record<string, unknown>, faults: unknown[] = []) =>
  run([send('e0'), { op: 'flush' }, send('e1'), { op: 'restart', ...close }, send('e2'), { op: 'flush' }], { faults });

describe('close(Duration.ZERO) with a batch in flight (Sender.forceClose at once)', () => {
  const trace = inFlightThenClose({ closeTimeoutMs: 0 });
  const close = trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'close');

  it("fails the in-flight batch with Kafka's KafkaException in the close() step, while the leader appends it", () => {
    const e1 = resultsOf(trace, 'e1');
    expect(e1).toHaveLength(1);
    expect(e1[0]?.fact).toMatchObject({ error: 'KafkaException', message: FORCED, offset: null });
    expect(e1[0]?.step.i).toBe(close?.i);
    // the Produce had left: the leader appends e1 after the producer gave up on it
    expect(appendedIn(trace, 'e1')).toBe(true);
    const append = facts(trace).find(({ fact }) => fact.kind === 'append' && fact.eventIds.includes('e1'));
    expect(append?.step.i).toBeGreaterThan(close?.i as number);
    // close() returned at once, in the same step; no timer was armed
    const reply = trace.steps.find((s) => s.i > (close?.i ?? 0) && s.actor === 'svc.app' && s.label === 'reply');
    expect(reply?.t).toBe(close?.t);
    expect(trace.steps.some((s) => s.label === 'closeTimeout')).toBe(false);
  });

  it('the verdict reads e1 as in the log once, not lost, though its send() was told it failed', () => {
    expect(resultsOf(trace, 'e1').map((r) => r.fact.error)).toEqual(['KafkaException']);
    const topic = ordersFinding(trace);
    expect(topic.status).toBe('once');
    expect(topic.losses).toEqual([]);
  });

  it('the narration tells the forced close and the failed record, in English and Korean', () => {
    const i = close?.i as number;
    const en = narrate(trace, i, 'en');
    expect(en).toContain('Proceeding to force close the producer since pending requests could not be completed within timeout 0 ms');
    expect(en).toContain('1 record still owed a result, sent or not, fails with KafkaException');
    expect(en).toContain(`svc's send() of e1 failed with KafkaException ("${FORCED}")`);
    expect(en).not.toContain('the client refused the call');
    const ko = narrate(trace, i, 'ko');
    expect(ko).toContain('결과를 아직 받지 못한 레코드 1개는 보냈든 안 보냈든');
    expect(ko).toContain('리더가 Produce를 이미 덧붙였다면 레코드는 그래도 로그에 있습니다');
    expect(ko).not.toContain('still owed');
    // Korean quotes no English prose: Kafka's log line and message stay in the English text
    expect(ko).not.toContain('forcefully');
    expect(ko).toContain('제한 시간 0 ms 안에 대기 중인 요청을 끝내지 못해 프로듀서를 강제로 닫습니다(Sender.forceClose)');
  });
});

describe('close(Duration.ZERO) with a record not yet sent: lost, and the verdict says why', () => {
  // e1 waits out linger.ms in the accumulator when the producer is closed
  const trace = run([send('e1'), { op: 'restart', closeTimeoutMs: 0 }, send('e2'), { op: 'flush' }], { config: { 'linger.ms': 5 } });

  it('the record is never written, and the loss names the forced close (en, ko)', () => {
    expect(appendedIn(trace, 'e1')).toBe(false);
    const topic = ordersFinding(trace);
    expect(topic.losses).toEqual([expect.objectContaining({ eventId: 'e1', kind: 'not-acked', cause: 'closed-forcefully' })]);
    expect(findingText(topic, 'en')).toContain(
      `e1 sent by svc, failed with KafkaException ("${FORCED}"): close(Duration)'s timeout ran out before an answer came`,
    );
    expect(findingText(topic, 'ko')).toContain('close(Duration)의 제한 시간이 다 되어 svc의 프로듀서가 강제로 닫혔습니다');
  });
});

describe('close(Duration) answered within its timeout: no forced close', () => {
  const timed = inFlightThenClose({ closeTimeoutMs: 1000 });
  const plain = inFlightThenClose({});

  it('waits for the answer as close() does, and cancels its timer', () => {
    const e1 = resultsOf(timed, 'e1');
    expect(e1.map((r) => r.fact)).toEqual(resultsOf(plain, 'e1').map((r) => r.fact));
    expect(e1[0]?.fact).toMatchObject({ error: null, offset: 1 });
    // the timer armed at close() is cancelled by the close that finished (closeNow): it never fires
    expect(timed.steps.some((s) => s.actor === 'svc.producer' && s.label === 'closeNow')).toBe(true);
    expect(timed.steps.some((s) => s.label === 'closeTimeout')).toBe(false);
    expect(facts(timed).some(({ fact }) => fact.kind === 'note' && fact.text.includes('force close'))).toBe(false);
    // the same records, at the same offsets, as with close()
    const appends = (t: Trace) => facts(t).flatMap(({ fact }) => (fact.kind === 'append' ? [[fact.baseOffset, fact.eventIds]] : []));
    expect(appends(timed)).toEqual(appends(plain));
  });
});

describe('a late ProduceResponse after a forced close changes nothing', () => {
  // e1's answer is held 200 ms; close(Duration.ofMillis(50)) gives up first
  const trace = inFlightThenClose({ closeTimeoutMs: 50 }, [{ type: 'delay', rpc: 'ProduceResponse', nth: 2, delayMs: 200 }]);
  const forced = trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'closeTimeout');
  const close = trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'close');

  it('the timeout fires 50 ms after close() and fails e1', () => {
    expect(forced?.t).toBe((close?.t as number) + 50);
    expect(forced?.before).toBe('live.READY');
    const e1 = resultsOf(trace, 'e1');
    expect(e1.map((r) => [r.step.i, r.fact.error, r.fact.message])).toEqual([[forced?.i, 'KafkaException', FORCED]]);
    expect(narrate(trace, forced?.i as number, 'en')).toContain('within timeout 50 ms');
  });

  it('the answer that comes later finds the connection closed: no second result, the new producer unaffected', () => {
    const late = trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'ProduceResponse' && s.t > (forced?.t as number) + 100);
    expect(late?.kind).toBe('lost');
    expect(late?.facts).toEqual([]);
    expect(appendedIn(trace, 'e1')).toBe(true);
    expect(resultsOf(trace, 'e2').map((r) => r.fact.error)).toEqual([null]);
  });
});

describe('a transactional producer closed with close(Duration.ZERO) in IN_TRANSACTION', () => {
  const tv1 = { 'transaction.version': 1 };

  it('sends no EndTxn(ABORT): the transaction stays Ongoing until the next InitProducerId aborts it', () => {
    const trace = run(
      [
        { op: 'beginTransaction' },
        send('e1'),
        { op: 'restart', closeTimeoutMs: 0 },
        { op: 'beginTransaction' },
        send('e2'),
        { op: 'commitTransaction' },
      ],
      { config: { 'transactional.id': 'svc-1' }, cluster: tv1 },
    );
    const close = trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'close');
    expect(close?.before).toBe('live.IN_TRANSACTION');
    const endTxns = trace.envelopes.filter((e) => e?.rpc === 'EndTxn');
    // one EndTxn only: the next instance's commit
    expect(endTxns.map((e) => e?.sentAt)).toHaveLength(1);
    expect(endTxns[0]?.sentAt).toBeGreaterThan(close?.t as number);
    const states = facts(trace).flatMap(({ step, fact }) =>
      fact.kind === 'txnState' ? [{ label: step.label, from: fact.from, to: fact.to }] : [],
    );
    // the AddPartitionsToTxn sent before the close opened the transaction; the next InitProducerId ends it
    expect(states.find((s) => s.to === 'Ongoing')?.label).toBe('AddPartitionsToTxn');
    const init = states.filter((s) => s.label === 'InitProducerId');
    expect(init[1]?.from).toBe('Ongoing');
    expect(resultsOf(trace, 'e1').map((r) => [r.fact.error, r.fact.message])).toEqual([['KafkaException', FORCED]]);
    expect(narrate(trace, close?.i as number, 'en')).toContain('the open transaction is not aborted (no EndTxn)');
    expect(narrate(trace, close?.i as number, 'ko')).toContain('열린 트랜잭션은 중단하지 않습니다(EndTxn 없음)');
  });

  it('fails the queued transactional request with "The producer closed forcefully"', () => {
    // the AddPartitionsToTxn's connection breaks: it waits out retry.backoff.ms, queued again, when the close comes
    const trace = run([{ op: 'beginTransaction' }, send('e1'), { op: 'restart', closeTimeoutMs: 0, at: 50 }], {
      config: { 'transactional.id': 'svc-1' },
      cluster: tv1,
      faults: [{ type: 'reset', rpc: 'AddPartitionsToTxn', nth: 1 }],
    });
    const close = trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'close');
    expect(close?.before).toBe('live.IN_TRANSACTION');
    const errors = (close?.facts as Fact[]).filter((f) => f.kind === 'clientError');
    expect(errors).toEqual([
      {
        kind: 'clientError',
        client: 'svc',
        error: 'KafkaException',
        during: 'close: The producer closed forcefully (AddPartitionsToTxn never sent)',
        fatal: false,
      },
    ]);
    // nothing more is sent by the closed producer: no retried AddPartitionsToTxn, no EndTxn
    expect(trace.envelopes.filter((e) => e?.rpc === 'AddPartitionsToTxn' && e.from === 'svc.producer')).toHaveLength(1);
    expect(trace.envelopes.some((e) => e?.rpc === 'EndTxn')).toBe(false);
    expect(resultsOf(trace, 'e1').map((r) => r.fact.error)).toEqual(['KafkaException']);
    expect(narrate(trace, close?.i as number, 'en')).toContain(
      'TransactionManager.close() fails the transactional requests still queued (AddPartitionsToTxn) with KafkaException',
    );
    expect(narrate(trace, close?.i as number, 'ko')).toContain('아직 대기 중인 트랜잭션 요청(AddPartitionsToTxn)');
  });
});

describe("the restart op's closeTimeoutMs is checked", () => {
  const scenario = (closeTimeoutMs: unknown) => ({
    version: 1,
    seed: 1,
    topics: [{ name: 'orders' }],
    clients: [{ id: 'svc', type: 'producer', script: [{ op: 'restart', closeTimeoutMs }] }],
  });

  it('accepts a whole number of milliseconds from 0, and refuses anything else with a clear message', () => {
    expect(validateScenario(scenario(0)).ok).toBe(true);
    expect(validateScenario(scenario(30000)).ok).toBe(true);
    for (const [bad, message] of [
      [-1, '-1 is too small; the smallest allowed value is 0'],
      [1.5, '1.5 is not a whole number'],
      ['5', 'expected a number'],
    ] as const) {
      const r = validateScenario(scenario(bad));
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.errors[0]?.path).toBe('clients[0].script[0].closeTimeoutMs');
        expect(r.errors[0]?.message).toContain(message);
      }
    }
  });
});
