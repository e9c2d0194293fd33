/**
 * Whole runs of Kafka Streams' COOPERATIVE rebalance (ConsumerCoordinator under the COOPERATIVE
 * protocol, StreamsPartitionAssignor's two-phase assignment), on page-counter with two input
 * partitions:
 *
 * - counter-b joins while counter-a runs both tasks: counter-a keeps page-views-0 and goes on
 *   processing through the rebalance; page-views-1's task is withheld from counter-b while counter-a
 *   owns it; counter-a revokes it at onJoinComplete (committing first) and asks for a follow-up
 *   rebalance, in which counter-b gets it.
 * - counter-a crashes while each instance runs one task: the group drops it after session.timeout.ms
 *   and counter-b, keeping its running task, gets the other — restored by the state updater beside
 *   the running task (stateUpdater.ts), a path the EAGER model never reached.
 */
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration/narrate';
import { findPreset } from '../../src/sim/presets';
import type { Scenario } from '../../src/sim/scenario/schema';
import { runWith } from '../presets/helpers';
import { storeOf } from './storeOf';

/** page-counter on two partitions: 30 views, 300 ms apart from 7000, alternating partitions, keys page-a (p0) and page-b (p1). */
function twoPartitions(over: { bStartAt?: number; crashA?: number }): Scenario {
  const base = findPreset('streams-task-migration')?.scenario as Scenario;
  const script = Array.from({ length: 30 }, (_, i) => [
    {
      op: 'send',
      topic: 'page-views',
      partition: i % 2,
      key: i % 2 === 0 ? 'page-a' : 'page-b',
      value: 'view',
      headers: { event_id: `view-${i + 1}` },
      ...(i === 0 ? { at: 7000 } : { delayMs: 300 }),
    },
    { op: 'flush' },
  ]).flat();
  return {
    ...base,
    id: 'cooperative-two-partitions',
    topics: base.topics.map((t) => (t.name === 'page-views' ? { ...t, partitions: 2 } : t)),
    faults: over.crashA === undefined ? [] : [{ type: 'crash', target: 'counter-a', at: over.crashA }],
    clients: base.clients.map((c) => {
      if (c.id === 'web') return { ...c, script };
      if (c.id === 'counter-b' && over.bStartAt !== undefined) return { ...c, startAt: over.bStartAt };
      return c;
    }),
  } as Scenario;
}

type Run = ReturnType<typeof runWith>;
const stepsOf = (run: Run) => [...Array(run.trace.steps.length).keys()].map((i) => ({ i, s: run.trace.steps.at(i) }));
const find = (run: Run, pred: (s: NonNullable<ReturnType<Run['trace']['steps']['at']>>) => boolean, from = 0) =>
  stepsOf(run).find(({ i, s }) => i >= from && s !== undefined && pred(s))?.i ?? -1;

