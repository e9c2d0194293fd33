/**
 * Failure injection and config edits as pure scenario edits: each keeps the scenario valid, leaves
 * the run up to the current step unchanged, and has the effect Kafka would show from there on.
 */
import { describe, expect, it } from 'vitest';
import type { TraceStep } from '../src/sim/kernel/simulation';
import type { ListLike } from '../src/sim/kernel/traceLists';
import { findPreset, PRESETS } from '../src/sim/presets';
import { runScenario, stateAt, type Trace } from '../src/sim/run';
import {
  advancePastTimeout,
  configPath,
  currentTime,
  type EditOutcome,
  envelopeFaultTarget,
  envelopeStatus,
  injectEnvelopeFault,
  injectionTime,
  injectProcessFault,
  removeFault,
  resendRecord,
  runCleanerNow,
  sendNewRecord,
  setConfigValues,
  startSecondInstance,
  timeoutPause,
} from '../src/sim/scenario/edits';
import type { Scenario } from '../src/sim/scenario/schema';
import { validateScenario } from '../src/sim/scenario/validate';
import type { Fact } from '../src/sim/trace/facts';
import { partitionRows } from '../src/sim/trace/logView';

const opening = (): Scenario => {
  const p = findPreset('opening-story');
  if (!p) throw new Error('opening-story is missing');
  return p.scenario;
};

/** One idempotent (or not) send, nothing else. */
const oneSend = (idempotence: boolean): Scenario => ({
  version: 1,
  seed: 1,
  topics: [{ name: 'orders' }],
  clients: [
    {
      id: 'p1',
      type: 'producer',
      config: { 'enable.idempotence': idempotence },
      script: [{ op: 'send', topic: 'orders', key: 'k', value: 'v', headers: { event_id: 'e1' } }],
    },
  ],
});

/** A transactional application with two transactions, under transaction protocol v1 or v2 (the default). */
const transactional = (protocol: 1 | 2 = 2): Scenario => ({
  version: 1,
  seed: 3,
  cluster: { 'transaction.version': protocol },
  topics: [{ name: 'out' }],
  clients: [
    {
      id: 'app',
      type: 'producer',
      config: { 'transactional.id': 'tx-1', 'transaction.timeout.ms': 5000 },
      script: [
        { op: 'beginTransaction' },
        { op: 'send', topic: 'out', key: 'a', value: '1', headers: { event_id: 'e1' } },
        { op: 'commitTransaction', delayMs: 100 },
        { op: 'beginTransaction', delayMs: 200 },
        { op: 'send', topic: 'out', key: 'b', value: '2' },
        { op: 'commitTransaction', delayMs: 100 },
      ],
    },
  ],
});

function applied(outcome: EditOutcome): Scenario {
  if (!outcome.ok) throw new Error(`edit refused: ${outcome.code}: ${outcome.reason}`);
  expect(validateScenario(outcome.scenario).ok).toBe(true);
  expect(outcome.note.length).toBeGreaterThan(10);
  return outcome.scenario;
}

/**
 * Runs the edited scenario and checks the fork kept every step up to `step`. Two differences are
 * the injection itself: an envelope fault is applied when the envelope is sent, so the step that
 * sent it names the fault; and an application given one more operation is no longer "done".
 */
function fork(before: Trace, outcome: EditOutcome, step: number, allow: { sentStep?: number; app?: string } = {}): Trace {
  const after = runScenario(applied(outcome));
  const same = (steps: ListLike<TraceStep>) =>
    JSON.stringify(
      steps.slice(0, step).map((s) => {
        const notDone = (v: string) => (s.actor === allow.app && v === 'done' ? 'running' : v);
        return { ...s, before: notDone(s.before), after: notDone(s.after), faults: s.i === allow.sentStep ? [] : s.faults };
      }),
    );
  expect(same(after.steps)).toBe(same(before.steps));
  if (allow.sentStep !== undefined) expect(after.steps.at(allow.sentStep)?.faults.join(' ')).toContain(outcome.ok ? outcome.note : '?');
  return after;
}

