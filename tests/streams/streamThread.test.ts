/**
 * The stream thread's rules, handler by handler (no kernel): what count() and groupBy drop, the
 * order poll → assignment → initTransactions → restore, a restore that reads only its own consumer's answers, the
 * TaskMigratedException path (abort, new producer, rejoin) and a clock that never turns NaN.
 */

import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { Out } from '../../src/sim/actors/out';
import type { Effect } from '../../src/sim/kernel/effects';
import { stateValueToString } from '../../src/sim/kernel/stateValue';
import type { RecordForApp } from '../../src/sim/protocol/messages';
import { applyChangelog, countSkipReason, selectedKey } from '../../src/sim/streams/aggregate';
import { closeDirty, closeProducer, isTaskMigrated } from '../../src/sim/streams/migration';
import { commitIsDue, planFor, runStep } from '../../src/sim/streams/processing';
import { startProcess, startRestore } from '../../src/sim/streams/restore';
import { streamThreadMachine } from '../../src/sim/streams/streamThread.machine';
import { type Draft, initialContext, type StreamThreadInput } from '../../src/sim/streams/streamThreadContext';
import { inputOf } from '../machines/harness';
import { threadAt, threadFromBoot } from './threadAt';
import { THREAD_INPUT } from './threadInput';

const INPUT = THREAD_INPUT;

const draft = (over: Partial<Draft> = {}, input: Partial<StreamThreadInput> = {}): Draft => ({
  ...initialContext({ ...INPUT, ...input }),
  ...over,
});
/** The machine started in `value` with this context: send() returns what one event emitted. */
function at(value: string | Record<string, string>, over: Partial<Draft> = {}, input: Partial<StreamThreadInput> = {}) {
  const context = { ...initialContext({ ...INPUT, ...input }), ...over };
  const t = threadAt(value, context);
  return {
    send: (from: string, args: Record<string, unknown>, now = 10): Effect[] =>
      t.send({ type: 'reply', now, from, args: { call: '', ok: true, ...args } }),
    timer: (type: 'continue' | 'commitDue' | 'abortTimeout', now = 10): Effect[] => t.send({ type, now, key: type, data: {} }),
    state: t.state,
    context: t.context,
  };
}
const callNames = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'call' ? [`${e.name}→${e.to}`] : []));
const noteTexts = (fx: readonly Effect[]) =>
  fx.flatMap((e) => (e.type === 'fact' && e.fact.kind === 'note' ? [(e.fact as unknown as { text: string }).text] : []));
const rec = (key: string | null, value: string | null, offset = 0, topic = 'in'): RecordForApp => ({
  topic,
  partition: 0,
  offset,
  key,
  value,
  headers: { event_id: `e${offset}` },
});
const calls = (out: Out) => out.effects.filter((e): e is Extract<Effect, { type: 'call' }> => e.type === 'call');
const notes = (out: Out) =>
  out.effects.flatMap((e) => (e.type === 'fact' && e.fact.kind === 'note' ? [(e.fact as unknown as { text: string }).text] : []));

