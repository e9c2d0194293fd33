/**
 * KafkaProducer.close() with a transaction still open: Sender.run, once `running` turns false, sends
 * what the accumulator holds and waits for every request in flight, then — the transaction ongoing and
 * not completing — calls `transactionManager.beginAbort()` ("Aborting incomplete transaction due to
 * shutdown") and loops until the abort is done; only then does the client close and close() return.
 * On the old code close() returned at once after the records: the transaction stayed Ongoing at the
 * coordinator until the next instance's InitProducerId fenced and aborted it.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration/narrate';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';

type Trace = ReturnType<typeof runScenario>;

const closing = (script: unknown[], cluster: Record<string, unknown> = {}, config: Record<string, unknown> = {}) =>
  runScenario({
    version: 1,
    seed: 3,
    cluster,
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [{ id: 'svc', type: 'producer', config: { 'transactional.id': 'svc-1', ...config }, script }],
  } as Parameters<typeof runScenario>[0]);

const send = (e: string, value = 'v') => ({ op: 'send', topic: 'orders', key: 'k', value, headers: { event_id: e } });

/** The coordinator's transaction states, each with the step that reached it. */
const txnStates = (trace: Trace) =>
  trace.steps.flatMap((s) =>
    (s.facts as Fact[]).flatMap((f) =>
      f.kind === 'txnState' ? [{ i: s.i, label: s.label, from: f.from, to: f.to, epoch: f.producerEpoch }] : [],
    ),
  );

/** The step where the application is answered its close(). */
const closeReply = (trace: Trace) => {
  const close = trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'close');
  return trace.steps.find((s) => s.i > (close?.i ?? 0) && s.actor === 'svc.app' && s.label === 'reply');
};

describe('close() aborts an open transaction before it returns (Sender.run: beginAbort on shutdown)', () => {
  const trace = closing([
    { op: 'beginTransaction' },
    send('e1'),
    { op: 'restart' },
    { op: 'beginTransaction' },
    send('e2'),
    { op: 'commitTransaction' },
  ]);

  it('the closing producer sends EndTxn(ABORT) after its record is acknowledged, and close() returns once it is answered', () => {
    const states = txnStates(trace);
    const prepareAbort = states.find((s) => s.to === 'PrepareAbort');
    // the abort comes from the closing producer's EndTxn, not from the next instance's InitProducerId
    expect(prepareAbort?.label).toBe('EndTxn');
    expect(prepareAbort?.from).toBe('Ongoing');
    const e1 = trace.steps.find((s) => (s.facts as Fact[]).some((f) => f.kind === 'sendResult' && f.eventId === 'e1'));
    expect(prepareAbort?.i).toBeGreaterThan(e1?.i as number);
    const endTxnAnswer = trace.steps.find((s) => s.actor === 'svc.producer' && s.label === 'EndTxnResponse');
    expect(closeReply(trace)?.i).toBeGreaterThan(endTxnAnswer?.i as number);
    // the abort started in a step of the closing producer: IN_TRANSACTION → ABORTING_TRANSACTION
    const abortStep = trace.steps.find(
      (s) => s.actor === 'svc.producer' && s.label === 'closeNow' && s.after === 'live.ABORTING_TRANSACTION',
    );
    expect(abortStep?.before).toBe('live.IN_TRANSACTION');
  });

  it("the next instance's InitProducerId finds the transaction ended, not Ongoing", () => {
    const init = txnStates(trace).filter((s) => s.label === 'InitProducerId');
    expect(init.map((s) => s.from)).toEqual(['(new)', 'CompleteAbort']);
    expect(txnStates(trace).at(-1)?.to).toBe('CompleteCommit');
  });

  it('the narration tells it, in English and Korean', () => {
    const step = trace.steps.findIndex((s) => s.label === 'closeNow' && s.after === 'live.ABORTING_TRANSACTION');
    expect(narrate(trace, step, 'en')).toContain('Aborting incomplete transaction due to shutdown');
    expect(narrate(trace, step, 'en')).toContain('EndTxn(ABORT)');
    const ko = narrate(trace, step, 'ko');
    expect(ko).toContain('Sender가 종료하면서 이를 중단합니다');
    expect(ko).not.toContain('the transaction is still open');
  });
});