function facts(trace: Trace): { step: number; t: number; fact: Fact }[] {
  return trace.steps.flatMap((s) => s.facts.map((f) => ({ step: s.i, t: s.t, fact: f as Fact })));
}

function records(trace: Trace, topic: string): number[] {
  const row = partitionRows(stateAt(trace, trace.steps.length).actors).find((p) => p.topic === topic && p.partition === 0);
  return (row?.records ?? []).filter((r) => r.control === null).map((r) => r.offset);
}

/** The first step after which envelope `id` is in flight. */
const inFlightStep = (trace: Trace, id: number) => (trace.envelopes.at(id)?.sentStep ?? -1) + 1;

function produceResponses(trace: Trace): number[] {
  return trace.envelopes.filter((e) => e.rpc === 'ProduceResponse').map((e) => e.id);
}

describe('envelopes: drop, delay, duplicate', () => {
  it('names an envelope by RPC, processes and ordinal', () => {
    const t = runScenario(opening());
    const [first, second] = produceResponses(t);
    expect(envelopeFaultTarget(t, first as number)).toEqual({ rpc: 'ProduceResponse', from: 'broker-0', to: 'orders-service', nth: 1 });
    expect(envelopeFaultTarget(t, second as number)).toEqual({ rpc: 'ProduceResponse', from: 'broker-0', to: 'orders-service', nth: 2 });
    expect(envelopeFaultTarget(t, 100000)).toBeNull();
  });

  it('drops the same envelope in the fork (opening-story, the first ProduceResponse)', () => {
    const t = runScenario(opening());
    const id = produceResponses(t)[0] as number;
    const step = inFlightStep(t, id);
    expect(envelopeStatus(t, id, step)).toBe('in-flight');
    expect(stateAt(t, step).inFlight.map((e) => e.id)).toContain(id);
    const outcome = injectEnvelopeFault(opening(), { trace: t, step, envelopeId: id, action: { type: 'drop' } });
    const after = fork(t, outcome, step, { sentStep: step - 1 });
    const was = t.envelopes.at(id);
    const now = after.envelopes.at(id);
    expect(now).toMatchObject({ rpc: was?.rpc, from: was?.from, to: was?.to, sentStep: was?.sentStep, fate: 'dropped' });
    expect(now?.fault).toContain('(injected at step');
    // the idempotent producer retries; the broker recognises the batch: still the two business sends
    expect(records(after, 'orders')).toEqual([100, 101]);
    expect(facts(after).some((f) => f.fact.kind === 'duplicate' && f.fact.baseOffset === 100)).toBe(true);
  });

  it('drops the second ProduceResponse by its ordinal', () => {
    const t = runScenario(opening());
    const id = produceResponses(t)[1] as number;
    const step = inFlightStep(t, id);
    const after = fork(t, injectEnvelopeFault(opening(), { trace: t, step, envelopeId: id, action: { type: 'drop' } }), step, {
      sentStep: step - 1,
    });
    expect(after.envelopes.at(id)?.fate).toBe('dropped');
    expect(after.envelopes.at(produceResponses(t)[0] as number)?.fate).toBe('delivered');
    expect(after.scenario.faults?.[0]).toMatchObject({ type: 'drop', rpc: 'ProduceResponse', nth: 2 });
  });

  it('a lost ack: with idempotence the retry is answered with the original offset; without, the log holds two records', () => {
    for (const idempotence of [true, false]) {
      const t = runScenario(oneSend(idempotence));
      const id = produceResponses(t)[0] as number;
      const step = inFlightStep(t, id);
      const after = fork(t, injectEnvelopeFault(oneSend(idempotence), { trace: t, step, envelopeId: id, action: { type: 'drop' } }), step, {
        sentStep: step - 1,
      });
      const results = facts(after).filter((f) => f.fact.kind === 'sendResult');
      if (idempotence) {
        expect(records(after, 'orders')).toEqual([0]);
        expect(facts(after).filter((f) => f.fact.kind === 'duplicate')).toHaveLength(1);
        expect(results.map((f) => (f.fact as Extract<Fact, { kind: 'sendResult' }>).offset)).toEqual([0]);
      } else {
        expect(records(after, 'orders')).toEqual([0, 1]);
        expect(results.map((f) => (f.fact as Extract<Fact, { kind: 'sendResult' }>).offset)).toEqual([1]);
      }
    }
  });

  it('delays an envelope by N ms and duplicates one', () => {
    const t = runScenario(oneSend(true));
    const id = produceResponses(t)[0] as number;
    const step = inFlightStep(t, id);
    const delayed = fork(
      t,
      injectEnvelopeFault(oneSend(true), { trace: t, step, envelopeId: id, action: { type: 'delay', delayMs: 500 } }),
      step,
      {
        sentStep: step - 1,
      },
    );
    expect(delayed.envelopes.at(id)?.deliverAt).toBe((t.envelopes.at(id)?.deliverAt ?? 0) + 500);
    expect(delayed.scenario.faults?.[0]).toMatchObject({ type: 'delay', delayMs: 500, nth: 1 });

    const produce = t.envelopes.find((e) => e.rpc === 'Produce')?.id as number;
    const pStep = inFlightStep(t, produce);
    const dup = fork(
      t,
      injectEnvelopeFault(oneSend(true), { trace: t, step: pStep, envelopeId: produce, action: { type: 'duplicate' } }),
      pStep,
      {
        sentStep: pStep - 1,
      },
    );
    expect(dup.steps.filter((s) => s.envelope === produce && s.kind === 'deliver')).toHaveLength(2);
    // the broker recognises the copy by its sequence number
    expect(records(dup, 'orders')).toEqual([0]);
  });

  it('resets the connection an envelope travels on: both sides see it close, and the request is retried', () => {
    const t = runScenario(oneSend(true));
    const produce = t.envelopes.find((e) => e.rpc === 'Produce')?.id as number;
    const step = inFlightStep(t, produce);
    const after = fork(t, injectEnvelopeFault(oneSend(true), { trace: t, step, envelopeId: produce, action: { type: 'reset' } }), step, {
      sentStep: step - 1,
    });
    expect(after.scenario.faults?.[0]).toMatchObject({ type: 'reset', rpc: 'Produce', nth: 1 });
    expect(after.envelopes.at(produce)?.fate).toBe('lost');
    const closed = after.steps.find((s) => s.kind === 'disconnected');
    expect(closed?.detail?.reason).toBe('reset');
    expect(records(after, 'orders')).toEqual([0]);
  });

  it('refuses envelopes that are not in flight, and bad delays', () => {
    const t = runScenario(oneSend(true));
    const id = produceResponses(t)[0] as number;
    const notYet = injectEnvelopeFault(oneSend(true), { trace: t, step: 0, envelopeId: id, action: { type: 'drop' } });
    expect(notYet).toMatchObject({ ok: false, code: 'not-in-flight' });
    const done = injectEnvelopeFault(oneSend(true), { trace: t, step: t.steps.length, envelopeId: id, action: { type: 'drop' } });
    expect(done).toMatchObject({ ok: false, code: 'not-in-flight' });
    if (!done.ok) expect(done.reason).toContain('already delivered');
    const unknown = injectEnvelopeFault(oneSend(true), { trace: t, step: 3, envelopeId: 9999, action: { type: 'drop' } });
    expect(unknown).toMatchObject({ ok: false, code: 'unknown-envelope' });
    const step = inFlightStep(t, id);
    const bad = injectEnvelopeFault(oneSend(true), { trace: t, step, envelopeId: id, action: { type: 'delay', delayMs: -5 } });
    expect(bad).toMatchObject({ ok: false, code: 'bad-number' });
  });
});