describe('what count() and groupBy count (KStreamAggregate, InternalStreamsBuilder.rewriteRepartitionNodes)', () => {
  it('count() skips a null key or a null value', () => {
    expect(countSkipReason({ key: null, value: 'v' })).toBe('null key');
    expect(countSkipReason({ key: 'k', value: null })).toBe('null value');
    expect(countSkipReason({ key: 'k', value: 'v' })).toBeNull();
  });

  it('groupBy selects the key or the value; null when that field is null', () => {
    expect(selectedKey({ key: 'k', value: 'v' }, 'key')).toBe('k');
    expect(selectedKey({ key: 'k', value: 'v' }, 'value')).toBe('v');
    expect(selectedKey({ key: 'k', value: null }, 'value')).toBeNull();
    expect(selectedKey({ key: null, value: 'v' }, 'key')).toBeNull();
  });

  it('plans a drop for a null key or value, a filter for a null selected key', () => {
    const plain = planFor(draft(), [rec('a', 'x', 0), rec(null, 'y', 1), rec('b', null, 2)]);
    expect(plain).toEqual([
      { kind: 'count', i: 0 },
      { kind: 'changelog', i: 0 },
      { kind: 'output', i: 0 },
      { kind: 'drop', i: 1 },
      { kind: 'drop', i: 2 },
      { kind: 'commit' },
    ]);
    const byValue = draft({}, { repartitionTopic: 'app-count-store-repartition', groupBy: 'value' });
    expect(planFor(byValue, [rec('a', null, 0), rec(null, 'v', 1)])).toEqual([
      { kind: 'filter', i: 0 },
      { kind: 'repartition', i: 1 },
      { kind: 'commit' },
    ]);
    // re-keyed with a null value: it reaches the repartition topic, and count() drops it there
    const byKey = draft({}, { repartitionTopic: 'app-count-store-repartition', groupBy: 'key' });
    expect(planFor(byKey, [rec('a', null, 0), rec('a', null, 0, 'app-count-store-repartition')])).toEqual([
      { kind: 'repartition', i: 0 },
      { kind: 'drop', i: 1 },
      { kind: 'commit' },
    ]);
  });

  it('a dropped record is not counted, not written, but its offset is committed and the metric counts it', () => {
    const d = draft({ batch: [rec(null, 'y', 4)], plan: [{ kind: 'drop', i: 0 }, { kind: 'commit' }] });
    const out = new Out();
    runStep(d, 10, out);
    expect(d.stores).toEqual({});
    expect(d.droppedRecords).toBe(1);
    expect(d.uncommitted).toBe(1);
    expect(calls(out)).toEqual([]);
    expect(notes(out)).toEqual([
      'skipping record due to null key or value: topic=[in] partition=[0] offset=[4] — count() drops it (dropped-records metric +1)',
    ]);
  });

  it('groupBy with a null selected key sends nothing to the repartition topic', () => {
    const d = draft(
      { batch: [rec('k', null, 2)], plan: [{ kind: 'filter', i: 0 }, { kind: 'commit' }] },
      { repartitionTopic: 'app-count-store-repartition', groupBy: 'value' },
    );
    const out = new Out();
    runStep(d, 10, out);
    expect(calls(out)).toEqual([]);
    expect(d.uncommitted).toBe(1);
    expect(notes(out)[0]).toMatch(/^groupBy selected a null key for topic=\[in\] partition=\[0\] offset=\[2\]/);
  });
});