describe('close() in ABORTABLE_ERROR aborts too', () => {
  // a record over max.request.size makes the transaction abortable (doSend's maybeTransitionToErrorState)
  const trace = closing(
    [{ op: 'beginTransaction' }, send('e1'), send('big', 'x'.repeat(100)), { op: 'restart' }],
    {},
    { 'max.request.size': 60 },
  );

  it('EndTxn(ABORT) goes out from ABORTABLE_ERROR', () => {
    const abortStep = trace.steps.find(
      (s) => s.actor === 'svc.producer' && s.label === 'closeNow' && s.after === 'live.ABORTING_TRANSACTION',
    );
    expect(abortStep?.before).toBe('live.ABORTABLE_ERROR');
    const states = txnStates(trace);
    expect(states.find((s) => s.to === 'PrepareAbort')?.label).toBe('EndTxn');
    // e1 lingered (linger.ms 5) and failed undrained with the abortable error, so the coordinator saw no
    // partition (Empty); the TV2 EndTxn still goes (transactionStarted at send()), and the next
    // instance's InitProducerId comes after the abort is complete
    expect(states.map((s) => `${s.from} → ${s.to}`).slice(-3)).toEqual([
      'Empty → PrepareAbort',
      'PrepareAbort → CompleteAbort',
      'CompleteAbort → Empty',
    ]);
    expect(closeReply(trace)).toBeDefined();
  });
});

describe('close() with a transaction in which nothing was sent', () => {
  const trace = closing([{ op: 'beginTransaction' }, { op: 'restart' }]);

  it('the abort completes locally: no EndTxn, and close() returns', () => {
    expect(trace.steps.some((s) => s.label === 'EndTxn')).toBe(false);
    const step = trace.steps.findIndex((s) => s.label === 'closeNow' && s.before === 'live.IN_TRANSACTION');
    expect(step).toBeGreaterThan(0);
    expect(narrate(trace, step, 'en')).toContain('the abort completes without EndTxn');
    expect(narrate(trace, step, 'ko')).toContain('EndTxn 없이 중단이 끝납니다');
    expect(closeReply(trace)?.i).toBeGreaterThan(step);
  });
});

describe('close() under transaction protocol v1', () => {
  const trace = closing([{ op: 'beginTransaction' }, send('e1'), { op: 'restart' }], { 'transaction.version': 1 });

  it('EndTxn(ABORT) with the epoch as it is, and the close returns after the markers are asked for', () => {
    const states = txnStates(trace);
    const prepareAbort = states.find((s) => s.to === 'PrepareAbort');
    expect(prepareAbort?.label).toBe('EndTxn');
    expect(prepareAbort?.epoch).toBe(0);
    expect(closeReply(trace)?.i).toBeGreaterThan(prepareAbort?.i as number);
  });
});

describe('close() under protocol v1 after an error that needs the client-side epoch bump', () => {
  // TV1: a record doSend refuses sets clientEpochBumpRequired (maybeTransitionToErrorState); abortTransaction()
  // would follow its EndTxn with InitProducerId(current id and epoch) — on shutdown the loop ends first
  const trace = closing(
    [{ op: 'beginTransaction' }, send('e1'), send('big', 'x'.repeat(100)), { op: 'restart' }],
    { 'transaction.version': 1 },
    { 'max.request.size': 60, 'linger.ms': 0 },
  );

  it('EndTxn(ABORT) goes out, and the epoch bump queued after it is never sent', () => {
    const states = txnStates(trace);
    expect(states.find((s) => s.to === 'PrepareAbort')?.label).toBe('EndTxn');
    // the first instance's InitProducerId and the next instance's: no bump between them
    const inits = trace.steps.filter((s) => s.actor === 'txn-coordinator' && s.label === 'InitProducerId');
    expect(inits).toHaveLength(2);
    const answer = trace.steps.findIndex((s) => s.actor === 'svc.producer' && s.label === 'EndTxnResponse');
    expect(narrate(trace, answer, 'en')).toContain('the epoch bump (InitProducerId) queued after it is never sent');
    expect(narrate(trace, answer, 'ko')).toContain('epoch 올리기(InitProducerId)는 보내지 않습니다');
    expect(closeReply(trace)?.i).toBeGreaterThan(answer);
  });
});

describe('a crash is no close', () => {
  const trace = runScenario({
    version: 1,
    seed: 3,
    topics: [{ name: 'orders', partitions: 1 }],
    clients: [
      {
        id: 'svc',
        type: 'producer',
        config: { 'transactional.id': 'svc-1' },
        script: [{ op: 'beginTransaction' }, send('e1'), { op: 'sleep', ms: 1000 }, { op: 'commitTransaction' }],
      },
    ],
    faults: [{ type: 'crash', target: 'svc', at: 20, durationMs: 100 }],
  } as Parameters<typeof runScenario>[0]);

  it('the crashed instance aborts nothing: the next instance fences the transaction it left Ongoing', () => {
    const states = txnStates(trace);
    const fence = states.find((s) => s.to === 'PrepareEpochFence');
    expect(fence).toMatchObject({ label: 'InitProducerId', from: 'Ongoing' });
    // no EndTxn before that InitProducerId: the only one is the next instance's commit
    const endTxns = trace.steps.filter((s) => s.actor === 'txn-coordinator' && s.label === 'EndTxn');
    expect(endTxns.every((s) => s.i > (fence?.i ?? 0))).toBe(true);
    expect(trace.steps.some((s) => s.label === 'closeNow')).toBe(false);
  });
});