describe('processes: crash, restart, pause, second instance', () => {
  it('injects at the next millisecond, so every step taken stays as it was', () => {
    const t = runScenario(opening());
    expect(injectionTime(t, 0)).toBe(0);
    expect(injectionTime(t, 13)).toBe(currentTime(t, 13) + 1);
  });

  it('crashes a client and restarts it N ms later', () => {
    const t = runScenario(opening());
    const step = 14;
    const after = fork(
      t,
      injectProcessFault(opening(), { trace: t, step, process: 'billing.consumer', action: { type: 'crash', restartAfterMs: 2000 } }),
      step,
    );
    const crash = after.steps.find((s) => s.kind === 'fault' && s.label === 'crash');
    const restart = after.steps.find((s) => s.kind === 'fault' && s.label === 'restart');
    expect(crash).toMatchObject({ actor: 'billing', t: injectionTime(t, step), after: 'down' });
    expect(restart).toMatchObject({ actor: 'billing', t: injectionTime(t, step) + 2000, after: 'up' });
    expect(after.scenario.faults?.[0]).toMatchObject({ type: 'crash', target: 'billing', durationMs: 2000 });
  });

  it('restarts a process and pauses one for N ms', () => {
    const t = runScenario(opening());
    const restarted = fork(t, injectProcessFault(opening(), { trace: t, step: 20, process: 'broker-0', action: { type: 'restart' } }), 20);
    expect(restarted.steps.some((s) => s.kind === 'fault' && s.actor === 'broker-0' && s.label === 'restart')).toBe(true);
    const paused = fork(
      t,
      injectProcessFault(opening(), { trace: t, step: 5, process: 'orders-service', action: { type: 'pause', ms: 3000 } }),
      5,
    );
    const pause = paused.steps.find((s) => s.label === 'pause');
    const resume = paused.steps.find((s) => s.label === 'resume');
    expect(pause?.after).toBe('paused');
    expect((resume?.t ?? 0) - (pause?.t ?? 0)).toBe(3000);
  });

  it('refuses to crash a process that is down, or an unknown one', () => {
    const t = runScenario(opening());
    const crashed = applied(injectProcessFault(opening(), { trace: t, step: 14, process: 'billing', action: { type: 'crash' } }));
    const t2 = runScenario(crashed);
    const again = injectProcessFault(crashed, { trace: t2, step: t2.steps.length, process: 'billing', action: { type: 'crash' } });
    expect(again).toMatchObject({ ok: false, code: 'process-down' });
    expect(injectProcessFault(opening(), { trace: t, step: 3, process: 'nobody', action: { type: 'restart' } })).toMatchObject({
      ok: false,
      code: 'unknown-process',
    });
  });

  it.each([1, 2] as const)(
    'a second instance with the same transactional.id starts now and fences the first (protocol v%i)',
    (protocol) => {
      const s = transactional(protocol);
      const t = runScenario(s);
      const step = t.steps.findIndex((x) => x.t >= 50);
      const outcome = startSecondInstance(s, { trace: t, step, client: 'app' });
      const after = fork(t, outcome, step);
      const added = after.scenario.clients.find((c) => c.id === 'app-2');
      expect(added).toMatchObject({ type: 'producer', startAt: injectionTime(t, step), config: { 'transactional.id': 'tx-1' } });
      expect(after.steps.find((x) => x.actor === 'app-2.app')?.t).toBe(injectionTime(t, step));
      // its InitProducerId fences the epoch and aborts the first instance's open transaction
      expect(facts(after).some((f) => f.fact.kind === 'txnState' && f.fact.to === 'PrepareEpochFence')).toBe(true);
      const failed = facts(after).find((f) => f.fact.kind === 'clientError' && f.fact.client === 'app');
      expect(failed?.fact).toMatchObject({ fatal: true, during: 'EndTxn(COMMIT)' });
      const end = stateAt(after, after.steps.length);
      expect(end.actors.get('app.app')?.value).toBe('stopped');
      expect(end.actors.get('app-2.app')?.value).toBe('done');
      expect(startSecondInstance(opening(), { trace: runScenario(opening()), step: 3, client: 'orders-service' })).toMatchObject({
        ok: false,
        code: 'not-transactional',
      });
      expect(startSecondInstance(opening(), { trace: runScenario(opening()), step: 3, client: 'billing' })).toMatchObject({
        ok: false,
        code: 'not-a-producer',
      });
    },
  );
});

