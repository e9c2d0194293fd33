/**
 * Kafka 4.x's state updater restores a new task on its own thread while the stream thread goes on
 * (StreamThread.runOnceWithoutProcessingThreads: poll, process, maybeCommit; checkStateUpdater each
 * pass): the running tasks' records are processed and committed every commit.interval.ms during the
 * restore, the new task's input partitions stay paused (TaskManager.handleRebalanceComplete), and
 * once restored TaskManager.transitRestoredTaskToRunning adds it to the running tasks and resumes its
 * partitions with no commit — under exactly_once_v2 its records go into the thread's open transaction.
 */
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../src/sim/kernel/effects';
import { translateNote } from '../../src/sim/narration';
import { initialContext } from '../../src/sim/streams/streamThreadContext';
import { threadAt } from './threadAt';
import { assignment, changelogRecord, inputRecord, notes, reply, timer } from './threadEvents';
import { THREAD_INPUT } from './threadInput';

const CHANGELOG_1 = 'app-count-store-changelog-1';

type Thread = ReturnType<typeof threadAt>;
type Call = { name: string; to: string; args?: Record<string, unknown> };

/**
 * Runs what the thread does on its own at `now`: its `continue` steps, and its producer's answers
 * (every producer call answered at once). The calls it made are returned; the main and restore
 * consumers' calls are left for the test to answer.
 */
function settle(t: Thread, first: readonly Effect[], now: number): Call[] {
  const calls: Call[] = [];
  const queue = [...first];
  for (let n = 0; n < 200 && queue.length > 0; n++) {
    const e = queue.shift() as Effect;
    if (e.type === 'call') {
      calls.push({ name: e.name, to: e.to, args: e.args });
      if (e.to === 'st.producer') queue.push(...t.send(reply('st.producer', { call: e.name }, now)));
    } else if (e.type === 'timer' && e.name === 'continue') queue.push(...t.send(timer('continue', now)));
  }
  return calls;
}
const names = (calls: readonly Call[]) => calls.map((c) => `${c.name}→${c.to}`);
const producerSends = (calls: readonly Call[]) =>
  calls.filter((c) => c.name === 'send').map((c) => `${c.args?.topic}-${c.args?.partition ?? 'k'}:${c.args?.value}`);

/** The thread running the task of in-0 (store a=2), nothing uncommitted, poll() out; in-1 is then assigned to it. */
function withNewTask(now: number): { t: Thread; calls: Call[] } {
  const t = threadAt(
    { running: 'polling' },
    {
      ...initialContext(THREAD_INPUT),
      pollOutstanding: true,
      assigned: ['in-0'],
      owned: ['in-0'],
      stores: { 0: { a: 2 } },
      positions: { 'in-0': 5 },
      lastCommitAt: now - 50,
      transactionsInitialized: true,
    },
  );
  return { t, calls: settle(t, t.send(assignment([0, 1], now)), now) };
}

/** The restore consumer has read in-1's changelog up to offset 1 of 3 (b=1): the restore is under way. */
function restoreUnderWay(t: Thread, now: number): void {
  t.send(reply('st.restore', { call: 'endOffsets', offsets: { 'app-count-store-changelog-0': 9, [CHANGELOG_1]: 3 } }, now));
  t.send(reply('st.restore', { call: 'seekToBeginning' }, now + 1));
  t.send(reply('st.restore', { call: 'poll', records: [changelogRecord(1, 0, 'b', '1')], positions: { [CHANGELOG_1]: 1 } }, now + 2));
  expect(t.context().updating).toEqual(['in-1']);
}

