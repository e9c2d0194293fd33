/**
 * Plain (non-transactional) producers, idempotent or not, under lost, delayed and duplicated
 * Produce requests and responses and restarts, keep every invariant — in particular no two batches
 * of one producer session share a sequence number.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { FAMILIES } from './families';
import { cases, modelProperty, PROPERTY_SEED } from './modelProperty';

const family = FAMILIES.idempotence;

describe(`invariants: ${family.description}`, () => {
  it('hold for every run', () => {
    fc.assert(modelProperty(family.arb, family.everyStep), { numRuns: cases(family.cases), seed: PROPERTY_SEED + 2 });
  }, 600000);
});
