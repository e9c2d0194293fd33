/**
 * The search judges its schedules in fast mode (src/sim/search/runner.ts `runScheduleFast`): forked
 * from the parent's checkpoint, recording nothing, the verdict folded from the facts and the effect
 * hash folded on top of the parent's at that checkpoint. Each must be exactly the run a full
 * recorded rerun of the same schedule gives — traceHash, effect hash, steps, end and verdict — for
 * every kind of fault, one and two deep, on presets with and without replication.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { enumerateFaults } from '../../src/sim/search/faultSpace';
import { prepareBase, runSchedule, runScheduleFast, type ScheduleRun, type ScheduleVerdict } from '../../src/sim/search/runner';

const same = (fast: ScheduleVerdict, full: ScheduleRun, what: string) => {
  expect(fast.traceHash, what).toBe(full.traceHash);
  expect(fast.effectHash, what).toBe(full.effectHash);
  expect(fast.steps, what).toBe(full.steps);
  expect(fast.endTime, what).toBe(full.endTime);
  expect(fast.verdict, what).toEqual(full.verdict);
};

describe('schedules judged in fast mode', () => {
  for (const [id, every] of [
    ['ctp-exactly-once-crash', 9],
    ['at-least-once-consumer-crash', 2],
    ['db-sink-duplicate', 2],
    ['idempotence-survives-failover', 15],
  ] as const) {
    it(`${id}: every ${every}th one-fault schedule, forked in fast mode, equals its full recorded run`, () => {
      const base = prepareBase(findPreset(id)?.scenario);
      const root = runSchedule(base, []);
      const candidates = enumerateFaults(root, -1).filter((_, i) => i % every === 0);
      expect(candidates.length).toBeGreaterThan(5);
      const kinds = new Set<string>();
      let forked = 0;
      for (const c of candidates) {
        const fast = runScheduleFast(base, [c.fault], { run: root, step: c.step });
        same(fast, runSchedule(base, [c.fault]), `${id}: ${JSON.stringify(c.fault)}`);
        // and without a parent (the random phase, shrinking): a full run in fast mode
        expect(runScheduleFast(base, [c.fault]).traceHash).toBe(fast.traceHash);
        if (fast.forkedFrom > 0) forked++;
        kinds.add(c.fault.type);
      }
      expect(forked).toBeGreaterThan(0);
      expect(kinds.size).toBeGreaterThanOrEqual(3);
    });
  }

  it('two deep: children of a one-fault schedule, in fast mode, equal their full runs', () => {
    const base = prepareBase(findPreset('ctp-exactly-once-crash')?.scenario);
    const root = runSchedule(base, []);
    for (const type of ['drop', 'crash'] as const) {
      const first = enumerateFaults(root, -1).filter((c) => c.fault.type === type)[1];
      if (!first) throw new Error(`no ${type} fault in the space`);
      const parent = runSchedule(base, [first.fault]);
      const children = enumerateFaults(parent, first.step).filter((_, i) => i % 90 === 0);
      expect(children.length).toBeGreaterThan(2);
      for (const c of children) {
        const faults = [first.fault, c.fault];
        same(runScheduleFast(base, faults, { run: parent, step: c.step }), runSchedule(base, faults), JSON.stringify(c.fault));
      }
    }
  }, 240000);
});