describe('the clock: advance past a timeout', () => {
  it.each([1, 2] as const)(
    'past transaction.timeout.ms: the coordinator aborts and fences the paused producer (protocol v%i)',
    (protocol) => {
      const s = transactional(protocol);
      const t = runScenario(s);
      const step = t.steps.findIndex((x) => x.t >= 50);
      const pause = timeoutPause(t, 'app', 'transaction.timeout.ms');
      expect(pause).toMatchObject({ timeoutMs: 5000, ms: 5000 + 10000 + 1000 });
      const after = fork(t, advancePastTimeout(s, { trace: t, step, client: 'app', timeout: 'transaction.timeout.ms' }), step);
      expect(after.scenario.faults?.[0]).toMatchObject({ type: 'pause', target: 'app', durationMs: 16000 });
      const abort = facts(after).find((f) => f.fact.kind === 'txnState' && f.fact.to === 'PrepareAbort');
      const resume = after.steps.find((x) => x.label === 'resume');
      expect(abort && resume && abort.t < resume.t).toBe(true);
      expect(facts(after).find((f) => f.fact.kind === 'clientError')?.fact).toMatchObject({
        client: 'app',
        fatal: true,
        during: 'EndTxn(COMMIT)',
      });
      expect(stateAt(after, after.steps.length).actors.get('app.app')?.value).toBe('stopped');
    },
  );

  it('past session.timeout.ms: the group removes the silent consumer', () => {
    const t = runScenario(opening());
    const step = 30;
    expect(timeoutPause(t, 'billing', 'session.timeout.ms')).toMatchObject({ timeoutMs: 45000, ms: 46000 });
    const after = fork(t, advancePastTimeout(opening(), { trace: t, step, client: 'billing', timeout: 'session.timeout.ms' }), step);
    const removed = facts(after).find((f) => f.fact.kind === 'rebalance' && /session\.timeout\.ms/.test(f.fact.reason));
    expect(removed).toBeDefined();
    expect(advancePastTimeout(opening(), { trace: t, step, client: 'orders-service', timeout: 'session.timeout.ms' })).toMatchObject({
      ok: false,
      code: 'no-timeout',
    });
    expect(advancePastTimeout(opening(), { trace: t, step, client: 'orders-service', timeout: 'transaction.timeout.ms' })).toMatchObject({
      ok: false,
      code: 'no-timeout',
    });
  });
});

