/**
 * A producer call of the stream thread that times out is retried until the task timeout, not fatal:
 * StreamsProducer.initTransaction and commitTransaction rethrow TimeoutException "to trigger
 * `task.timeout.ms`"; the TaskManager calls Task.maybeInitTaskTimeoutOrThrow (the first timeout sets
 * the deadline, now + task.timeout.ms = 300000) and the next loop calls again; the producer's kept
 * result makes initTransactions() and commitTransaction() wait for the request already under way.
 * Past the deadline the thread dies (StreamsException). On the old code the first TimeoutException
 * killed the thread.
 */
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../src/sim/kernel/effects';
import { translateNote } from '../../src/sim/narration/notes';
import { runScenario } from '../../src/sim/run';
import { initialContext } from '../../src/sim/streams/streamThreadContext';
import { TASK_TIMEOUT_MS } from '../../src/sim/streams/taskTimeout';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize } from '../../src/sim/trace/summary';
import { pageCounter } from '../fixtures/pageCounter';
import { threadAt } from './threadAt';
import { THREAD_INPUT } from './threadInput';

const timedOut = (call: string) => ({ call, ok: false, error: 'TimeoutException' });
const calls = (effects: readonly Effect[]) => effects.flatMap((e) => (e.type === 'call' && e.to === THREAD_INPUT.producer ? [e.name] : []));

describe('the stream thread retries a producer call that timed out', () => {
  it('initTransactions(): called again, the task timeout armed at the first timeout', () => {
    const t = threadAt({ restoring: 'initializingTransactions' }, initialContext(THREAD_INPUT));
    const fx = t.send({ type: 'reply', now: 63000, from: THREAD_INPUT.producer, args: timedOut('initTransactions') });
    expect(calls(fx)).toEqual(['initTransactions']);
    expect(t.state()).toBe('restoring.initializingTransactions');
    expect(t.context().taskTimeoutDeadline).toBe(63000 + TASK_TIMEOUT_MS);
    // a second timeout keeps the first deadline
    t.send({ type: 'reply', now: 123000, from: THREAD_INPUT.producer, args: timedOut('initTransactions') });
    expect(t.context().taskTimeoutDeadline).toBe(63000 + TASK_TIMEOUT_MS);
    // initialised: the deadline is cleared and the restore goes on
    t.send({ type: 'reply', now: 130000, from: THREAD_INPUT.producer, args: { call: 'initTransactions', ok: true } });
    expect(t.context().taskTimeoutDeadline).toBeNull();
    expect(t.state()).toBe('restoring.readingEndOffsets');
  });

  it('past task.timeout.ms the thread dies as before', () => {
    const t = threadAt({ restoring: 'initializingTransactions' }, { ...initialContext(THREAD_INPUT), taskTimeoutDeadline: 1000 });
    t.send({ type: 'reply', now: 1001, from: THREAD_INPUT.producer, args: timedOut('initTransactions') });
    expect(t.context().stopped).not.toBeNull();
  });

  it('commitTransaction() and sendOffsetsToTransaction() in a commit: the same call again', () => {
    const context = { ...initialContext(THREAD_INPUT), uncommitted: 1, commitOffsets: { 'in-0': 4 }, groupMetadata: null };
    const t = threadAt({ running: 'committingWhilePolling' }, context);
    expect(calls(t.send({ type: 'reply', now: 70000, from: THREAD_INPUT.producer, args: timedOut('commitTransaction') }))).toEqual([
      'commitTransaction',
    ]);
    const again = t.send({ type: 'reply', now: 70001, from: THREAD_INPUT.producer, args: timedOut('sendOffsetsToTransaction') });
    expect(calls(again)).toEqual(['sendOffsetsToTransaction']);
    expect(t.state()).toBe('running.committingWhilePolling');
  });

  it('a whole run: the transaction coordinator down for 70 s, initTransactions() times out at 60 s and is called again; every view is counted once', () => {
    const trace = runScenario(pageCounter(2, [{ type: 'crash', target: 'txn-coordinator', at: 100, durationMs: 70000 }]));
    const facts = trace.steps.flatMap((s) => (s.facts as Fact[]).map((f) => ({ t: s.t, f })));
    const timeouts = facts.filter((x) => x.f.kind === 'clientError' && x.f.error === 'TimeoutException');
    expect(timeouts.map((x) => [x.t, x.f.kind === 'clientError' ? x.f.during : ''])).toEqual([
      [63006, 'initTransactions: Timeout expired after 60000ms while awaiting InitProducerId'],
    ]);
    const notes = facts.flatMap((x) => (x.f.kind === 'note' ? [x.f.text] : []));
    const retry = notes.find((n) => n.startsWith('initTransactions() timed out'));
    expect(retry).toBe(
      'initTransactions() timed out (TimeoutException): the task retries it until task.timeout.ms=300000 has passed since the first timeout, at 363006 ms',
    );
    expect(translateNote(retry as string, 'ko')).toBe(
      'initTransactions()가 시간 초과되었습니다(TimeoutException). 태스크는 첫 시간 초과에서 task.timeout.ms=300000이 지나는 363006 ms까지 같은 호출을 다시 합니다',
    );
    expect(notes.some((n) => n.includes('the stream thread dies'))).toBe(false);
    const summary = summarize(trace);
    expect(summary.consumers.find((c) => c.id === 'dashboard')?.received.map((r) => r.value)).toEqual(['1', '2']);
    expect(summary.verdict.layers.every((l) => l.status === 'once' || l.status === 'not-applicable')).toBe(true);
  });
});
