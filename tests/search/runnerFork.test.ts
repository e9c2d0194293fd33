/**
 * A schedule given its parent runs on from the parent's checkpoint before its new fault
 * (src/sim/search/runner.ts): it must be the very run a full rerun gives — the same traceHash,
 * effect hash, verdict and named points — for every fault of a preset's space, one and two deep.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { enumerateFaults } from '../../src/sim/search/faultSpace';
import { prepareBase, runSchedule, type ScheduleRun } from '../../src/sim/search/runner';

const same = (forked: ScheduleRun, full: ScheduleRun, what: string) => {
  expect(forked.traceHash, what).toBe(full.traceHash);
  expect(forked.effectHash, what).toBe(full.effectHash);
  expect(forked.steps, what).toBe(full.steps);
  expect(forked.verdict, what).toEqual(full.verdict);
  expect(forked.points, what).toEqual(full.points);
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
    });
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
  });
});
