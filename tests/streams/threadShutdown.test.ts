/**
 * A stream thread that dies closes its clients (StreamThread.run → requestLeaveGroupDuringShutdown
 * and completeShutdown; src/sim/streams/shutdown.ts): the task closed dirty — under exactly_once_v2
 * its open transaction aborted — then the producer, the main consumer (unsubscribe(): a LeaveGroup)
 * and the restore consumer closed. Before the fix the dead thread's clients went on: its main
 * consumer stayed in the group, kept its partitions and heartbeated, and the input was never
 * processed by the other instance.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../src/sim/kernel/effects';
import { narrate } from '../../src/sim/narration/narrate';
import type { Scenario } from '../../src/sim/scenario/schema';
import { type Draft, initialContext, type StreamThreadInput } from '../../src/sim/streams/streamThreadContext';
import { runWith } from '../presets/helpers';
import { storeOf } from './storeOf';
import { threadAt } from './threadAt';
import { THREAD_INPUT } from './threadInput';

/** The thread in `value` with this context; reply() and timer() return the calls (and cancels) one event emitted. */
function thread(value: string | Record<string, string>, over: Partial<Draft> = {}, input: Partial<StreamThreadInput> = {}) {
  const context = { ...initialContext({ ...THREAD_INPUT, ...input }), ...over };
  const t = threadAt(value, context);
  const send = t.send;
  return {
    reply: (from: string, args: Record<string, unknown>, now = 500) =>
      send({ type: 'reply', now, from, args: { ok: true, error: null, ...args } }),
    timer: (type: 'abortTimeout' | 'commitDue' | 'continue', now: number) => send({ type, now, key: type, data: {} }),
    state: t.state,
    context: t.context,
  };
}
const calls = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'call' ? [`${e.name}→${e.to}`] : []));
const cancels = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'cancel' ? [e.key] : []));

/** The rest of the shutdown, from the producer's close: main consumer, restore consumer, DEAD. */
function closesTheRest(t: ReturnType<typeof thread>): void {
  expect(calls(t.reply('st.producer', { call: 'close' }))).toEqual(['close→st.consumer']);
  expect(t.state()).toBe('shuttingDown.closingConsumer');
  // a poll() answer for the dead thread is dropped, not processed
  expect(calls(t.reply('st.consumer', { call: 'poll', records: [], positions: {} }))).toEqual([]);
  expect(t.state()).toBe('shuttingDown.closingConsumer');
  expect(calls(t.reply('st.consumer', { call: 'close' }))).toEqual(['close→st.restore']);
  expect(t.state()).toBe('shuttingDown.closingRestoreConsumer');
  expect(calls(t.reply('st.restore', { call: 'close' }))).toEqual([]);
  expect(t.state()).toBe('stopped');
}

describe('StreamThread.completeShutdown: the dying thread closes its clients', () => {
  it('exactly_once_v2, a transaction in flight: the dirty close aborts it, then producer, main consumer and restore consumer are closed', () => {
    const t = thread({ running: 'committing' }, { uncommitted: 2, positions: { 'in-0': 2 } });
    const fx = t.reply('st.producer', { call: 'commitTransaction', ok: false, error: 'INVALID_RECORD' });
    expect(t.context().stopped).toBe('commitTransaction failed with INVALID_RECORD: StreamsException, the stream thread dies');
    expect(calls(fx)).toEqual(['abortTransaction→st.producer']);
    expect(cancels(fx)).toEqual(expect.arrayContaining(['continue', 'commitDue']));
    expect(t.state()).toBe('shuttingDown.aborting');
    // the abort's error is swallowed (TaskManager.executeAndMaybeSwallow): the producer is closed next
    expect(calls(t.reply('st.producer', { call: 'abortTransaction', ok: false, error: 'INVALID_RECORD' }))).toEqual(['close→st.producer']);
    expect(t.state()).toBe('shuttingDown.closingProducer');
    closesTheRest(t);
  });

  it('an abort that does not return within max.block.ms: swallowed, the shutdown goes on', () => {
    const t = thread({ running: 'committing' }, { uncommitted: 2 });
    t.reply('st.producer', { call: 'commitTransaction', ok: false, error: 'INVALID_RECORD' });
    expect(calls(t.timer('abortTimeout', 60500))).toEqual(['close→st.producer']);
    expect(t.state()).toBe('shuttingDown.closingProducer');
  });

  it('at_least_once (a failed commitSync that is not a CommitFailedException): no transaction, the producer is closed first', () => {
    const t = thread(
      { running: 'committing' },
      { uncommitted: 2, commitOffsets: { 'in-0': 2 } },
      { guarantee: 'at_least_once', commitIntervalMs: 30000 },
    );
    const fx = t.reply('st.consumer', { call: 'commitSync', ok: false, error: 'RebalanceInProgressException' });
    expect(calls(fx)).toEqual(['close→st.producer']);
    expect(t.state()).toBe('shuttingDown.closingProducer');
    closesTheRest(t);
  });

  it('a failed initTransactions(): nothing to abort; every client is closed', () => {
    const t = thread({ restoring: 'initializingTransactions' });
    expect(calls(t.reply('st.producer', { call: 'initTransactions', ok: false, error: 'INVALID_TRANSACTION_TIMEOUT' }))).toEqual([
      'close→st.producer',
    ]);
    closesTheRest(t);
  });
});

