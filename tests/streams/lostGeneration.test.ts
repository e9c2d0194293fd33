/**
 * at_least_once and a lost generation (StreamsRebalanceListener.onPartitionsLost →
 * TaskManager.handleLostAll, for every processing mode), and no commit while a rebalance is under
 * way (TaskManager.handleRebalanceStart / handleRebalanceComplete: `rebalanceInProgress`, during
 * which commitTasksAndMaybeUpdateCommittableOffsets returns -1 and StreamThread.maybeCommit skips).
 *
 * Before the fix an at_least_once thread whose generation was gone kept its uncommitted work and its
 * commit timer, and committed in the middle of the rebalance that followed: commitSync failed with
 * RebalanceInProgressException, a StreamsException, and the thread died — and input produced later
 * was never processed (tests/streams/scenarios/alos-lost-generation.json, the audit's
 * alos-migration-late).
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../src/sim/kernel/effects';
import { narrate } from '../../src/sim/narration/narrate';
import type { RecordForApp } from '../../src/sim/protocol/messages';
import type { Scenario } from '../../src/sim/scenario/schema';
import { type Draft, initialContext, type StreamThreadInput } from '../../src/sim/streams/streamThreadContext';
import { runWith } from '../presets/helpers';
import { storeOf } from './storeOf';
import { threadAt } from './threadAt';
import { THREAD_INPUT } from './threadInput';

const ALOS: StreamThreadInput = { ...THREAD_INPUT, guarantee: 'at_least_once', commitIntervalMs: 30000 };

/** The thread in `value`, at_least_once, with this context; each send() returns the calls and cancels it emitted. */
function thread(value: string | Record<string, string>, over: Partial<Draft> = {}) {
  const context = { ...initialContext(ALOS), ...over };
  const t = threadAt(value, context);
  const send = t.send;
  return {
    lost: (now = 40000) => send({ type: 'onPartitionsRevoked', now, from: 'st.consumer', args: { partitions: [], lost: true } }),
    assign: (partitions: number[], now = 40005) =>
      send({
        type: 'onPartitionsAssigned',
        now,
        from: 'st.consumer',
        args: { partitions: partitions.map((partition) => ({ topic: 'in', partition })) },
      }),
    revoked: (now = 40000) => send({ type: 'onPartitionsRevoked', now, from: 'st.consumer', args: { partitions: [], lost: false } }),
    rebalanceStart: (now = 40000) => send({ type: 'onRebalanceStart', now, from: 'st.consumer', args: {} }),
    commitDue: (now: number) => send({ type: 'commitDue', now, key: 'commitDue', data: {} }),
    step: (now: number) => send({ type: 'continue', now, key: 'continue', data: {} }),
    reply: (from: string, args: Record<string, unknown>, now = 40010) =>
      send({ type: 'reply', now, from, args: { ok: true, error: null, ...args } }),
    state: t.state,
    context: t.context,
  };
}
const calls = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'call' ? [`${e.name}→${e.to}`] : []));
const cancels = (fx: readonly Effect[]) => fx.flatMap((e) => (e.type === 'cancel' ? [e.key] : []));
const rec = (offset: number): RecordForApp => ({
  topic: 'in',
  partition: 0,
  offset,
  key: 'a',
  value: 'v',
  headers: { event_id: `e${offset}` },
});

/** Three records processed since the last commit (at 0), poll() out. */
const WORK: Partial<Draft> = { uncommitted: 3, pollOutstanding: true, positions: { 'in-0': 3 }, stores: { 0: { a: 3 } }, owned: ['in-0'] };

describe('at_least_once onPartitionsLost: handleLostAll closes the task dirty (StreamsRebalanceListener, TaskManager.handleLostAll)', () => {
  it('the listener returns at once, nothing is committed, the uncommitted work and its commit timer are dropped, and the task is restored', () => {
    const t = thread({ running: 'polling' }, { ...WORK, assigned: ['in-0'] });
    const fx = t.lost();
    // no flush, no commitSync: the generation is gone
    expect(calls(fx)).toEqual(['partitionsRevokedDone→st.consumer']);
    expect(cancels(fx)).toContain('commitDue');
    expect(t.context().uncommitted).toBe(0);
    expect(t.state()).toBe('running.polling');
    expect(t.context().stores).toEqual({});
    expect(t.context().owned).toEqual([]);
    // the task is created again at the next assignment: its store restored from the changelog before it processes
    expect(calls(t.assign([0]))).toEqual(['partitionsAssignedDone→st.consumer', 'endOffsets→st.restore']);
    expect(t.state()).toBe('restoring.readingEndOffsets');
    // the thread's commit clock is not restarted by the dirty close
    expect(t.context().lastCommitAt).toBe(0);
    // the poll() the listener ran in is still out: its answer waits for the restore
    expect(t.context().pollOutstanding).toBe(true);
    // whereas onPartitionsRevoked (the generation still valid) commits first
    expect(calls(thread({ running: 'polling' }, WORK).revoked())).toEqual(['flush→st.producer']);
  });

  it('nothing uncommitted: the task is still closed dirty and created again', () => {
    const t = thread({ running: 'polling' }, { pollOutstanding: true, stores: { 0: { a: 2 } }, assigned: ['in-0'], owned: ['in-0'] });
    expect(calls(t.lost())).toEqual(['partitionsRevokedDone→st.consumer']);
    expect(t.context().stores).toEqual({});
    expect(calls(t.assign([0]))).toEqual(['partitionsAssignedDone→st.consumer', 'endOffsets→st.restore']);
    expect(t.state()).toBe('restoring.readingEndOffsets');
  });
});

