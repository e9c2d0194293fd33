/**
 * When a stream thread restores a task's store: when the ASSIGNMENT creates the task
 * (StreamsPartitionAssignor.onAssignment → TaskManager.handleAssignment → createNewTasks; the store
 * restored by StoreChangelogReader while the task is RESTORING), never because a position moved.
 * A read_committed poll() that passes over an aborted batch and its marker moves the position with
 * no record: that is not a task another instance committed.
 */
import { describe, expect, it } from 'vitest';
import { type Draft, initialContext } from '../../src/sim/streams/streamThreadContext';
import { runPreset } from '../presets/helpers';
import { threadAt, threadFromBoot } from './threadAt';
import { assignment, callNames, inputRecord, notes, reply } from './threadEvents';
import { THREAD_INPUT } from './threadInput';

const CHANGELOG = 'app-count-store-changelog-0';

/** The machine from its boot, with every effect kept. */
function booted() {
  const thread = threadFromBoot(THREAD_INPUT);
  return { ...thread, restores: () => callNames(thread.all()).filter((c) => c === 'endOffsets→st.restore').length };
}

/** The thread running with the tasks of `owned` (their stores restored, the producer's transactions initialised), poll() out. */
function running(owned: string[], over: Partial<Draft> = {}) {
  return threadAt(
    { running: 'polling' },
    { ...initialContext(THREAD_INPUT), pollOutstanding: true, assigned: owned, owned, transactionsInitialized: true, ...over },
  );
}

describe('a task is created, and its store restored, from the assignment (TaskManager.handleAssignment)', () => {
  it('a position moved past an aborted batch and its marker restores nothing: the first assignment after a start restores once', () => {
    const t = booted();
    expect(callNames(t.send({ type: 'boot', now: 0 }))).toEqual(['poll→st.consumer']);
    // the assignment creates the task: initTransactions() first (exactly_once_v2), then its store is
    // restored before it processes, the poll() still out
    const fx = t.send(assignment([0], 3000));
    expect(callNames(fx)).toEqual(['partitionsAssignedDone→st.consumer', 'initTransactions→st.producer']);
    expect(notes(fx)).toEqual([
      'task for in-0 newly assigned to this instance: it is created and its store restored from the changelog before it processes',
    ]);
    expect(callNames(t.send(reply('st.producer', { call: 'initTransactions' }, 3001)))).toEqual(['endOffsets→st.restore']);
    t.send(reply('st.restore', { call: 'endOffsets', offsets: { [CHANGELOG]: 0 } }, 3002));
    expect(t.state()).toBe('running.polling');
    // read_committed: in-0 offset 0 (an aborted batch) and offset 1 (its marker) passed over — no
    // record, the position at 2, where this thread never committed: the same task, nothing to restore
    t.send(reply('st.consumer', { call: 'poll', records: [], positions: { 'in-0': 2 } }, 3010));
    expect(t.state()).toBe('running.processing');
    expect(t.restores()).toBe(1);
    // and a record after it is processed, with no restore either
    t.send({ type: 'continue', now: 3010, key: 'continue', data: {} });
    t.send(reply('st.consumer', { call: 'poll', records: [inputRecord(0, 2)], positions: { 'in-0': 3 } }, 3020));
    expect(t.state()).toBe('running.processing');
    expect(t.restores()).toBe(1);
  });

  it('the same partitions assigned again (an eager rebalance) are the same tasks: a moved position restores nothing', () => {
    const t = running(['in-0']);
    expect(
      callNames(t.send({ type: 'onPartitionsRevoked', now: 40000, from: 'st.consumer', args: { partitions: [], lost: false } })),
    ).toEqual(['partitionsRevokedDone→st.consumer']);
    expect(callNames(t.send(assignment([0], 40010)))).toEqual(['partitionsAssignedDone→st.consumer']);
    t.send(reply('st.consumer', { call: 'poll', records: [], positions: { 'in-0': 7 } }, 40020));
    expect(t.state()).toBe('running.processing');
  });

  it('a partition newly assigned is restored before it processes; its records that come meanwhile wait for the restore', () => {
    const t = running(['in-0'], { stores: { 0: { a: 4 } } });
    const fx = t.send(assignment([0, 1], 50000));
    expect(callNames(fx)).toEqual(['partitionsAssignedDone→st.consumer', 'endOffsets→st.restore']);
    expect(notes(fx)).toEqual([
      'task for in-1 newly assigned to this instance: the state updater restores its store from the changelog while the running tasks go on processing and committing; in-1 paused until then',
    ]);
    expect(t.state()).toBe('running.polling');
    // in-1 starts at offset 0 — an offset this thread "committed" by default: still a new task
    const batch = { call: 'poll', records: [inputRecord(1, 0)], positions: { 'in-0': 5, 'in-1': 1 } };
    expect(callNames(t.send(reply('st.consumer', batch, 50001)))).toEqual(['beginTransaction→st.producer']);
    expect(t.context().batch).toEqual([]);
    expect(t.context().paused?.records).toEqual([inputRecord(1, 0)]);
    // the restore ends: in-1's records run next, every task of the assignment now here
    t.send(reply('st.restore', { call: 'endOffsets', offsets: { [CHANGELOG]: 0 } }, 50002));
    expect(t.context().heldBatch?.records).toEqual([inputRecord(1, 0)]);
    expect(t.context().owned).toEqual(['in-0', 'in-1']);
    expect(t.context().updating).toEqual([]);
  });

  it('a partition that goes and comes back is a task closed and created again: restored', () => {
    const t = running(['in-0', 'in-1']);
    expect(callNames(t.send(assignment([0], 60000)))).toEqual(['partitionsAssignedDone→st.consumer']);
    expect(t.context().owned).toEqual(['in-0']);
    expect(t.state()).toBe('running.polling');
    expect(callNames(t.send(assignment([0, 1], 70000)))).toEqual(['partitionsAssignedDone→st.consumer', 'endOffsets→st.restore']);
    expect(t.context().updating).toEqual(['in-1']);
  });

  it('an assignment while a restore runs: its new task is restored when that restore ends', () => {
    const t = threadAt(
      { restoring: 'readingChangelog' },
      {
        ...initialContext(THREAD_INPUT),
        pollOutstanding: true,
        assigned: ['in-0'],
        owned: ['in-0'],
        restoreEnd: { [CHANGELOG]: 1 },
        transactionsInitialized: true,
      },
    );
    expect(callNames(t.send(assignment([0, 1], 80000)))).toEqual(['partitionsAssignedDone→st.consumer']);
    const last = { ...inputRecord(0, 0), topic: 'app-count-store-changelog', value: '1' };
    const fx = t.send(reply('st.restore', { call: 'poll', records: [last], positions: { [CHANGELOG]: 1 } }, 80001));
    expect(callNames(fx)).toEqual(['endOffsets→st.restore']);
    // the restore starts over, from its first step
    expect(t.state()).toBe('restoring.readingEndOffsets');
    expect(t.context().owned).toEqual(['in-0', 'in-1']);
  });
});

describe('streams-eos-repartition: the counter restores at its first assignment and at the one after its restart, no more', () => {
  it('two restores, and the verdict the preset expects', () => {
    const run = runPreset('streams-eos-repartition');
    const restored = run.facts('note').filter((n) => n.actor === 'counter.app' && /^state store restored/.test(n.text));
    expect(restored).toHaveLength(2);
    expect(run.facts('note').filter((n) => /newly assigned/.test(n.text))).toHaveLength(2);
    expect(run.layer('output', 'view-counts')?.status).toBe('once');
    expect(run.layer('processing', 'counter')?.status).toBe('more-than-once');
  });
});
