/**
 * The playback bar's "fault N" counts the faults injected — one per scenario fault where it takes
 * effect — not their consequences: one dropped Produce showed "fault 2" (the drop, then the answer
 * lost on the connection its timeout closed), a crash with a restart 3, a broker's crash 33.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { FaultSpec, Scenario } from '../../src/sim/scenario/schema';
import { jumpTargets } from '../../src/ui/playback/jumps';

const faultCount = (scenario: unknown) => jumpTargets(runScenario(scenario).steps).fault.length;

describe('the fault count', () => {
  it('one dropped Produce injected into the default run is one fault, at the step it is dropped', () => {
    const story = findPreset('opening-story')?.scenario as Scenario;
    const drop: FaultSpec = { type: 'drop', rpc: 'Produce', nth: 1, note: 'injected' };
    const trace = runScenario({ ...story, faults: [drop] });
    const targets = jumpTargets(trace.steps).fault;
    expect(targets).toHaveLength(1);
    expect(trace.steps.at(targets[0] as number)?.faults[0]).toMatch(/^Produce #\d+ dropped \(injected\)$/);
    // the consequence is still on the trace, a line of its own step — not counted
    const lines = [...trace.steps].filter((s) => s.faults.length > 0).map((s) => s.faults[0]);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^Produce #\d+ lost: stalled behind Produce #\d+/);
  });

  it('a dropped OffsetCommit is one fault, not one per heartbeat stalled behind it', () => {
    const story = findPreset('opening-story')?.scenario as Scenario;
    expect(faultCount({ ...story, faults: [{ type: 'drop', rpc: 'OffsetCommit', nth: 1 }] })).toBe(1);
  });

  for (const [id, faults] of [
    ['lost-ack-idempotent', 1],
    ['zombie-fencing', 1],
    ['at-most-once-consumer-crash', 1],
    ['idempotence-survives-failover', 1],
    ['coordinator-failover-mid-commit', 2],
    ['offset-reset-replays-output', 2],
  ] as const)
    it(`${id}: as many as the scenario injects (${faults})`, () => {
      const scenario = findPreset(id)?.scenario as Scenario;
      expect(scenario.faults).toHaveLength(faults);
      expect(faultCount(scenario)).toBe(faults);
    });
});