describe('the state updater restores a new task while the stream thread goes on (DefaultStateUpdater)', () => {
  it("during a long restore the running task's record is processed and its transaction committed on commit.interval.ms", () => {
    const { t, calls } = withNewTask(1000);
    // the restore starts on the restore consumer; the stream thread still polls
    expect(names(calls)).toEqual(['partitionsAssignedDone→st.consumer', 'endOffsets→st.restore']);
    expect(t.state()).toBe('running.polling');
    restoreUnderWay(t, 1001);
    // a poll() answer for the running task: processed at once, inside a transaction
    const batch = { call: 'poll', records: [inputRecord(0, 5)], positions: { 'in-0': 6, 'in-1': 0 } };
    const ran = settle(t, t.send(reply('st.consumer', batch, 1010)), 1010);
    expect(names(ran)).toContain('beginTransaction→st.producer');
    expect(producerSends(ran)).toEqual(['app-count-store-changelog-0:3', 'out-k:3']);
    expect(t.context().stores[0]).toEqual({ a: 3 });
    expect(t.state()).toBe('running.pollingInTransaction');
    // commit.interval.ms passes, the restore still under way: the running task's transaction commits
    const committed = settle(t, t.send(timer('commitDue', 1060)), 1060);
    expect(names(committed)).toEqual(['flush→st.producer', 'sendOffsetsToTransaction→st.producer', 'commitTransaction→st.producer']);
    expect(t.context().uncommitted).toBe(0);
    expect(t.context().updating).toEqual(['in-1']);
    expect(t.context().stores[1]).toEqual({ b: 1 });
  });

  it("the new task's partition is not processed, nor its offset committed, until its restore ends", () => {
    const { t } = withNewTask(1000);
    restoreUnderWay(t, 1001);
    const batch = { call: 'poll', records: [inputRecord(0, 5), inputRecord(1, 0, 'b')], positions: { 'in-0': 6, 'in-1': 1 } };
    const ran = settle(t, t.send(reply('st.consumer', batch, 1010)), 1010);
    // only in-0's record: in-1's waits (its partition paused), its store the restore's alone
    expect(producerSends(ran)).toEqual(['app-count-store-changelog-0:3', 'out-k:3']);
    expect(t.context().paused?.records).toEqual([inputRecord(1, 0, 'b')]);
    const committed = settle(t, t.send(timer('commitDue', 1060)), 1060);
    const offsets = committed.find((c) => c.name === 'sendOffsetsToTransaction')?.args?.offsets;
    expect(offsets).toEqual([{ topic: 'in', partition: 0, offset: 6 }]);
    expect(t.context().stores[1]).toEqual({ b: 1 });
  });

  it("after the restore the new task's records join the open transaction, with no commit between", () => {
    const { t } = withNewTask(1000);
    restoreUnderWay(t, 1001);
    const batch = { call: 'poll', records: [inputRecord(0, 5), inputRecord(1, 0, 'b')], positions: { 'in-0': 6, 'in-1': 1 } };
    settle(t, t.send(reply('st.consumer', batch, 1010)), 1010);
    expect(t.state()).toBe('running.pollingInTransaction');
    expect(t.context().uncommitted).toBe(1);
    // the restore ends (b=2): the task runs, its held record next — inside the same transaction
    const last = { call: 'poll', records: [changelogRecord(1, 1, 'b', '2')], positions: { [CHANGELOG_1]: 3 } };
    const fx = t.send(reply('st.restore', last, 1020));
    expect(notes(fx)).toEqual([
      'state store restored from app-count-store-changelog (read_committed): 2 changelog record(s), 1 key(s)',
      'task for in-1 restored: it joins the running tasks with no commit (in-1 resumed), its records going into the open transaction',
    ]);
    expect(t.context().updating).toEqual([]);
    expect(t.context().owned).toEqual(['in-0', 'in-1']);
    const after = settle(t, fx, 1020);
    expect(names(after)).not.toContain('beginTransaction→st.producer');
    expect(names(after)).not.toContain('commitTransaction→st.producer');
    expect(producerSends(after)).toEqual(['app-count-store-changelog-1:3', 'out-k:3']);
    expect(t.context().stores).toEqual({ 0: { a: 3 }, 1: { b: 3 } });
    expect(t.context().uncommitted).toBe(2);
    // the next commit covers both tasks' records and offsets in that one transaction
    const committed = settle(t, t.send(timer('commitDue', 1060)), 1060);
    const offsets = committed.find((c) => c.name === 'sendOffsetsToTransaction')?.args?.offsets;
    expect(offsets).toEqual([
      { topic: 'in', partition: 0, offset: 6 },
      { topic: 'in', partition: 1, offset: 1 },
    ]);
  });

  it("the state updater's notes are told in Korean too", () => {
    const { t } = withNewTask(1000);
    const started = notes(t.send(assignment([0, 1, 2], 1001)));
    const done = notes(t.send(reply('st.restore', { call: 'endOffsets', offsets: { [CHANGELOG_1]: 0 } }, 1002)));
    const texts = [...started, ...done];
    // in-2, assigned during in-1's restore, is taken by the state updater when that restore ends
    expect(texts.map((x) => x.slice(0, 30))).toEqual([
      'state store restored from app-',
      'task for in-1 restored: it joi',
      'task for in-2 newly assigned t',
    ]);
    for (const text of texts) expect(translateNote(text, 'ko'), text).not.toBe(text);
  });

  it('a poll() answer that comes while the restored task runs is held and processed after it', () => {
    const { t } = withNewTask(1000);
    restoreUnderWay(t, 1001);
    const batch = { call: 'poll', records: [inputRecord(1, 0, 'b')], positions: { 'in-0': 5, 'in-1': 1 } };
    settle(t, t.send(reply('st.consumer', batch, 1010)), 1010);
    expect(t.state()).toBe('running.pollingInTransaction');
    // the restore ends while poll() is out: the held record runs, poll() still out
    const last = { call: 'poll', records: [changelogRecord(1, 1, 'b', '2')], positions: { [CHANGELOG_1]: 3 } };
    t.send(reply('st.restore', last, 1020));
    expect(t.state()).toBe('running.processing');
    expect(t.context().pollOutstanding).toBe(true);
    t.send(reply('st.consumer', { call: 'poll', records: [inputRecord(0, 5)], positions: { 'in-0': 6, 'in-1': 1 } }, 1021));
    expect(t.context().heldBatch?.records).toEqual([inputRecord(0, 5)]);
    const ran = settle(t, [{ type: 'timer', key: 'continue', name: 'continue', delay: 0 }], 1021);
    expect(producerSends(ran)).toEqual(['app-count-store-changelog-1:3', 'out-k:3', 'app-count-store-changelog-0:3', 'out-k:3']);
    expect(t.context().stores).toEqual({ 0: { a: 3 }, 1: { b: 3 } });
  });

  it("onPartitionsRevoked while the restored task's records run with poll() out: answered after a commit at the batch's end", () => {
    const { t } = withNewTask(1000);
    restoreUnderWay(t, 1001);
    const batch = { call: 'poll', records: [inputRecord(0, 5), inputRecord(1, 0, 'b')], positions: { 'in-0': 6, 'in-1': 1 } };
    settle(t, t.send(reply('st.consumer', batch, 1010)), 1010);
    t.send(reply('st.restore', { call: 'poll', records: [changelogRecord(1, 1, 'b', '2')], positions: { [CHANGELOG_1]: 3 } }, 1020));
    expect(t.state()).toBe('running.processing');
    // the main consumer rebalances inside the poll() still out: the listener waits for the work's commit
    const revoked = t.send({ type: 'onPartitionsRevoked', now: 1021, from: 'st.consumer', args: { partitions: [], lost: false } });
    expect(names(revoked.flatMap((e) => (e.type === 'call' ? [{ name: e.name, to: e.to }] : [])))).toEqual([]);
    const ran = settle(t, [{ type: 'timer', key: 'continue', name: 'continue', delay: 0 }], 1022);
    expect(names(ran)).toEqual([
      'send→st.producer',
      'send→st.producer',
      'flush→st.producer',
      'sendOffsetsToTransaction→st.producer',
      'commitTransaction→st.producer',
      'partitionsRevokedDone→st.consumer',
    ]);
    expect(t.context().uncommitted).toBe(0);
  });
});