describe('counter-b joins: a task is withheld, revoked by its owner at onJoinComplete, and moved in the follow-up rebalance', () => {
  const run = runWith(twoPartitions({ bStartAt: 9000 }));
  const rebalances = run.facts('rebalance').filter((f) => f.groupId === 'page-counter');

  it("counter-a's JoinGroup keeps its partitions; only page-views-1 is revoked, at onJoinComplete, after the commit", () => {
    const start = find(run, (s) => s.actor === 'counter-a.app' && s.label === 'onRebalanceStart');
    expect(start).toBeGreaterThan(0);
    const revoked = find(run, (s) => s.actor === 'counter-a.app' && s.label === 'onPartitionsRevoked', start);
    expect(revoked).toBeGreaterThan(start);
    expect(run.trace.steps.at(revoked)?.detail).toMatchObject({ partitions: [{ topic: 'page-views', partition: 1 }], lost: false });
    // counter-a's consumer took the new generation's SyncGroup answer just before (onJoinComplete)
    const sync = find(run, (s) => s.actor === 'counter-a.consumer' && s.label === 'SyncGroupResponse', start);
    expect(sync).toBeLessThan(revoked);
    expect(run.trace.steps.at(sync)?.after).toContain('REVOKING');
    // the listener commits (the open transaction) before it returns
    const committed = find(
      run,
      (s) => s.actor === 'counter-a.app' && s.label === 'reply' && (s.detail as { call?: string })?.call === 'commitTransaction',
      revoked,
    );
    const done = find(run, (s) => s.actor === 'counter-a.consumer' && s.label === 'partitionsRevokedDone', revoked);
    expect(committed).toBeGreaterThan(revoked);
    expect(done).toBeGreaterThan(committed);
    // no onPartitionsRevoked ever names page-views-0
    const named = stepsOf(run)
      .filter(({ s }) => s?.actor === 'counter-a.app' && s.label === 'onPartitionsRevoked')
      .flatMap(({ s }) => (s?.detail as { partitions: { partition: number }[] }).partitions.map((p) => p.partition));
    expect(named).toEqual([1]);
  });

  it('page-views-1 is withheld from counter-b in the first rebalance and given in the follow-up one', () => {
    const joined = rebalances.findIndex((f) => f.members.length === 2);
    expect(joined).toBeGreaterThanOrEqual(0);
    // the first two-member generation, then the follow-up counter-a's rejoin starts
    expect(rebalances[joined + 1]?.members).toHaveLength(2);
    const answers = stepsOf(run)
      .filter(({ s }) => s?.actor === 'counter-b.app' && s.label === 'onPartitionsAssigned')
      .map(({ s }) => (s?.detail as { partitions: { partition: number }[] }).partitions.map((p) => p.partition));
    expect(answers).toEqual([[], [1]]);
    // the consumer's step says so, in both languages
    const said = find(run, (s) => s.actor === 'counter-a.consumer' && s.label === 'SyncGroupResponse' && s.after.includes('REVOKING'));
    expect(narrate(run.trace, said, 'en')).toContain(
      'the new assignment no longer has page-views-1: onJoinComplete revokes it (onPartitionsRevoked) before taking the assignment, and asks for a follow-up rebalance',
    );
    expect(narrate(run.trace, said, 'ko')).toContain(
      'onJoinComplete가 할당을 받기 전에 이를 회수하고(onPartitionsRevoked) 후속 리밸런스를 요청합니다',
    );
  });

  it('counter-a goes on processing page-views-0 between its JoinGroup and its assignment, committing nothing meanwhile', () => {
    // the follow-up rebalance: from counter-a's second JoinGroup (handleRebalanceStart) to its assignment
    const first = find(run, (s) => s.actor === 'counter-a.app' && s.label === 'onRebalanceStart');
    const start = find(run, (s) => s.actor === 'counter-a.app' && s.label === 'onRebalanceStart', first + 1);
    const assigned = find(run, (s) => s.actor === 'counter-a.app' && s.label === 'onPartitionsAssigned', start);
    expect(start).toBeGreaterThan(first);
    const window = stepsOf(run).slice(start, assigned);
    const processed = window
      .flatMap(({ s }) => (s?.facts ?? []) as { kind: string; app?: string; partition?: number; topic?: string }[])
      .filter((f) => f.kind === 'processed' && f.app === 'counter-a' && f.topic === 'page-views');
    expect(processed.length).toBeGreaterThan(2);
    expect(processed.every((f) => f.partition === 0)).toBe(true);
    // commit.interval.ms passes meanwhile, but TaskManager.rebalanceInProgress holds the commit back
    const label = (s: (typeof window)[number]['s']) => (s?.detail as { call?: string } | null)?.call;
    expect(window.some(({ s }) => s?.actor === 'counter-a.app' && s.label === 'commitDue')).toBe(true);
    expect(window.filter(({ s }) => s?.actor === 'counter-a.app' && label(s) === 'commitTransaction')).toEqual([]);
    // …and the open transaction is committed after the assignment, with the task still running
    const commit = find(run, (s) => s.actor === 'counter-a.app' && label(s) === 'commitTransaction', assigned);
    expect(commit).toBeGreaterThan(assigned);
  });

  it('every view counted once: page-a 15 on counter-a, page-b 15 on counter-b', () => {
    for (const l of run.summary.verdict.layers) expect(l.status, `${l.layer} ${l.subject ?? ''}`).toBe('once');
    expect(storeOf(run.summary.streams.find((s) => s.id === 'counter-a'))).toEqual({ 'page-a': 15 });
    expect(storeOf(run.summary.streams.find((s) => s.id === 'counter-b'))).toEqual({ 'page-b': 15 });
  });
});

describe('counter-a crashes: counter-b keeps its running task and restores the other through the state updater', () => {
  const run = runWith(twoPartitions({ crashA: 10000 }));

  it("counter-b's new task is restored by the state updater while its running task goes on", () => {
    const note = find(
      run,
      (s) =>
        s.actor === 'counter-b.app' &&
        (s.facts as { kind: string; text?: string }[]).some(
          (f) => f.kind === 'note' && (f.text ?? '').includes('the state updater restores'),
        ),
    );
    expect(note).toBeGreaterThan(0);
    expect(run.trace.steps.at(note)?.after).toMatch(/^running\./);
    // counter-b was never told to revoke its own task
    expect(find(run, (s) => s.actor === 'counter-b.app' && s.label === 'onPartitionsRevoked')).toBe(-1);
  });

  it('every view is counted in the end: page-a and page-b 15 each in counter-b', () => {
    expect(run.layer('loss')?.status).toBe('once');
    expect(storeOf(run.summary.streams.find((s) => s.id === 'counter-b'))).toEqual({ 'page-a': 15, 'page-b': 15 });
  });
});