describe('application actions', () => {
  it('resends the selected event now, before the operation that has not started yet', () => {
    const t = runScenario(opening());
    const step = 19; // the first send is acknowledged; the script’s own resend waits for 20 ms
    const outcome = resendRecord(opening(), { trace: t, step, topic: 'orders', partition: 0, offset: 100 });
    const after = fork(t, outcome, step);
    const script = after.scenario.clients[0]?.type === 'producer' ? after.scenario.clients[0].script : [];
    expect(script.map((o) => o.op)).toEqual(['send', 'resend', 'resend']);
    expect(script[1]).toMatchObject({ op: 'resend', eventId: 'evt-789', at: injectionTime(t, step) });
    expect(records(after, 'orders')).toEqual([100, 101, 102]);
  });

  it('resends after the end of the script, and explains when it cannot', () => {
    const t = runScenario(opening());
    const end = t.steps.length;
    const after = fork(t, resendRecord(opening(), { trace: t, step: end, topic: 'orders', partition: 0, offset: 101 }), end, {
      app: 'orders-service.app',
    });
    expect(records(after, 'orders')).toEqual([100, 101, 102]);
    expect(resendRecord(opening(), { trace: t, step: end, topic: 'orders', partition: 0, offset: 7 })).toMatchObject({
      ok: false,
      code: 'unknown-record',
    });
    const plain = oneSend(true);
    const p1 = plain.clients[0];
    if (p1?.type === 'producer') p1.script = [{ op: 'send', topic: 'orders', key: 'k', value: 'v' }];
    const tp = runScenario(plain);
    expect(resendRecord(plain, { trace: tp, step: tp.steps.length, topic: 'orders', partition: 0, offset: 0 })).toMatchObject({
      ok: false,
      code: 'no-event-id',
    });
  });

  it('a transactional application resends inside a transaction of its own', () => {
    const s = transactional();
    const t = runScenario(s);
    const end = t.steps.length;
    const after = fork(t, resendRecord(s, { trace: t, step: end, topic: 'out', partition: 0, offset: 0 }), end, { app: 'app.app' });
    const script = after.scenario.clients[0]?.type === 'producer' ? after.scenario.clients[0].script : [];
    expect(script.slice(-3).map((o) => o.op)).toEqual(['beginTransaction', 'resend', 'commitTransaction']);
    expect(facts(after).filter((f) => f.fact.kind === 'append' && f.fact.control === 'COMMIT')).toHaveLength(3);
  });

  it('sends a new record now', () => {
    const t = runScenario(opening());
    const end = t.steps.length;
    const after = fork(
      t,
      sendNewRecord(opening(), {
        trace: t,
        step: end,
        client: 'orders-service',
        record: { topic: 'orders', key: 'order-124', value: 'new', eventId: 'evt-790' },
      }),
      end,
      { app: 'orders-service.app' },
    );
    const rows = partitionRows(stateAt(after, after.steps.length).actors).find((p) => p.topic === 'orders');
    expect(rows?.records.at(-1)).toMatchObject({ offset: 102, key: 'order-124', headers: { event_id: 'evt-790' } });
    expect(
      sendNewRecord(opening(), { trace: t, step: end, client: 'orders-service', record: { topic: 'nope', key: null, value: 'x' } }),
    ).toMatchObject({
      ok: false,
      code: 'unknown-topic',
    });
  });
});

