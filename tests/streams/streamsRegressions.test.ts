/**
 * Issue 11, items 7 and 9: Kafka Streams scenarios built from the descriptions, each of
 * which failed before the fix (see the scenario's `description`).
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { narrate } from '../../src/sim/narration';
import { runScenario, type Trace } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import type { Fact } from '../../src/sim/trace/facts';
import { summarize, type TraceSummary } from '../../src/sim/trace/summary';
import { streamsRestoreProblems, timeProblems } from '../properties/streamsRestore';
import { storeOf } from './storeOf';

const load = (name: string): Scenario => JSON.parse(readFileSync(join(import.meta.dirname, 'scenarios', name), 'utf8')) as Scenario;

function run(scenario: Scenario): { trace: Trace; summary: TraceSummary } {
  const trace = runScenario(scenario);
  return { trace, summary: summarize(trace) };
}

const notes = (trace: Trace) =>
  trace.steps.flatMap((s) => (s.facts as readonly Fact[]).flatMap((f) => (f.kind === 'note' ? [{ step: s.i, text: f.text }] : [])));
const records = (summary: TraceSummary, topic: string) =>
  summary.partitions.filter((p) => p.topic === topic).flatMap((p) => p.records.filter((r) => r.control === null));
const committedValues = (summary: TraceSummary, topic: string, key: string) =>
  records(summary, topic)
    .filter((r) => r.key === key && r.txnOutcome === 'committed')
    .map((r) => r.value);

/** Every input offset committed, nothing left open, every restore equal to the committed changelog, time finite. */
function expectHealthy(trace: Trace, summary: TraceSummary): void {
  expect(timeProblems(trace)).toEqual([]);
  expect(streamsRestoreProblems(trace)).toEqual([]);
  // the thread ends in its loop (running.polling, or pollingInTransaction under exactly_once_v2)
  expect(summary.streams[0]?.state).toMatch(/^running\.polling/);
  const input = summary.partitions.find((p) => p.topic === 'in');
  expect(summary.groups.find((g) => g.groupId === 'app')?.committed['in-0']).toBe(input?.logEndOffset);
  expect(summary.partitions.flatMap((p) => p.records).filter((r) => r.txnOutcome === 'open')).toEqual([]);
}

describe('item 7: count() drops records with a null key', () => {
  it('the null-key record is not counted, not written, and its offset is committed', () => {
    const { trace, summary } = run(load('null-key-count.json'));
    expect(storeOf(summary.streams[0])).toEqual({ a: 2 });
    const written = [...records(summary, 'out'), ...records(summary, 'app-count-store-changelog')];
    expect(written.map((r) => r.key)).toEqual(['a', 'a', 'a', 'a']);
    expect(committedValues(summary, 'out', 'a')).toEqual(['1', '2']);
    expectHealthy(trace, summary);
    const drop = notes(trace).find((n) => n.text.includes('dropped-records'));
    expect(drop?.text).toBe(
      'skipping record due to null key or value: topic=[in] partition=[0] offset=[1] — count() drops it (dropped-records metric +1)',
    );
    expect(narrate(trace, drop?.step ?? -1, 'en')).toContain('dropped-records metric +1');
    const ko = narrate(trace, drop?.step ?? -1, 'ko');
    expect(ko).toContain('key나 value가 null인 레코드를 건너뜁니다');
    expect(ko).toContain('dropped-records 지표 +1');
  });

  it('groupBy drops a record whose selected key is null before the repartition topic; count() drops a null value after it', () => {
    const base = load('null-key-count.json');
    const withGroupBy = (groupBy: 'key' | 'value', sends: [string | null, string | null][]): Scenario => ({
      ...base,
      clients: base.clients.map((c) =>
        c.type === 'streams'
          ? { ...c, groupBy }
          : c.type === 'producer'
            ? {
                ...c,
                script: sends.map(([key, value], i) => ({
                  op: 'send' as const,
                  topic: 'in',
                  key,
                  value,
                  headers: { event_id: `e${i}` },
                  ...(i === 0 ? { at: 3500 } : { delayMs: 100 }),
                })),
              }
            : c,
      ),
    });
    // by value: a null value is a null new key — filtered, never reaches the repartition topic
    const byValue = run(
      withGroupBy('value', [
        ['k1', 'page-a'],
        ['k2', null],
        ['k3', 'page-a'],
      ]),
    );
    expect(storeOf(byValue.summary.streams[0])).toEqual({ 'page-a': 2 });
    expect(records(byValue.summary, 'app-count-store-repartition').map((r) => r.key)).toEqual(['page-a', 'page-a']);
    expect(notes(byValue.trace).some((n) => n.text.startsWith('groupBy selected a null key for topic=[in] partition=[0] offset=[1]'))).toBe(
      true,
    );
    expectHealthy(byValue.trace, byValue.summary);
    // by key: a null key is filtered; a null value is re-keyed, then skipped by count()
    const byKey = run(
      withGroupBy('key', [
        ['a', 'v'],
        [null, 'v'],
        ['a', null],
        ['a', 'v'],
      ]),
    );
    expect(storeOf(byKey.summary.streams[0])).toEqual({ a: 2 });
    expect(records(byKey.summary, 'app-count-store-repartition').map((r) => [r.key, r.value])).toEqual([
      ['a', 'v'],
      ['a', null],
      ['a', 'v'],
    ]);
    expect(notes(byKey.trace).filter((n) => n.text.includes('dropped-records'))).toHaveLength(1);
    expectHealthy(byKey.trace, byKey.summary);
  });
});

