/**
 * close(Duration) with a timeout above 0 that passes while the graceful close is still under way
 * (Kafka 4.x KafkaProducer.close(Duration, boolean): `sender.initiateClose()`, `ioThread.join(remaining)`,
 * then `sender.forceClose()` if the Sender thread is still alive; Sender.run: the loops that send the
 * remaining records and abort an open transaction run only `while (!forceClose && …)`, then
 * `transactionManager.close()` and `accumulator.abortIncompleteBatches()`):
 * - passing while the shutdown abort's EndTxn(ABORT) is in flight: close() returns at the timeout
 *   without its answer (here the next instance's InitProducerId overtakes the slow EndTxn and fences
 *   the transaction; the EndTxn that arrives later changes nothing);
 * - passing while a transaction's record is in flight: the third loop (beginAbort) never runs, so no
 *   EndTxn is sent and the record fails with "Producer is closed forcefully.".
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';

type Trace = ReturnType<typeof runScenario>;

const run = (script: unknown[], faults: unknown[]) =>
  runScenario({
    version: 1,
    seed: 3,
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [{ id: 'svc', type: 'producer', config: { 'linger.ms': 0, 'transactional.id': 'svc-1' }, script }],
    faults,
  } as Parameters<typeof runScenario>[0]);

const send = (e: string) => ({ op: 'send', topic: 'orders', key: 'k', value: 'v', headers: { event_id: e } });

const facts = (trace: Trace) => trace.steps.flatMap((s) => (s.facts as Fact[]).map((fact) => ({ step: s, fact })));

const txnStates = (trace: Trace) =>
  facts(trace).flatMap(({ step, fact }) =>
    fact.kind === 'txnState' ? [{ label: step.label, t: step.t, from: fact.from, to: fact.to }] : [],
  );

const closeStep = (trace: Trace) => trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'close');

/** The application's close() answered: the first reply to svc.app after the close. */
const closeReply = (trace: Trace) => {
  const close = closeStep(trace);
  return trace.steps.find((s) => s.i > (close?.i ?? 0) && s.actor === 'svc.app' && s.label === 'reply');
};

describe('close(Duration.ofMillis(100)) whose timeout passes while the shutdown abort is in flight', () => {
  // e1 is acknowledged before the close; the EndTxn(ABORT) the closing Sender sends takes 500 ms more
  const trace = run(
    [{ op: 'beginTransaction' }, send('e1'), { op: 'flush' }, { op: 'restart', closeTimeoutMs: 100 }],
    [{ type: 'delay', rpc: 'EndTxn', nth: 1, delayMs: 500 }],
  );
  const close = closeStep(trace);

  it('the Sender begins the abort (EndTxn(ABORT) sent), and close() returns at the timeout without its answer', () => {
    const abort = trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'closeNow' && s.after === 'live.ABORTING_TRANSACTION');
    expect(abort).toBeDefined();
    const endTxn = trace.envelopes.find((e) => e?.rpc === 'EndTxn');
    expect(endTxn?.from).toBe('svc.producer');
    const forced = trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'closeTimeout');
    expect(forced?.t).toBe((close?.t as number) + 100);
    expect(closeReply(trace)?.t).toBe(forced?.t);
    const note = (forced?.facts as Fact[]).find((f) => f.kind === 'note') as { text: string } | undefined;
    expect(note?.text).toContain('the EndTxn(ABORT) begun is not waited for');
    // e1 had its answer before: nothing failed
    expect(facts(trace).some(({ fact }) => fact.kind === 'sendResult' && fact.error !== null)).toBe(false);
  });

  it('the next instance fences the transaction the abort left Ongoing; the EndTxn that comes later changes nothing', () => {
    const states = txnStates(trace);
    // the EndTxn is still on the wire when the next instance's InitProducerId ends the transaction
    expect(states.find((s) => s.from === 'Ongoing')).toMatchObject({ label: 'InitProducerId', to: 'PrepareEpochFence' });
    expect(states.some((s) => s.label === 'EndTxn')).toBe(false);
    const lateEndTxn = trace.steps.find((s) => s.actor === 'txn-coordinator' && s.label === 'EndTxn');
    expect(lateEndTxn?.t).toBeGreaterThan(closeReply(trace)?.t as number);
    expect(states.at(-1)?.to).toBe('Empty');
  });
});

describe('close(Duration.ofMillis(50)) whose timeout passes while a record of the open transaction is in flight', () => {
  const trace = run(
    [{ op: 'beginTransaction' }, send('e1'), { op: 'restart', closeTimeoutMs: 50 }],
    [{ type: 'delay', rpc: 'ProduceResponse', nth: 1, delayMs: 200 }],
  );
  const close = closeStep(trace);

  it('no EndTxn is ever sent (the loop that aborts runs only while !forceClose), and the record fails forcefully', () => {
    expect(close?.before).toBe('live.IN_TRANSACTION');
    expect(trace.envelopes.some((e) => e?.rpc === 'EndTxn')).toBe(false);
    const forced = trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'closeTimeout');
    expect(forced?.t).toBe((close?.t as number) + 50);
    const e1 = facts(trace).flatMap(({ step, fact }) => (fact.kind === 'sendResult' && fact.eventId === 'e1' ? [{ step, fact }] : []));
    expect(e1.map((r) => [r.fact.error, r.fact.message, r.step.i])).toEqual([
      ['KafkaException', 'Producer is closed forcefully.', forced?.i],
    ]);
    // the transaction stays Ongoing at the coordinator until the next instance's InitProducerId fences it
    expect(txnStates(trace).find((s) => s.from === 'Ongoing')).toMatchObject({ label: 'InitProducerId', to: 'PrepareEpochFence' });
    expect((txnStates(trace).find((s) => s.from === 'Ongoing')?.t as number) > (forced?.t as number)).toBe(true);
  });
});

describe('close() of a producer in FATAL_ERROR (fenced by a second instance of its transactional.id)', () => {
  // svc opens a transaction and writes e1 (partition 0); svc2 starts at 100 ms with the same
  // transactional.id and fences it; under protocol v1 svc's send to partition 1 needs an
  // AddPartitionsToTxn, answered PRODUCER_FENCED (fatal); then svc closes
  const trace = runScenario({
    version: 1,
    seed: 3,
    cluster: { 'transaction.version': 1 },
    topics: [{ name: 'orders', partitions: 2 }],
    clients: [
      {
        id: 'svc',
        type: 'producer',
        config: { 'linger.ms': 0, 'transactional.id': 'svc-1' },
        script: [
          { op: 'beginTransaction' },
          { ...send('e1'), partition: 0 },
          { ...send('e2'), partition: 1, at: 300 },
          { op: 'restart', at: 400 },
        ],
      },
      { id: 'svc2', type: 'producer', startAt: 100, config: { 'linger.ms': 0, 'transactional.id': 'svc-1' }, script: [] },
    ],
  } as Parameters<typeof runScenario>[0]);
  const close = trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'close');

  it('aborts nothing: hasOngoingTransaction is false in FATAL_ERROR, so the Sender sends no EndTxn and close() returns', () => {
    expect(close?.before).toBe('FATAL_ERROR');
    expect(trace.envelopes.some((e) => e?.rpc === 'EndTxn' && e.from === 'svc.producer')).toBe(false);
    expect(trace.steps.some((s) => s.i > (close?.i as number) && s.actor === 'svc.app' && s.label === 'reply')).toBe(true);
  });
});
