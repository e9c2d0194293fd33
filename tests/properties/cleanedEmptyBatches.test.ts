/**
 * The invariant checker accepts what Kafka's cleaner leaves: a batch kept as its header alone
 * (LogCleaner.checkBatchRetention → RETAIN_EMPTY, MemoryRecords.filterTo writing an empty header):
 * its offsets stay taken, with no record. It still refuses an empty batch in a log nothing was
 * cleaned from, and a record inside an empty batch's offsets after it.
 */
import { describe, expect, it } from 'vitest';
import { runChecked } from '../../src/sim/checks/invariants';
import type { Scenario } from '../../src/sim/scenario/schema';

/** Idempotent `idem` writes a=v1 (offset 0, its only, so last, batch); plain a=v2 and c=z follow; the cleaner empties offset 0. */
const scenario: Scenario = {
  version: 1,
  seed: 3,
  topics: [{ name: 'tier', partitions: 1, config: { 'cleanup.policy': 'compact', 'segment.ms': 100 } }],
  clients: [
    {
      id: 'idem',
      type: 'producer',
      config: { 'enable.idempotence': true },
      script: [{ op: 'send', topic: 'tier', key: 'a', value: 'v1' }, { op: 'flush' }],
    },
    {
      id: 'plain',
      type: 'producer',
      config: { 'enable.idempotence': false, acks: '1' },
      script: [
        { op: 'send', topic: 'tier', key: 'a', value: 'v2', at: 300 },
        { op: 'flush' },
        { op: 'send', topic: 'tier', key: 'c', value: 'z', at: 700 },
        { op: 'flush' },
      ],
    },
    {
      id: 'reader',
      type: 'consumer',
      config: { 'group.id': 'r', 'auto.offset.reset': 'earliest' },
      topics: ['tier'],
      processing: { mode: 'at-least-once' },
      startAt: 3000,
    },
  ],
  faults: [{ type: 'runCleaner', at: 2000, topic: 'tier' }],
} as Scenario;

describe('invariants over a cleaned log with a batch kept empty', () => {
  it('the cleaner keeps idem’s last batch as a header, and no invariant fires', () => {
    const { trace, violations } = runChecked(scenario, { everyStep: true });
    const cleaned = trace.steps.some((s) => s.facts?.some((f) => f.kind === 'cleaned' && 'removed' in f && f.removed === 1));
    expect(cleaned).toBe(true);
    expect(violations.map((v) => `${v.invariant}: ${v.message}`)).toEqual([]);
  });
});