describe("a whole run: counter-a's thread dies after its consumer joined (InitProducerId answered INVALID_TRANSACTION_TIMEOUT)", () => {
  const scenario = JSON.parse(readFileSync(join(import.meta.dirname, 'scenarios', 'thread-dies-leaves-group.json'), 'utf8')) as Scenario;
  const run = runWith(scenario);
  const steps = [...Array(run.trace.steps.length).keys()].map((i) => run.trace.steps.at(i));
  const died = steps.findIndex((s) => s?.actor === 'counter-a.app' && s.after.startsWith('shuttingDown'));

  it("counter-a's consumer was assigned page-views-0 before the thread died", () => {
    expect(died).toBeGreaterThan(0);
    const assigned = steps.findIndex(
      (s) => s?.actor === 'counter-a.consumer' && s.label === 'SyncGroupResponse' && s.after.includes('STABLE'),
    );
    expect(assigned).toBeGreaterThan(0);
    expect(assigned).toBeLessThan(died);
  });

  it('the thread closes its producer, its main consumer (which sends a LeaveGroup) and its restore consumer, and is DEAD', () => {
    const closed = steps.slice(died).filter((s) => s?.label === 'close' && s.kind === 'call' && s.from === 'counter-a.app');
    expect(closed.map((s) => s?.actor)).toEqual(['counter-a.producer', 'counter-a.consumer', 'counter-a.restore']);
    expect(closed.map((s) => s?.after)).toEqual(['live.UNINITIALIZED', 'closed', 'closed']);
    expect(steps.some((s) => s?.actor === 'group-coordinator' && s.label === 'LeaveGroup')).toBe(true);
    expect(run.summary.streams.find((s) => s.id === 'counter-a')?.state).toBe('stopped');
    // the closed consumer sends nothing more: no heartbeat, no fetch
    const lastClose = steps.findIndex((s) => s?.actor === 'counter-a.consumer' && s.label === 'close');
    expect(steps.slice(lastClose + 1).filter((s) => s?.actor === 'counter-a.consumer' && s.sent.length > 0)).toEqual([]);
    const consumerClose = steps.indexOf(closed[1]);
    expect(narrate(run.trace, consumerClose, 'en')).toContain('unsubscribe() sends a LeaveGroup first');
    expect(narrate(run.trace, consumerClose, 'ko')).toContain('LeaveGroup을 보내므로');
  });

  it('page-views-0 moves to counter-b at once, which processes every view: nothing is lost', () => {
    const toB = steps.findIndex(
      (s, i) =>
        i > died && s?.actor === 'counter-b.consumer' && s.label === 'SyncGroupResponse' && s.after.includes('ASSIGNED.INITIALIZING'),
    );
    expect(toB).toBeGreaterThan(died);
    // well before session.timeout.ms (45 s) after the death
    expect((steps[toB]?.t ?? Infinity) - (steps[died]?.t ?? 0)).toBeLessThan(45000);
    expect(run.layer('processing', 'counter-b')?.status).toBe('once');
    expect(run.layer('loss')?.status).toBe('once');
    expect(storeOf(run.summary.streams.find((s) => s.id === 'counter-b'))).toEqual({ 'page-a': 2, 'page-b': 1 });
  });
});
