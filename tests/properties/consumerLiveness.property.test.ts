/**
 * Liveness of consumer applications without faults: whatever the workload, partitioning, batch
 * sizes and processing time, an application in a mode that commits the next offset processes every
 * input record exactly once and its group's committed offsets reach the end of every input
 * partition; in mode exactly-once its committed output holds every input once and no transaction is
 * left open or aborted. (The invariants check safety under faults; this checks progress.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { summarize } from '../../src/sim/trace/summary';
import { cases, PROPERTY_SEED } from './modelProperty';

const workloadArb = fc.record({
  partitions: fc.integer({ min: 1, max: 3 }),
  records: fc.integer({ min: 1, max: 15 }),
  keys: fc.integer({ min: 1, max: 5 }),
  gapMs: fc.integer({ min: 0, max: 300 }),
  mode: fc.constantFrom('at-most-once' as const, 'at-least-once' as const, 'exactly-once' as const),
  maxPollRecords: fc.constantFrom(1, 2, 500),
  processingMs: fc.constantFrom(0, 5, 50),
  transactionVersion: fc.constantFrom(1 as const, 2 as const),
  seed: fc.integer({ min: 1, max: 1000 }),
});

type Workload = typeof workloadArb extends fc.Arbitrary<infer T> ? T : never;

function scenario(w: Workload): Scenario {
  return {
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
          'enable.auto.commit': false,
          'auto.offset.reset': 'earliest',
          'isolation.level': 'read_committed',
          'max.poll.records': w.maxPollRecords,
        },
        topics: ['in'],
        processing: { mode: w.mode, processingMs: w.processingMs, ...(w.mode === 'exactly-once' ? { outputTopic: 'out' } : {}) },
      },
    ],
  };
}

describe('consumer application liveness without faults', () => {
  it('processes every input once and commits to the end of every input partition', () => {
    fc.assert(
      fc.property(workloadArb, (w) => {
        const summary = summarize(runScenario(scenario(w)));
        const committed = summary.groups.find((g) => g.groupId === 'app')?.committed ?? {};
        for (const p of summary.partitions.filter((x) => x.topic === 'in'))
          expect(committed[`in-${p.partition}`] ?? 0, `in-${p.partition}`).toBe(p.logEndOffset);
        const events = summary.verdict.events;
        expect(events.length).toBe(w.records);
        for (const e of events) expect(e.processed, e.eventId).toEqual({ app: 1 });
        if (w.mode === 'exactly-once') {
          const out = summary.partitions.find((p) => p.topic === 'out')?.records.filter((r) => r.control === null) ?? [];
          expect(out.filter((r) => r.txnOutcome === 'committed').length).toBe(w.records);
          expect(out.filter((r) => r.txnOutcome !== 'committed')).toEqual([]);
        }
      }),
      { numRuns: cases(150), seed: PROPERTY_SEED + 6 },
    );
  }, 600000);
});
