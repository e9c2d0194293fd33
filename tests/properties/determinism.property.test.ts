/**
 * Determinism: the same scenario gives the same trace, every time — every preset runs three times
 * (twice at once, once in slices) and 200 random scenarios (faults included) twice (at once, and in
 * slices of a random size as the store takes long runs), and each gives one traceHash.
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

  it('200 random scenarios: a run at once and a run in slices give one traceHash', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 500 }), (scenario, slice) => {
        const a = runScenario(scenario);
        seen.add(a.traceHash);
        return slicedHash(scenario, slice) === a.traceHash;
      }),
      { numRuns: cases(200), seed: PROPERTY_SEED + 3 },
    );
    // different scenarios really give different traces (the hash is not a constant)
    expect(seen.size).toBeGreaterThan(cases(200) * 0.9);
  }, 600000);
});