describe('restoring the store (StoreChangelogReader)', () => {
  it('applies only records below the end offset; a null value deletes the key', () => {
    const cl = (offset: number, key: string | null, value: string | null) => ({
      topic: 'cl',
      partition: 0,
      offset,
      key,
      value,
    });
    const r = applyChangelog({ 0: { z: 9 } }, [cl(0, 'a', '1'), cl(1, 'a', '2'), cl(2, null, '5'), cl(3, 'z', null), cl(4, 'a', '3')], {
      'cl-0': 4,
    });
    expect(r.stores).toEqual({ 0: { a: 2 } });
    expect(r.applied).toBe(3);
  });

  it('exactly_once_v2: the thread polls first; a task the assignment creates calls initTransactions(), and its restore starts when it returns', () => {
    // StreamTask.initializeIfNeeded → RecordCollectorImpl.initialize → StreamsProducer.initTransaction:
    // not at the thread's start, at its first task's initialisation
    const d = draft();
    startProcess(d, 5);
    expect(d.transactionsInitialized).toBe(false);
    const t = threadFromBoot(INPUT);
    expect(callNames(t.send({ type: 'boot', now: 0 }))).toEqual(['poll→st.consumer']);
    expect(t.state()).toBe('running.polling');
    const assigned = t.send({
      type: 'onPartitionsAssigned',
      now: 5,
      from: 'st.consumer',
      args: { partitions: [{ topic: 'in', partition: 0 }] },
    });
    expect(callNames(assigned)).toEqual(['partitionsAssignedDone→st.consumer', 'initTransactions→st.producer']);
    expect(t.state()).toBe('restoring.initializingTransactions');
    // initTransactions() returned: the restore starts (the producer's transactions stay initialised)
    const m = at({ restoring: 'initializingTransactions' }, { assigned: ['in-0'], owned: ['in-0'] });
    expect(callNames(m.send('st.producer', { call: 'initTransactions', ok: true, error: null }))).toEqual(['endOffsets→st.restore']);
    expect(m.state()).toBe('restoring.readingEndOffsets');
    expect(m.context().transactionsInitialized).toBe(true);
    // a poll() answer meanwhile is held for when the task runs
    const polled = at({ restoring: 'initializingTransactions' }, { assigned: ['in-0'], owned: ['in-0'], pollOutstanding: true });
    expect(callNames(polled.send('st.consumer', { call: 'poll', records: [] }))).toEqual([]);
    expect(polled.state()).toBe('restoring.initializingTransactions');
    expect(polled.context().heldBatch).not.toBeNull();
    // a failed initTransactions() (guard initFailed) kills the thread: it shuts down (shutdown.ts), its producer closed first
    const failed = at({ restoring: 'initializingTransactions' });
    failed.send('st.producer', { call: 'initTransactions', ok: false, error: 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED' });
    expect(failed.state()).toBe('shuttingDown.closingProducer');
  });

  it('exactly_once_v2: initTransactions() once per producer — a later task is restored at once; a new producer initialises again', () => {
    const t = threadFromBoot(INPUT);
    t.send({ type: 'boot', now: 0 });
    t.send({ type: 'onPartitionsAssigned', now: 5, from: 'st.consumer', args: { partitions: [{ topic: 'in', partition: 0 }] } });
    t.send({ type: 'reply', now: 8, from: 'st.producer', args: { call: 'initTransactions', ok: true, error: null } });
    // an empty changelog: restored at once, the thread polls
    t.send({
      type: 'reply',
      now: 9,
      from: 'st.restore',
      args: { call: 'endOffsets', ok: true, offsets: { 'app-count-store-changelog-0': 0 } },
    });
    expect(t.state()).toBe('running.polling');
    // a second task later: no second initTransactions(), its restore starts at once
    const more = t.send({
      type: 'onPartitionsAssigned',
      now: 20,
      from: 'st.consumer',
      args: {
        partitions: [
          { topic: 'in', partition: 0 },
          { topic: 'in', partition: 1 },
        ],
      },
    });
    expect(callNames(more)).toEqual(['partitionsAssignedDone→st.consumer', 'endOffsets→st.restore']);
    // next to a running task: the state updater restores it, the thread still polls (stateUpdater.ts)
    expect(t.state()).toBe('running.polling');
    expect(t.context().updating).toEqual(['in-1']);
    // closing the producer after a TaskMigratedException (StreamsProducer.close) resets it
    const d = draft({ transactionsInitialized: true });
    closeProducer(d, new Out());
    expect(d.transactionsInitialized).toBe(false);
  });

  it('at_least_once polls at once and restores a new task without initTransactions()', () => {
    const out = new Out();
    startProcess(draft({}, { guarantee: 'at_least_once' }), 5);
    expect(calls(out)).toEqual([]);
    const actor = createActor(streamThreadMachine, { input: { ...INPUT, guarantee: 'at_least_once' } });
    actor.start();
    actor.send({ type: 'boot', now: 0 });
    expect(stateValueToString(actor.getSnapshot().value)).toBe('running.polling');
    actor.send({ type: 'onPartitionsAssigned', now: 5, from: 'st.consumer', args: { partitions: [{ topic: 'in', partition: 0 }] } });
    expect(stateValueToString(actor.getSnapshot().value)).toBe('restoring.readingEndOffsets');
  });

  it('reads to the changelog log end offset (read_uncommitted), not the LSO', () => {
    const d = draft();
    const out = new Out();
    startRestore(d, out);
    expect(calls(out)).toEqual([{ type: 'call', to: 'st.restore', name: 'endOffsets', args: { isolationLevel: 'read_uncommitted' } }]);
    const m = at({ restoring: 'readingEndOffsets' });
    expect(callNames(m.send('st.restore', { call: 'endOffsets', offsets: { 'app-count-store-changelog-0': 2 } }))).toEqual([
      'seekToBeginning→st.restore',
    ]);
    expect(m.state()).toBe('restoring.seekingToBeginning');
    expect(callNames(m.send('st.restore', { call: 'seekToBeginning' }))).toEqual(['poll→st.restore']);
    expect(m.state()).toBe('restoring.readingChangelog');
  });

  it("the main consumer's poll() answer is never taken for changelog data: it waits for the task to run", () => {
    const m = at({ restoring: 'readingChangelog' }, { restoreEnd: { 'app-count-store-changelog-0': 2 }, pollOutstanding: true });
    // the first batch of the first assignment (offset 0): no task newly assigned, it runs after the restore
    const batch = { call: 'poll', ok: true, records: [rec('a', 'view', 0)], positions: { 'in-0': 1 } };
    expect(callNames(m.send('st.consumer', batch))).toEqual([]);
    expect(m.context().stores).toEqual({});
    expect(m.context().restorePositions).toEqual({});
    expect(m.context().heldBatch).toEqual(batch);
    expect(m.context().pollOutstanding).toBe(false);
    // the restore consumer's answer is the changelog; at its end the held batch runs (in a new transaction)
    const cl = { ...rec('a', '3', 1, 'app-count-store-changelog') };
    const fx = m.send('st.restore', { call: 'poll', ok: true, records: [cl], positions: { 'app-count-store-changelog-0': 2 } });
    expect(m.context().stores).toEqual({ 0: { a: 3 } });
    expect(m.state()).toBe('running.processing');
    expect(callNames(fx)).toEqual(['beginTransaction→st.producer']);
  });

  it('ignores a restore-consumer answer to a call it is not waiting for', () => {
    const m = at({ restoring: 'seekingToBeginning' }, { restoreEnd: { 'app-count-store-changelog-0': 2 } });
    expect(m.send('st.restore', { call: 'poll', ok: true, records: [rec('a', '3', 1, 'app-count-store-changelog')] })).toEqual([]);
    expect(m.context().stores).toEqual({});
    expect(m.state()).toBe('restoring.seekingToBeginning');
  });
});

describe('TaskMigratedException (StreamsProducer, RecordCollectorImpl, StreamThread.handleTaskMigrated)', () => {
  it('fenced producers and CommitFailedException migrate the task; other errors kill the thread', () => {
    for (const e of [
      'PRODUCER_FENCED',
      'INVALID_PRODUCER_EPOCH',
      'INVALID_PRODUCER_ID_MAPPING',
      'OUT_OF_ORDER_SEQUENCE_NUMBER',
      'CommitFailedException',
    ])
      expect(isTaskMigrated(e), e).toBe(true);
    expect(isTaskMigrated('The producer is in a fatal error state (fenced) and must be closed')).toBe(true);
    for (const e of ['TRANSACTION_ABORTABLE', 'INVALID_RECORD', null]) expect(isTaskMigrated(e), String(e)).toBe(false);
    const killed = at({ running: 'committing' });
    killed.send('st.producer', { call: 'commitTransaction', ok: false, error: 'INVALID_RECORD' });
    expect(killed.context().stopped).toBe('commitTransaction failed with INVALID_RECORD: StreamsException, the stream thread dies');
    expect(killed.state()).toBe('shuttingDown.closingProducer');
    const migrated = at({ running: 'committing' });
    migrated.send('st.producer', { call: 'sendOffsetsToTransaction', ok: false, error: 'INVALID_PRODUCER_EPOCH' });
    expect(migrated.state()).toBe('migrating.aborting');
    // under at_least_once a failed send is only logged: the batch goes on
    const alos = at(
      { running: 'processing' },
      { plan: [{ kind: 'output', i: 0 }, { kind: 'commit' }], batch: [rec('a', 'x', 0)] },
      { guarantee: 'at_least_once' },
    );
    alos.send('st.producer', { call: 'send', ok: false, error: 'INVALID_RECORD' });
    expect(alos.state()).toBe('running.processing');
    expect(alos.context().step).toBe(1);
  });

  it('closes dirty: abort (errors swallowed), a new producer, then the rejoin; stale poll() answers are dropped', () => {
    const d = draft({ stores: { 0: { a: 5 } }, uncommitted: 2, pollOutstanding: true });
    const out = new Out();
    closeDirty(d, out);
    expect(d.stores).toEqual({});
    expect(calls(out).map((c) => c.name)).toEqual(['abortTransaction']);
    expect(out.effects).toContainEqual(expect.objectContaining({ type: 'timer', key: 'abortTimeout', delay: 60000 }));

    const m = at({ migrating: 'aborting' }, { pollOutstanding: true });
    expect(m.send('st.consumer', { call: 'poll', ok: true, records: [rec('a', 'x', 3)] })).toEqual([]);
    expect(m.context().pollOutstanding).toBe(false);
    expect(m.context().heldBatch).toBeNull();
    const a = m.send('st.producer', {
      call: 'abortTransaction',
      ok: false,
      error: 'The producer is in a fatal error state (fenced) and must be closed',
    });
    expect(callNames(a)).toEqual(['close→st.producer']);
    expect(m.state()).toBe('migrating.closingProducer');
    expect(callNames(m.send('st.producer', { call: 'close', ok: true }))).toEqual(['resubscribe→st.consumer']);
    expect(m.state()).toBe('migrating.resubscribing');
    // the new producer's transactions are initialised when the rejoin's assignment creates the task again
    expect(m.context().transactionsInitialized).toBe(false);
    expect(callNames(m.send('st.consumer', { call: 'resubscribe', ok: true }))).toEqual(['poll→st.consumer']);
    expect(m.state()).toBe('running.polling');
  });

  it('an abort that does not return within max.block.ms is given up: the producer is closed', () => {
    const m = at({ migrating: 'aborting' });
    const fx = m.timer('abortTimeout');
    expect(callNames(fx)).toEqual(['close→st.producer']);
    expect(noteTexts(fx)[0]).toMatch(/did not return within max.block.ms=60000/);
    expect(m.state()).toBe('migrating.closingProducer');
  });

  it('a batch taken after the rejoin carries the new generation into sendOffsetsToTransaction', () => {
    // the thread held in-0 before the rebalance, so the batch is no newly assigned task
    const m = at({ running: 'polling' }, { owned: ['in-0'], pollOutstanding: true });
    const fx = m.send('st.consumer', {
      call: 'poll',
      records: [rec('a', 'x', 1)],
      positions: { 'in-0': 2 },
      groupMetadata: { groupId: 'app', generationId: 2, memberId: 'm' },
    });
    expect(m.context().groupMetadata?.generationId).toBe(2);
    expect(callNames(fx)).toEqual(['beginTransaction→st.producer']);
    expect(m.state()).toBe('running.processing');
  });
});

describe('the thread as a machine: a migration and back, with a finite clock', () => {
  it('every deadline it sets is a finite delay, also after events raised inside a step', () => {
    const actor = createActor(streamThreadMachine, { input: INPUT });
    const effects: Effect[] = [];
    actor.on('*', (e) => {
      effects.push(e as unknown as Effect);
    });
    actor.start();
    const send = (e: Record<string, unknown>) => actor.send(e as never);
    const answer = (now: number, from: string, args: Record<string, unknown>) => send({ type: 'reply', now, from, args });
    /** Steps through a batch's plan up to its commit step, answering each send(). */
    const runBatch = (now: number) => {
      for (;;) {
        const { plan, step } = actor.getSnapshot().context;
        const kind = plan[step]?.kind;
        send({ type: 'continue', now });
        if (kind === undefined) return;
        if (kind === 'commit') {
          // not due yet: the commit step passes and the next continue polls
          if (stateValueToString(actor.getSnapshot().value) === 'running.processing') send({ type: 'continue', now });
          return;
        }
        if (kind !== 'count') answer(now, 'st.producer', { call: 'send', ok: true, error: null });
      }
    };
    send({ type: 'boot', now: 0 });
    const assign = (now: number) =>
      send({ type: 'onPartitionsAssigned', now, from: 'st.consumer', args: { partitions: [{ topic: 'in', partition: 0 }] } });
    assign(1);
    answer(2, 'st.producer', { call: 'initTransactions', ok: true, error: null });
    answer(3, 'st.restore', { call: 'endOffsets', ok: true, offsets: { 'app-count-store-changelog-0': 0 } });
    expect(stateValueToString(actor.getSnapshot().value)).toBe('running.polling');
    const groupMetadata = { groupId: 'app', generationId: 1, memberId: 'm' };
    answer(3500, 'st.consumer', { call: 'poll', ok: true, records: [rec('a', 'x', 0)], positions: { 'in-0': 1 }, groupMetadata });
    answer(3500, 'st.producer', { call: 'beginTransaction', ok: true, error: null });
    runBatch(3500);
    // the commit falls on StreamThread's commit clock (from the restore at 3: ticks every 101 ms), at 3538
    send({ type: 'commitDue', key: 'commitDue', now: 3538, data: {} });
    answer(33750, 'st.producer', { call: 'sendOffsetsToTransaction', ok: false, error: 'INVALID_PRODUCER_EPOCH' });
    expect(stateValueToString(actor.getSnapshot().value)).toBe('migrating.aborting');
    answer(33750, 'st.producer', {
      call: 'abortTransaction',
      ok: false,
      error: 'The producer is in a fatal error state (fenced) and must be closed',
    });
    answer(33750, 'st.producer', { call: 'close', ok: true, error: null });
    // the rejoin is confirmed: the thread starts the task again at this reply's time
    answer(33751, 'st.consumer', { call: 'resubscribe', ok: true });
    expect(actor.getSnapshot().value).toEqual({ running: 'polling' });
    expect(actor.getSnapshot().context.lastCommitAt).toBe(33751);
    assign(33755);
    answer(33760, 'st.producer', { call: 'initTransactions', ok: true, error: null });
    answer(33762, 'st.restore', { call: 'endOffsets', ok: true, offsets: { 'app-count-store-changelog-0': 0 } });
    expect(stateValueToString(actor.getSnapshot().value)).toBe('running.polling');
    // the aborted batch again, from the committed offset 0
    answer(33800, 'st.consumer', { call: 'poll', ok: true, records: [rec('b', 'y', 0)], positions: { 'in-0': 1 }, groupMetadata });
    answer(33800, 'st.producer', { call: 'beginTransaction', ok: true, error: null });
    runBatch(33800);
    const timers = effects.filter((e): e is Extract<Effect, { type: 'timer' }> => e.type === 'timer');
    expect(timers.length).toBeGreaterThan(0);
    for (const t of timers) expect(Number.isFinite(t.delay), `${t.key} delay ${t.delay}`).toBe(true);
    expect(timers.some((t) => t.key === 'commitDue')).toBe(true);
    expect(Number.isFinite(actor.getSnapshot().context.clock)).toBe(true);
    actor.stop();
  });
});

describe("the thread's transactional.id (ActiveTaskCreator.producer)", () => {
  it('is <application.id>-<processId>-<threadIdx>, threads counted from 1 (the model: the client id for the process UUID)', () => {
    const scenario = {
      version: 1,
      seed: 1,
      topics: [
        { name: 'in', partitions: 1 },
        { name: 'out', partitions: 1 },
      ],
      clients: [
        {
          id: 'counter',
          type: 'streams',
          config: { 'processing.guarantee': 'exactly_once_v2', 'application.id': 'app' },
          inputTopic: 'in',
          outputTopic: 'out',
        },
      ],
    };
    const producer = inputOf(scenario, 'counter.producer') as { config: Record<string, unknown> };
    expect(producer.config['transactional.id']).toBe('app-counter-1');
  });
});

describe('when a commit is due (StreamThread.maybeCommit)', () => {
  it('once more than commit.interval.ms has passed since the last commit (`now - lastCommitMs > commitTimeMs`), with work to commit', () => {
    const d = draft({ lastCommitAt: 1000, uncommitted: 2 });
    expect(commitIsDue(d, 1100)).toBe(false);
    expect(commitIsDue(d, 1101)).toBe(true);
    expect(commitIsDue({ ...d, uncommitted: 0 }, 5000)).toBe(false);
  });
});
