/**
 * Plain (non-transactional) producers, idempotent or not, under lost, delayed and duplicated
 * Produce requests and responses and restarts, keep every invariant — in particular no two batches
 * of one producer session share a sequence number.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { scenarioArbWith } from './arbitraries';
import { cases, modelProperty, PROPERTY_SEED } from './modelProperty';

const arb = scenarioArbWith({ transactional: false, consumers: { min: 0, max: 1 }, faults: { min: 1, max: 5 } });

describe('invariants with idempotent and plain producers under faults', () => {
  it('hold for every run', () => {
    fc.assert(modelProperty(arb), { numRuns: cases(600), seed: PROPERTY_SEED + 2 });
  }, 600000);
});
