/**
 * Random scenarios with operators' offset resets (kafka-consumer-groups --reset-offsets) keep every
 * invariant of src/sim/checks/invariants.ts.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { FAMILIES } from './families';
import { cases, modelProperty, PROPERTY_SEED } from './modelProperty';

const family = FAMILIES['operator-resets'];

describe(`invariants: ${family.description}`, () => {
  it('hold for every run', () => {
    fc.assert(modelProperty(family.arb, family.everyStep), { numRuns: cases(family.cases), seed: PROPERTY_SEED + 11 });
  }, 600000);
});
