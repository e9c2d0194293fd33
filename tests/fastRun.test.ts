/**
 * Fast mode gives what a recorded run gives, without the trace: the same traceHash, stop, step
 * count and end state, and the same verdict — on every preset and on random scenarios.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../src/sim/presets';
import { runScenario, stateAt } from '../src/sim/run';
import type { Scenario } from '../src/sim/scenario/schema';
import { runFast } from '../src/sim/trace/fastRun';
import { summarize } from '../src/sim/trace/summary';
import { scenarioArb } from './properties/arbitraries';
import { cases, PROPERTY_SEED } from './properties/modelProperty';
import { replicatedScenarioArb } from './properties/replicationFaults';

/** A fast run of `scenario` ends as its recorded run: hash, stop, step count, end state, verdict. */
function sameAsRecorded(scenario: Scenario): void {
  const trace = runScenario(scenario);
  const fast = runFast(scenario);
  expect(fast.traceHash).toBe(trace.traceHash);
  expect(fast.stopReason).toBe(trace.stopReason);
  expect(fast.steps).toBe(trace.steps.length);
  const end = stateAt(trace, trace.steps.length);
  expect(fast.final.actors).toEqual(end.actors);
  expect(fast.final.processes).toEqual(end.processes);
  expect(fast.verdict).toEqual(summarize(trace).verdict);
}

describe('fast mode', () => {
  it.each(PRESETS.map((p) => [p.id, p.scenario] as const))('%s: hash, stop, end state and verdict as the recorded run', (_id, scenario) => {
    const trace = runScenario(scenario);
    const fast = runFast(scenario);
    expect(fast.traceHash).toBe(trace.traceHash);
    expect(fast.stopReason).toBe(trace.stopReason);
    expect(fast.steps).toBe(trace.steps.length);
    expect(fast.endTime).toBe(trace.endTime);
    const end = stateAt(trace, trace.steps.length);
    expect(fast.final.actors).toEqual(end.actors);
    expect(fast.final.processes).toEqual(end.processes);
    expect(fast.verdict).toEqual(summarize(trace).verdict);
  });

  it('random scenarios with faults: the same traceHash, steps, end state and verdict', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => sameAsRecorded(scenario)),
      { numRuns: cases(20), seed: PROPERTY_SEED + 17 },
    );
  }, 300000);

  it('random replicated scenarios with broker crashes, pauses and slow links: the same as the recorded run', () => {
    fc.assert(
      fc.property(replicatedScenarioArb({ consumers: { min: 0, max: 2 }, faults: { min: 1, max: 3 }, maxTimeMs: 60000 }), (scenario) =>
        sameAsRecorded(scenario),
      ),
      { numRuns: cases(12), seed: PROPERTY_SEED + 18 },
    );
  }, 300000);

  it('a run cut at a step gives the hash of the recorded run cut there', () => {
    const scenario = PRESETS[0]?.scenario;
    expect(runFast(scenario, { untilStep: 40 }).traceHash).toBe(runScenario(scenario, { untilStep: 40 }).traceHash);
  });
});
