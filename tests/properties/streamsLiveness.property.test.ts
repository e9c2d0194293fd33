/**
 * Liveness of the Kafka Streams task without faults: whatever the workload, partitioning, groupBy
 * and processing guarantee, every input record is counted exactly once, every input offset gets
 * committed, and no transaction is left to time out. (The invariants check safety under faults; this
 * checks that the task keeps making progress — a batch of re-keyed records once waited for a commit
 * that never came.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { summarize } from '../../src/sim/trace/summary';
import { cases, PROPERTY_SEED } from './modelProperty';

const workloadArb = fc.record({
  partitions: fc.integer({ min: 1, max: 3 }),
  records: fc.array(fc.record({ key: fc.constantFrom('u1', 'u2', 'u3', 'u4'), value: fc.constantFrom('a', 'b', 'c') }), {
    minLength: 1,
    maxLength: 12,
  }),
  gapMs: fc.integer({ min: 0, max: 400 }),
  groupBy: fc.constantFrom<'key' | 'value' | null>(null, 'key', 'value'),
  guarantee: fc.constantFrom('exactly_once_v2' as const, 'at_least_once' as const),
  commitIntervalMs: fc.constantFrom(50, 100, 1000, 5000),
  seed: fc.integer({ min: 1, max: 1000 }),
});

type Workload = typeof workloadArb extends fc.Arbitrary<infer T> ? T : never;

function scenario(w: Workload): Scenario {
  return {
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
}

describe('Streams task liveness without faults', () => {
  it('counts every input once and commits every input offset', () => {
    fc.assert(
      fc.property(workloadArb, (w) => {
        const summary = summarize(runScenario(scenario(w)));
        const store = summary.streams[0]?.store ?? {};
        const expected: Record<string, number> = {};
        for (const r of w.records) {
          const k = w.groupBy === 'value' ? r.value : r.key;
          expected[k] = (expected[k] ?? 0) + 1;
        }
        expect(store).toEqual(expected);
        const committed = summary.groups.find((g) => g.groupId === 'app')?.committed ?? {};
        for (const p of summary.partitions.filter((x) => x.topic === 'in'))
          expect(committed[`in-${p.partition}`] ?? 0, `in-${p.partition}`).toBe(p.logEndOffset);
        expect(summary.partitions.flatMap((p) => p.records).filter((r) => r.txnOutcome === 'aborted' || r.txnOutcome === 'open')).toEqual(
          [],
        );
      }),
      { numRuns: cases(200), seed: PROPERTY_SEED + 5 },
    );
  }, 600000);
});
