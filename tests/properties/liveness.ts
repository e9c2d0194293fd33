/**
 * Progress without faults, for the property tests and `npm run fuzz`: the invariants are about
 * safety under faults; these say that, with nothing going wrong, work gets done. Each family draws a
 * fault-free scenario and returns what it expects, and `livenessProblems` lists what did not happen.
 *
 * - streams: a Kafka Streams task (either guarantee, with or without groupBy) counts every input
 *   once — except records with a null key or value, which count() drops — commits every input
 *   offset, leaves no transaction open or aborted, and restores its store to the committed
 *   changelog (streamsRestore.ts);
 * - consumers: an application in mode at-most-once, at-least-once, auto-commit or exactly-once
 *   processes every input once and commits to the end of every input partition (auto-commit too:
 *   Kafka's poll() auto-commits while it waits); in exactly-once its committed output holds every
 *   input once; and the group coordinator's rules of groupRules.ts hold;
 * - group-faults (groupFaults.ts): the same under one fault, in every processing mode and with
 *   every sink.
 */

import fc from 'fast-check';
import { recordAddress } from '../../src/sim/protocol/topicPartition';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { summarize, type TraceSummary } from '../../src/sim/trace/summary';
import { storeOf } from '../streams/storeOf';
import { type GroupFaultsExpectation, groupFaultProblems, groupFaultsCaseArb } from './groupFaults';
import { groupRuleProblems } from './groupRules';
import { streamsOutputProblems } from './streamsOutput';
import { streamsRestoreProblems } from './streamsRestore';

export interface LivenessCase {
  readonly scenario: Scenario;
  /** Streams: the expected count per key; consumers: the number of input records. */
  readonly expect:
    | { readonly kind: 'streams'; readonly counts: Readonly<Record<string, number>> }
    | { readonly kind: 'consumers'; readonly records: number; readonly exactlyOnce: boolean }
    | GroupFaultsExpectation;
}

export const streamsCaseArb: fc.Arbitrary<LivenessCase> = fc
  .record({
    partitions: fc.integer({ min: 1, max: 3 }),
    // null keys and values too: count() drops them (KStreamAggregate), groupBy drops a null new key
    records: fc.array(fc.record({ key: fc.constantFrom('u1', 'u2', 'u3', 'u4', null), value: fc.constantFrom('a', 'b', 'c', null) }), {
      minLength: 1,
      maxLength: 12,
    }),
    gapMs: fc.integer({ min: 0, max: 400 }),
    groupBy: fc.constantFrom<'key' | 'value' | null>(null, 'key', 'value'),
    guarantee: fc.constantFrom('exactly_once_v2' as const, 'at_least_once' as const),
    commitIntervalMs: fc.constantFrom(50, 100, 1000, 5000),
    seed: fc.integer({ min: 1, max: 1000 }),
  })
  .map((w) => {
    const counts: Record<string, number> = {};
    for (const r of w.records) {
      const k = w.groupBy === 'value' ? r.value : r.key;
      if (k === null || r.value === null) continue;
      counts[k] = (counts[k] ?? 0) + 1;
    }
    const scenario: Scenario = {
      version: 1,
      seed: w.seed,
      topics: [
        { name: 'in', partitions: w.partitions },
        { name: 'out', partitions: 1 },
      ],
      clients: [
        {
          id: 'source',
          type: 'producer',
          script: w.records.map((r, i) => ({
            op: 'send' as const,
            topic: 'in',
            key: r.key,
            value: r.value,
            headers: { event_id: `e${i}` },
            ...(i === 0 ? { at: 3500 } : { delayMs: w.gapMs }),
          })),
        },
        {
          id: 'counter',
          type: 'streams',
          config: { 'processing.guarantee': w.guarantee, 'application.id': 'app', 'commit.interval.ms': w.commitIntervalMs },
          inputTopic: 'in',
          outputTopic: 'out',
          ...(w.groupBy ? { groupBy: w.groupBy } : {}),
        },
      ],
    };
    return { scenario, expect: { kind: 'streams' as const, counts } };
  });

