/**
 * Random scenarios (topics, producers, consumers in every processing mode, sinks) under random
 * faults keep every invariant of src/sim/checks/invariants.ts.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { scenarioArb } from './arbitraries';
import { cases, modelProperty, PROPERTY_SEED } from './modelProperty';

describe('invariants over random scenarios', () => {
  it('hold for every run', () => {
    fc.assert(modelProperty(scenarioArb), { numRuns: cases(1000), seed: PROPERTY_SEED });
  }, 600000);
});