describe('the log cleaner and removing a fault', () => {
  const compacted = (): Scenario => ({
    version: 1,
    seed: 2,
    topics: [{ name: 'prices', config: { 'cleanup.policy': 'compact', 'segment.bytes': 14 } }],
    clients: [
      {
        id: 'p1',
        type: 'producer',
        script: [
          { op: 'send', topic: 'prices', key: 'k', value: '1' },
          { op: 'send', topic: 'prices', key: 'k', value: '2', delayMs: 10 },
          { op: 'send', topic: 'prices', key: 'k', value: '3', delayMs: 10 },
        ],
      },
    ],
  });

  it('runs the cleaner now on a compacted topic', () => {
    const t = runScenario(compacted());
    const end = t.steps.length;
    const after = fork(t, runCleanerNow(compacted(), { trace: t, step: end, topic: 'prices' }), end);
    const cleaned = facts(after).find((f) => f.fact.kind === 'cleaned');
    // the active segment (offset 2) is never cleaned: offset 0 goes, offset 1 is the latest below it
    expect(cleaned?.fact).toMatchObject({ topic: 'prices', removed: 1 });
    expect(records(after, 'prices')).toEqual([1, 2]);
    const plain = runScenario(opening());
    expect(runCleanerNow(opening(), { trace: plain, step: 5, topic: 'orders' })).toMatchObject({ ok: false, code: 'not-compacted' });
  });

  it('takes an injected fault out again', () => {
    const t = runScenario(opening());
    const s = applied(injectProcessFault(opening(), { trace: t, step: 14, process: 'billing', action: { type: 'crash' } }));
    const back = applied(removeFault(s, 0));
    expect(back.faults).toEqual([]);
    expect(runScenario(back).traceHash).toBe(t.traceHash);
    expect(removeFault(s, 5)).toMatchObject({ ok: false });
  });
});

