/**
 * A schedule given its parent runs on from the parent's checkpoint before its new fault
 * (src/sim/search/runner.ts): it must be the very run a full rerun gives — the same traceHash,
 * effect hash, verdict and named points — for every fault of a preset's space, one and two deep.
 *
 * The search judges its children in fast mode (`runScheduleFast`): forked the same way, recording
 * nothing, the verdict folded from the facts and the effect hash folded on top of the parent's at
 * that checkpoint. Each must equal a full recorded rerun of the same schedule too — for every kind
 * of fault, on presets with and without replication, one and two deep.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { enumerateFaults } from '../../src/sim/search/faultSpace';
import { prepareBase, runSchedule, runScheduleFast, type ScheduleRun, type ScheduleVerdict } from '../../src/sim/search/runner';

const same = (forked: ScheduleVerdict | ScheduleRun, full: ScheduleRun, what: string) => {
  expect(forked.traceHash, what).toBe(full.traceHash);
  expect(forked.effectHash, what).toBe(full.effectHash);
  expect(forked.steps, what).toBe(full.steps);
  expect(forked.endTime, what).toBe(full.endTime);
  expect(forked.verdict, what).toEqual(full.verdict);
  if ('points' in forked) expect(forked.points, what).toEqual(full.points);
};

describe('schedules run on from their parent', () => {
  // a run shorter than the checkpoint interval has only its start to fork from: it runs in full
  for (const [id, mustFork] of [
    ['ctp-exactly-once-crash', true],
    ['at-least-once-consumer-crash', false],
    ['lost-ack-idempotent', false],
  ] as const) {
    it(`${id}: every one-fault schedule forked from the root equals its full run`, () => {
      const base = prepareBase(findPreset(id)?.scenario);
      const root = runSchedule(base, []);
      const candidates = enumerateFaults(root, -1);
      expect(candidates.length).toBeGreaterThan(5);
      let forked = 0;
      // every fourth fault keeps the test short; the kinds interleave, so each kind is covered
      for (const c of candidates.filter((_, i) => i % 4 === 0)) {
        const viaFork = runSchedule(base, [c.fault], { run: root, step: c.step });
        same(viaFork, runSchedule(base, [c.fault]), `${id}: ${JSON.stringify(c.fault)}`);
        if (viaFork.forkedFrom > 0) forked++;
      }
      // timed and envelope faults fork (point faults run in full, trace/fork.ts)
      if (mustFork) expect(forked).toBeGreaterThan(0);
    }, 180000);
  }

  it('two deep: a child of a one-fault schedule forked from it equals its full run', () => {
    const base = prepareBase(findPreset('ctp-exactly-once-crash')?.scenario);
    const root = runSchedule(base, []);
    const first = enumerateFaults(root, -1).filter((c) => c.fault.type === 'drop')[0];
    if (!first) throw new Error('no drop fault in the space');
    const parent = runSchedule(base, [first.fault]);
    const children = enumerateFaults(parent, first.step).filter((_, i) => i % 12 === 0);
    expect(children.length).toBeGreaterThan(2);
    for (const c of children) {
      const faults = [first.fault, c.fault];
      same(runSchedule(base, faults, { run: parent, step: c.step }), runSchedule(base, faults), JSON.stringify(c.fault));
    }
  }, 180000);
});

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
    }, 180000);
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
