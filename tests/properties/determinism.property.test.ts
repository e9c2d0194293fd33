/**
 * Determinism: the same scenario gives the same trace, every time — every preset and 200 random
 * scenarios (faults included) run twice give the same traceHash, and a run taken in slices (as the
 * store does for long runs) gives the same hash as one taken at once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/sim/presets';
import { finishTrace, runScenario, startRun } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { validateScenario } from '../../src/sim/scenario/validate';
import { scenarioArb } from './arbitraries';
import { cases, PROPERTY_SEED } from './modelProperty';

function slicedHash(scenario: Scenario, slice: number): string {
  const v = validateScenario(scenario);
  if (!v.ok) throw new Error('invalid scenario');
  const { sim, built } = startRun(v.resolved);
  while (!sim.done) sim.run(sim.stepIndex + slice);
  return finishTrace(v.resolved, built, sim).traceHash;
}

describe('determinism', () => {
  it.each(PRESETS.map((p) => [p.id, p.scenario] as const))('preset %s: two runs, and a sliced run, give one traceHash', (_id, scenario) => {
    const a = runScenario(scenario);
    expect(a.traceHash).toMatch(/^[0-9a-f]{8,}$/);
    expect(runScenario(scenario).traceHash).toBe(a.traceHash);
    expect(slicedHash(scenario, 7)).toBe(a.traceHash);
  });

  it('200 random scenarios: two runs give one traceHash, and so does a sliced run', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 500 }), (scenario, slice) => {
        const a = runScenario(scenario);
        const b = runScenario(scenario);
        seen.add(a.traceHash);
        return a.traceHash === b.traceHash && a.steps.length === b.steps.length && slicedHash(scenario, slice) === a.traceHash;
      }),
      { numRuns: cases(200), seed: PROPERTY_SEED + 3 },
    );
    // different scenarios really give different traces (the hash is not a constant)
    expect(seen.size).toBeGreaterThan(cases(200) * 0.9);
  }, 600000);
});