export const consumersCaseArb: fc.Arbitrary<LivenessCase> = fc
  .record({
    partitions: fc.integer({ min: 1, max: 3 }),
    records: fc.integer({ min: 1, max: 15 }),
    gapMs: fc.integer({ min: 0, max: 300 }),
    mode: fc.constantFrom('at-most-once' as const, 'at-least-once' as const, 'auto-commit' as const, 'exactly-once' as const),
    maxPollRecords: fc.constantFrom(1, 2, 500),
    processingMs: fc.constantFrom(0, 5, 50),
    transactionVersion: fc.constantFrom(1 as const, 2 as const),
    seed: fc.integer({ min: 1, max: 1000 }),
  })
  .map((w) => {
    const scenario: Scenario = {
      version: 1,
      seed: w.seed,
      cluster: { 'transaction.version': w.transactionVersion },
      topics: [
        { name: 'in', partitions: w.partitions },
        { name: 'out', partitions: 1 },
      ],
      clients: [
        {
          id: 'source',
          type: 'producer',
          script: [
            {
              op: 'send',
              topic: 'in',
              key: 'k{i}',
              value: 'v{i}',
              headers: { event_id: 'e{i}' },
              count: w.records,
              at: 3500,
              ...(w.gapMs > 0 ? { delayMs: w.gapMs } : {}),
            },
          ],
        },
        {
          id: 'app',
          type: 'consumer',
          config: {
            'group.id': 'app',
            'enable.auto.commit': w.mode === 'auto-commit',
            'auto.offset.reset': 'earliest',
            'isolation.level': 'read_committed',
            'max.poll.records': w.maxPollRecords,
          },
          topics: ['in'],
          processing: { mode: w.mode, processingMs: w.processingMs, ...(w.mode === 'exactly-once' ? { outputTopic: 'out' } : {}) },
        },
      ],
    };
    return { scenario, expect: { kind: 'consumers' as const, records: w.records, exactlyOnce: w.mode === 'exactly-once' } };
  });

/** Every input partition's log end offset, against the group's committed offset for it. */
function uncommittedInputs(summary: TraceSummary, groupId: string): string[] {
  const committed = summary.groups.find((g) => g.groupId === groupId)?.committed ?? {};
  return summary.partitions
    .filter((p) => p.topic === 'in' && (committed[`in-${p.partition}`] ?? 0) !== p.logEndOffset)
    .map(
      (p) =>
        `group ${groupId} committed ${committed[`in-${p.partition}`] ?? 'nothing'} on in-${p.partition}, whose log ends at ${p.logEndOffset}`,
    );
}

/** What did not happen that should have; empty when the run made all the progress it should. */
export function livenessProblems(c: LivenessCase): string[] {
  const trace = runScenario(c.scenario);
  const summary = summarize(trace);
  if (c.expect.kind === 'groups') return groupFaultProblems(trace, summary, c.expect);
  const problems: string[] = [];
  const unfinished = summary.partitions.flatMap((p) =>
    p.records
      .filter((r) => r.txnOutcome === 'open' || r.txnOutcome === 'aborted')
      .map((r) => `${recordAddress(p.topic, p.partition, r.offset)} ${r.txnOutcome}`),
  );
  if (c.expect.kind === 'streams') {
    const store = storeOf(summary.streams[0]) ?? {};
    if (JSON.stringify(Object.entries(store).sort()) !== JSON.stringify(Object.entries(c.expect.counts).sort()))
      problems.push(`the store holds ${JSON.stringify(store)}, not ${JSON.stringify(c.expect.counts)}`);
    problems.push(...uncommittedInputs(summary, 'app'));
    problems.push(...unfinished.map((r) => `left in the log: ${r}`));
    problems.push(...streamsRestoreProblems(trace));
    problems.push(...streamsOutputProblems(trace));
  } else {
    problems.push(...uncommittedInputs(summary, 'app'));
    const events = summary.verdict.events;
    if (events.length !== c.expect.records) problems.push(`${events.length} events, not ${c.expect.records}`);
    for (const e of events) if (e.processed.app !== 1) problems.push(`${e.eventId} processed ${e.processed.app ?? 0} times`);
    if (c.expect.exactlyOnce) {
      const out = summary.partitions.find((p) => p.topic === 'out')?.records.filter((r) => r.control === null) ?? [];
      const committed = out.filter((r) => r.txnOutcome === 'committed').length;
      if (committed !== c.expect.records) problems.push(`${committed} committed outputs, not ${c.expect.records}`);
      problems.push(...unfinished.map((r) => `left in the log: ${r}`));
    }
    problems.push(...groupRuleProblems(trace));
  }
  return problems;
}

/** A property that fails with the list of what did not happen. */
export function livenessProperty(arb: fc.Arbitrary<LivenessCase>): fc.IPropertyWithHooks<[LivenessCase]> {
  return fc.property(arb, (c) => {
    const problems = livenessProblems(c);
    if (problems.length) throw new Error(`no progress: ${problems.join('; ')}`);
  });
}

export const LIVENESS_FAMILIES = {
  'streams-liveness': streamsCaseArb,
  'consumer-liveness': consumersCaseArb,
  'group-faults': groupFaultsCaseArb,
} as const;
