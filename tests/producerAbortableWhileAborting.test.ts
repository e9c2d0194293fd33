/**
 * A batch that fails while the producer is aborting, or while flush() waits
 * (TransactionManager.transitionToAbortableError: "Skipping transition to abortable error state since
 * the transaction is already being aborted"; KafkaProducer.abortTransaction waits for the EndTxn's
 * result, which only a fatal error fails; KafkaProducer.flush → RecordAccumulator.awaitFlushCompletion
 * throws nothing). Before, the model failed whichever call was waiting: an abortTransaction() under
 * way failed with the batch's TimeoutException, and the application, taking a failed abort for
 * fencing, stopped — its next transaction never sent.
 */
import { describe, expect, it } from 'vitest';
import { Out } from '../src/sim/actors/out';
import type { Effect } from '../src/sim/kernel/effects';
import { becomeAbortable } from '../src/sim/producer/producer.machine';
import { runScenario } from '../src/sim/run';
import type { Fact } from '../src/sim/trace/facts';
import { summarize } from '../src/sim/trace/summary';
import { oneBrokerMetadata } from './fixtures/oneBrokerMetadata';
import { producerDraft } from './fixtures/producerDraft';
import { transactionalSvc } from './fixtures/transactionalSvc';

/** e1's first Produce is lost and its coordinator link slow; abortTransaction() at 15 s is still waiting when e1 expires at 30 s. */
const abortWhileExpiring = () =>
  transactionalSvc(
    'abortable-while-aborting',
    { 'delivery.timeout.ms': 30010 },
    [
      { op: 'beginTransaction' },
      { op: 'send', topic: 'orders', key: 'k', value: 'a', headers: { event_id: 'e1' } },
      { op: 'sleep', ms: 15000 },
      { op: 'abortTransaction' },
      { op: 'beginTransaction' },
      { op: 'send', topic: 'audit', key: 'k', value: 'b', headers: { event_id: 'e2' } },
      { op: 'commitTransaction' },
    ],
    [
      { type: 'delay', rpc: 'AddPartitionsToTxn', from: 'svc', count: 1, delayMs: 10000, note: 'a slow coordinator link' },
      { type: 'drop', rpc: 'Produce', from: 'svc', count: 1, note: "e1's first Produce is lost" },
    ],
  );

const notes = (trace: ReturnType<typeof runScenario>) =>
  trace.steps.flatMap((s) => (s.facts as Fact[]).flatMap((f) => (f.kind === 'note' ? [f.text] : [])));

const outcomes = (trace: ReturnType<typeof runScenario>, topic: string) =>
  summarize(trace)
    .partitions.filter((p) => p.topic === topic)
    .flatMap((p) => p.records.filter((r) => r.control === null).map((r) => `${r.headers.event_id}:${r.txnOutcome}`));

describe('a batch that fails while the transaction is being aborted', () => {
  it('abortTransaction() completes with its EndTxn: the application goes on, and its next transaction commits', () => {
    const trace = runScenario(abortWhileExpiring());
    expect(notes(trace).filter((t) => /fenced and stops/.test(t))).toEqual([]);
    expect(outcomes(trace, 'orders')).toEqual([]);
    expect(outcomes(trace, 'audit')).toEqual(['e2:committed']);
  });
});

describe('transitionToAbortableError, on a draft', () => {
  const replies = (out: Out) =>
    out.effects.filter((e): e is Extract<Effect, { type: 'call' }> => e.type === 'call' && e.name === 'reply').map((e) => e.args);
  const waitingIn = (call: string, endTxn: 'COMMIT' | 'ABORT' | null = null) => {
    const d = producerDraft(oneBrokerMetadata, { 'transactional.id': 'tx' });
    d.waiting = { call, from: 'p.app' } as typeof d.waiting;
    d.endTxn = endTxn;
    d.lastError = 'TimeoutException';
    const out = new Out();
    becomeAbortable(d, out);
    return { d, replies: replies(out) };
  };

  it('while aborting: no error state, and the waiting abortTransaction() is not answered', () => {
    const r = waitingIn('abortTransaction', 'ABORT');
    expect(r.d.abortableError).toBeNull();
    expect(r.replies).toEqual([]);
  });

  it('a waiting flush() is not failed: it returns once every record has its result', () => {
    const r = waitingIn('flush');
    expect(r.d.abortableError).toBe('TimeoutException');
    expect(r.replies).toEqual([]);
  });

  it('a waiting sendOffsetsToTransaction() fails with the error', () => {
    const r = waitingIn('sendOffsetsToTransaction');
    expect(r.d.abortableError).toBe('TimeoutException');
    expect(r.replies).toEqual([expect.objectContaining({ call: 'sendOffsetsToTransaction', ok: false, error: 'TimeoutException' })]);
  });
});