describe('config edits', () => {
  it('sets and removes keys; Kafka ConfigException text comes from the validator', () => {
    const s = opening();
    const target = { scope: 'client', client: 'orders-service' } as const;
    expect(configPath(s, target)).toBe('clients[0].config');
    const bad = setConfigValues(s, target, { 'max.in.flight.requests.per.connection': 6 });
    const v = validateScenario(bad);
    expect(v.ok).toBe(false);
    if (!v.ok)
      expect(v.errors).toContainEqual({
        path: 'clients[0].config["max.in.flight.requests.per.connection"]',
        message:
          'ConfigException: To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 6.',
        ko: '멱등 프로듀서에서는 max.in.flight.requests.per.connection이 5 이하여야 합니다. Kafka 4.0부터는 enable.idempotence를 명시하지 않았어도 오류입니다.',
        quote:
          'ConfigException: To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is 6.',
      });
    const fixed = setConfigValues(bad, target, { 'enable.idempotence': false });
    expect(validateScenario(fixed).ok).toBe(true);
    const defaulted = setConfigValues(s, target, { 'enable.idempotence': undefined, acks: '1' });
    const d = validateScenario(defaulted);
    expect(d.ok && d.resolved.notes.map((n) => n.message)).toContain(
      "INFO Idempotence will be disabled because acks is set to 1, not set to 'all'.",
    );
    expect(defaulted.clients[0]?.config).toEqual({ acks: '1' });
  });

  it('edits the cluster, a topic and the producer inside a consumer application', () => {
    const s = opening();
    const cluster = setConfigValues(s, { scope: 'cluster' }, { 'transaction.version': 1 });
    expect(cluster.cluster).toEqual({ 'transaction.version': 1 });
    const topic = setConfigValues(s, { scope: 'topic', topic: 'orders' }, { 'cleanup.policy': 'compact' });
    expect(topic.topics[0]?.config).toEqual({ 'cleanup.policy': 'compact' });
    expect(configPath(s, { scope: 'topic', topic: 'orders' })).toBe('topics[0].config');
    const withApp: Scenario = {
      ...s,
      topics: [...s.topics, { name: 'out' }],
      clients: s.clients.map((c) => (c.type === 'consumer' ? { ...c, processing: { mode: 'exactly-once', outputTopic: 'out' } } : c)),
    };
    const edited = setConfigValues(withApp, { scope: 'app-producer', client: 'billing' }, { 'transaction.timeout.ms': 10000 });
    const billing = edited.clients.find((c) => c.id === 'billing');
    expect(billing?.type === 'consumer' && billing.processing?.producerConfig).toEqual({ 'transaction.timeout.ms': 10000 });
    expect(configPath(withApp, { scope: 'app-producer', client: 'billing' })).toBe('clients[1].processing.producerConfig');
    // the original is untouched
    expect(s.cluster).toBeUndefined();
  });
});

describe('every preset', () => {
  it.each(PRESETS.map((p) => [p.id, p] as const))(
    '%s: a dropped envelope and a crash fork at the step, and the envelope is the one dropped',
    (_id, preset) => {
      const t = runScenario(preset.scenario);
      const steps = [Math.floor(t.steps.length / 4), Math.floor(t.steps.length / 2), Math.floor((3 * t.steps.length) / 4)];
      for (const step of steps) {
        const view = stateAt(t, step);
        for (const env of view.inFlight.slice(0, 2)) {
          const outcome = injectEnvelopeFault(preset.scenario, { trace: t, step, view, envelopeId: env.id, action: { type: 'drop' } });
          const after = fork(t, outcome, step, { sentStep: env.sentStep });
          expect(after.envelopes.at(env.id)).toMatchObject({
            rpc: env.rpc,
            from: env.from,
            to: env.to,
            sentStep: env.sentStep,
            fate: 'dropped',
          });
        }
        const client = preset.scenario.clients[0]?.id as string;
        const crashed = injectProcessFault(preset.scenario, {
          trace: t,
          step,
          view,
          process: client,
          action: { type: 'crash', restartAfterMs: 1000 },
        });
        if (crashed.ok) fork(t, crashed, step);
        else expect(crashed.code).toBe('process-down');
      }
    },
  );
});
