/**
 * A task newly assigned to a thread that already runs tasks (Kafka 4.x, the state updater on by
 * default: StreamsConfig.InternalConfig.STATE_UPDATER_ENABLED defaults to true):
 * TaskManager.handleAssignment → createNewTasks puts it in `pendingTasksToInit`; the stream thread's
 * next loop (checkStateUpdater → addTasksToStateUpdater) initialises it and hands it to the state
 * updater, which restores its changelog partition; handleRestoredTasksFromStateUpdater →
 * transitRestoredTaskToRunning adds it to the running tasks. Nothing there commits or aborts: the
 * running tasks keep their stores and the exactly_once_v2 transaction open over their work, and the
 * new task's records go into that transaction.
 */
import { describe, expect, it } from 'vitest';
import { type Draft, initialContext } from '../../src/sim/streams/streamThreadContext';
import { threadAt } from './threadAt';
import { assignment, callNames, changelogRecord, inputRecord, reply } from './threadEvents';
import { THREAD_INPUT } from './threadInput';

const CHANGELOG_0 = 'app-count-store-changelog-0';
const CHANGELOG_1 = 'app-count-store-changelog-1';

/**
 * The thread in `value` running the task of in-0 (its store a=2, two records processed since the
 * last commit: under exactly_once_v2 its transaction is open), poll() out; the assignment of
 * `assigned` has come meanwhile.
 */
function runningTask(value: Record<string, string>, assigned: string[], over: Partial<Draft> = {}) {
  return threadAt(value, {
    ...initialContext(THREAD_INPUT),
    pollOutstanding: true,
    assigned,
    owned: ['in-0'],
    stores: { 0: { a: 2 } },
    uncommitted: 2,
    lastCommitAt: 0,
    transactionsInitialized: true,
    ...over,
  });
}

describe('a new task neither aborts nor waits for the open transaction (TaskManager.checkStateUpdater)', () => {
  it('exactly_once_v2, a transaction open across polls: the state updater restores the new task while the batch goes on in the same transaction', () => {
    const t = runningTask({ running: 'pollingInTransaction' }, ['in-0', 'in-1']);
    const batch = { call: 'poll', records: [inputRecord(0, 2), inputRecord(1, 0)], positions: { 'in-0': 3, 'in-1': 1 } };
    // no abortTransaction: the new task's restore starts, and in-0's record runs in the open transaction
    const fx = t.send(reply('st.consumer', batch, 50));
    expect(callNames(fx)).toEqual(['endOffsets→st.restore']);
    expect(t.state()).toBe('running.processing');
    expect(t.context().uncommitted).toBe(2);
    expect(t.context().stores).toEqual({ 0: { a: 2 } });
    expect(t.context().batch).toEqual([inputRecord(0, 2)]);
    expect(t.context().paused?.records).toEqual([inputRecord(1, 0)]);
    // the restore reads to the new task's changelog end only: in-0's changelog partition, where this
    // thread's own open transaction keeps the read_committed restore consumer behind offset 9, is not waited for
    t.send(reply('st.restore', { call: 'endOffsets', offsets: { [CHANGELOG_0]: 9, [CHANGELOG_1]: 2 } }, 51));
    expect(t.context().restoreEnd).toEqual({ [CHANGELOG_1]: 2 });
    expect(callNames(t.send(reply('st.restore', { call: 'seekToBeginning' }, 52)))).toEqual(['poll→st.restore']);
    const changelog = [changelogRecord(0, 0, 'a', '1'), changelogRecord(1, 0, 'b', '1'), changelogRecord(1, 1, 'b', '2')];
    const done = t.send(reply('st.restore', { call: 'poll', records: changelog, positions: { [CHANGELOG_0]: 1, [CHANGELOG_1]: 2 } }, 53));
    expect(callNames(done)).toEqual([]);
    // the running task's store is its own (not rebuilt from its changelog); the new one's restored
    expect(t.context().stores).toEqual({ 0: { a: 2 }, 1: { b: 2 } });
    expect(t.context().owned).toEqual(['in-0', 'in-1']);
    expect(t.context().heldBatch?.records).toEqual([inputRecord(1, 0)]);
    // in-0's record counted on top of the running store, then in-1's into the new task's store
    const calls: string[] = [];
    for (let i = 0; i < 40 && t.state().startsWith('running.processing'); i++) {
      const out = t.send({ type: 'continue', now: 60 + i, key: 'continue', data: {} });
      calls.push(...callNames(out));
      if (callNames(out).includes('send→st.producer')) t.send(reply('st.producer', { call: 'send' }, 60 + i));
    }
    expect(calls).not.toContain('beginTransaction→st.producer');
    expect(t.context().stores).toEqual({ 0: { a: 3 }, 1: { b: 2, a: 1 } });
    expect(t.context().uncommitted).toBe(4);
  });

  it('a commit under way ends as it would (Kafka commits before the poll() that brings the assignment); the running store is kept', () => {
    const t = runningTask({ running: 'committingWhilePolling' }, ['in-0', 'in-1']);
    const batch = { call: 'poll', records: [inputRecord(1, 0)], positions: { 'in-0': 2, 'in-1': 1 } };
    expect(callNames(t.send(reply('st.consumer', batch, 150)))).toEqual([]);
    expect(t.state()).toBe('running.committingBeforeNewTask');
    // committed: the state updater restores the new task, the thread runs the batch in a new transaction
    expect(callNames(t.send(reply('st.producer', { call: 'commitTransaction' }, 160)))).toEqual([
      'endOffsets→st.restore',
      'beginTransaction→st.producer',
    ]);
    expect(t.state()).toBe('running.processing');
    expect(t.context().stores).toEqual({ 0: { a: 2 } });
    expect(t.context().restoring).toEqual([1]);
    expect(t.context().paused?.records).toEqual([inputRecord(1, 0)]);
  });

  it('from running.polling: only the new task is restored, the running task keeps its store', () => {
    const t = runningTask({ running: 'polling' }, ['in-0'], { uncommitted: 0 });
    expect(callNames(t.send(assignment([0, 1], 200)))).toEqual(['partitionsAssignedDone→st.consumer', 'endOffsets→st.restore']);
    expect(t.state()).toBe('running.polling');
    // the new task's changelog partition is empty: restored at once, in-0's changelog not read again
    t.send(reply('st.restore', { call: 'endOffsets', offsets: { [CHANGELOG_0]: 3, [CHANGELOG_1]: 0 } }, 201));
    expect(t.state()).toBe('running.polling');
    expect(t.context().updating).toEqual([]);
    expect(t.context().stores).toEqual({ 0: { a: 2 } });
  });

  it("a task no longer assigned is closed with its store (TaskManager.handleAssignment's tasksToCloseClean)", () => {
    const t = runningTask({ running: 'polling' }, ['in-0', 'in-1'], {
      owned: ['in-0', 'in-1'],
      stores: { 0: { a: 2 }, 1: { b: 1 } },
      uncommitted: 0,
    });
    t.send(assignment([0], 300));
    expect(t.context().owned).toEqual(['in-0']);
    expect(t.context().stores).toEqual({ 0: { a: 2 } });
  });
});