describe('no commit between the JoinGroup and the assignment (TaskManager.rebalanceInProgress, StreamThread.maybeCommit)', () => {
  it('the listener returning starts the rebalance; a poll() answer during it does not end it, the assignment does', () => {
    const t = thread({ running: 'polling' }, { pollOutstanding: true });
    t.revoked();
    expect(t.context().rebalanceInProgress).toBe(true);
    // COOPERATIVE: poll() returns the owned partitions' records while the rebalance goes on
    t.reply('st.consumer', { call: 'poll', records: [rec(0)], positions: { 'in-0': 1 } });
    expect(t.context().rebalanceInProgress).toBe(true);
    // onPartitionsAssigned → TaskManager.handleRebalanceComplete
    t.assign([0]);
    expect(t.context().rebalanceInProgress).toBe(false);
  });

  it('the COOPERATIVE main consumer rejoining (handleRebalanceStart, no revocation) starts it too', () => {
    const t = thread({ running: 'polling' }, { pollOutstanding: true });
    expect(calls(t.rebalanceStart())).toEqual([]);
    expect(t.context().rebalanceInProgress).toBe(true);
    expect(t.state()).toBe('running.polling');
  });

  it('commit.interval.ms passing while poll() waits in a rebalance: no commit; the first batch after the assignment commits', () => {
    const t = thread({ running: 'polling' }, { ...WORK, rebalanceInProgress: true });
    expect(calls(t.commitDue(30001))).toEqual([]);
    expect(t.state()).toBe('running.polling');
    expect(t.context().uncommitted).toBe(3);
    // the assignment is done: the batch's commit step finds the commit overdue
    t.assign([0], 30090);
    t.reply('st.consumer', { call: 'poll', records: [], positions: { 'in-0': 3 } }, 30100);
    expect(t.state()).toBe('running.processing');
    expect(calls(t.step(30100))).toEqual(['flush→st.producer']);
    expect(t.state()).toBe('running.committing');
  });

  it("a batch's commit step in a rebalance is skipped, not failed", () => {
    const t = thread(
      { running: 'processing' },
      { ...WORK, pollOutstanding: false, rebalanceInProgress: true, plan: [{ kind: 'commit' }], batch: [rec(2)] },
    );
    expect(calls(t.step(30001))).toEqual([]);
    expect(t.state()).toBe('running.processing');
    expect(t.context().step).toBe(1);
  });
});

describe('the audit run: counter-a frozen past session.timeout.ms under at_least_once', () => {
  const scenario = JSON.parse(readFileSync(join(import.meta.dirname, 'scenarios', 'alos-lost-generation.json'), 'utf8')) as Scenario;
  const run = runWith(scenario);
  const steps = [...Array(run.trace.steps.length).keys()].map((i) => run.trace.steps.at(i));
  const notes = run.facts('note').map((f) => f.text);

  it('counter-a is told its partitions are lost, commits nothing in the rebalance, and its thread lives', () => {
    const lost = steps.findIndex((s) => s?.actor === 'counter-a.app' && s.label === 'onPartitionsRevoked');
    expect(lost).toBeGreaterThan(0);
    expect((steps[lost]?.detail as { lost?: boolean } | undefined)?.lost).toBe(true);
    expect(
      notes.some((n) => n.startsWith("onPartitionsLost (this member's generation is gone): its task is closed dirty — 5 record(s)")),
    ).toBe(true);
    expect(narrate(run.trace, lost, 'en')).toContain('its task is closed dirty — 5 records processed since the last commit dropped');
    expect(narrate(run.trace, lost, 'ko')).toContain('마지막 커밋 뒤에 처리한 레코드 5개는 버리고 커밋된 offset부터 다시 처리합니다');
    // between the lost generation and counter-a's next assignment, no commitSync from counter-a
    const assigned = steps.findIndex(
      (s, i) => i > lost && s?.actor === 'counter-a.consumer' && s.label === 'SyncGroupResponse' && s.after.includes('STABLE'),
    );
    expect(assigned).toBeGreaterThan(lost);
    expect(steps.slice(lost, assigned).filter((s) => s?.actor === 'counter-a.consumer' && s.label === 'commitSync')).toEqual([]);
    expect(notes.filter((n) => n.includes('StreamsException'))).toEqual([]);
    expect(run.errors('counter-a')).not.toContain('RebalanceInProgressException');
    expect(run.summary.streams.find((s) => s.id === 'counter-a')?.state).toMatch(/^running\./);
  });

  it('view-6, produced after the wake-up, is processed: nothing is lost (by counter-b, which keeps the task counter-a lost)', () => {
    expect(run.layer('loss')?.status).toBe('once');
    expect(run.layer('processing', 'counter-a')?.sentence).not.toContain('never processed');
    const processed = run
      .facts('processed')
      .filter((f) => f.eventId === 'view-6' && f.topic === 'page-views')
      .map((f) => f.app);
    // StreamsPartitionAssignor (COOPERATIVE, sticky): counter-a rejoins owning nothing, so the task
    // stays with counter-b, which took it when counter-a was dropped
    expect(processed).toEqual(['counter-b']);
    expect(storeOf(run.summary.streams.find((s) => s.id === 'counter-b'))['page-a']).toBeGreaterThanOrEqual(4);
  });
});