describe('item 9a: after a transaction aborted by transaction.timeout.ms the task commits again', () => {
  it.each([1, 2])('transaction.version %i: TaskMigratedException, a new producer, a rejoin, then e2 committed', (version) => {
    const scenario = { ...load('pause-past-transaction-timeout.json'), cluster: { 'transaction.version': version } };
    const { trace, summary } = run(scenario);
    expect(storeOf(summary.streams[0])).toEqual({ a: 2, b: 1 });
    expect(committedValues(summary, 'out', 'b')).toEqual(['1']);
    expect(committedValues(summary, 'out', 'a')).toEqual(['1', '2']);
    // the thread rejoined: a second generation
    expect(summary.groups.find((g) => g.groupId === 'app')?.generation).toBeGreaterThanOrEqual(2);
    expectHealthy(trace, summary);
    expect(notes(trace).some((n) => n.text.startsWith('TaskMigratedException (sendOffsetsToTransaction failed with'))).toBe(true);
  });

  it('a pause past session.timeout.ms and transaction.timeout.ms: the fenced commit, TaskMigratedException, and virtual time stays finite', () => {
    const { trace, summary } = run(load('pause-past-session-timeout.json'));
    expect(timeProblems(trace)).toEqual([]);
    expect(Number.isFinite(trace.endTime)).toBe(true);
    expect(storeOf(summary.streams[0])).toEqual({ a: 2, b: 1 });
    expect(trace.stopReason).toBe('quiescent');
    expectHealthy(trace, summary);
    expect(
      // the commit's flush() waits for the changelog and output sends, which the fenced epoch fails
      // (INVALID_PRODUCER_EPOCH): the producer is in an abortable error state, and refuses
      // sendOffsetsToTransaction with the exception it keeps — Kafka's flush() throws it from the
      // send's Callback; a TaskMigratedException either way
      notes(trace).some((n) =>
        n.text.startsWith('TaskMigratedException (sendOffsetsToTransaction failed with InvalidProducerEpochException)'),
      ),
    ).toBe(true);
  });
});

describe('item 9b: a transaction committed just before a crash is restored', () => {
  it('the restarted thread rejoins, initialises its transactions, and only then restores to the log end offset', () => {
    const { trace, summary } = run(load('crash-after-commit-markers-late.json'));
    expect(committedValues(summary, 'out', 'a')).toEqual(['1', '2']);
    expect(storeOf(summary.streams[0])).toEqual({ a: 2 });
    expectHealthy(trace, summary);
    const restored = notes(trace).filter((n) => n.text.startsWith('state store restored'));
    expect(restored.at(-1)?.text).toBe(
      'state store restored from app-count-store-changelog (read_committed): 1 changelog record(s), 1 key(s)',
    );
    // after the restart (StreamTask.initializeIfNeeded): the assignment, then InitProducerId, then the restore's first call
    const steps = [...Array(trace.steps.length).keys()].map((i) => trace.steps.at(i)!);
    const restart = steps.findIndex((s) => s.actor === 'counter.app' && s.label === 'restart');
    const firstAfterRestart = (pred: (s: (typeof steps)[number]) => boolean) => steps.findIndex((s, i) => i > restart && pred(s));
    const assigned = firstAfterRestart((s) => s.actor === 'counter.consumer' && s.label === 'SyncGroupResponse');
    const initialized = firstAfterRestart((s) => s.actor === 'counter.producer' && s.label === 'InitProducerIdResponse');
    const endOffsets = firstAfterRestart((s) => s.actor === 'counter.restore' && s.label === 'endOffsets');
    expect(restart).toBeGreaterThan(0);
    expect(assigned).toBeGreaterThan(restart);
    expect(initialized).toBeGreaterThan(assigned);
    expect(endOffsets).toBeGreaterThan(initialized);
  });
});

describe("item 9c: the restore reads only the restore consumer's answers", () => {
  it("the main consumer's poll() answer during the restore is held, not folded into the store", () => {
    const { trace, summary } = run(load('restore-while-rejoining.json'));
    const store = storeOf(summary.streams[0]) ?? {};
    for (const v of Object.values(store)) expect(Number.isFinite(v)).toBe(true);
    expect(store).toEqual({ a: 2, b: 1 });
    // the poll() answer really did arrive while the task was restoring
    const held = trace.steps.filter(
      (s) =>
        s.actor === 'counter.app' &&
        s.from === 'counter.consumer' &&
        s.before.startsWith('restoring.') &&
        (s.detail as { call?: string })?.call === 'poll',
    );
    expect(held.length).toBeGreaterThan(0);
    expectHealthy(trace, summary);
  });
});
