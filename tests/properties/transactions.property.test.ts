/**
 * Transactional producers and exactly-once applications under two to six faults at once
 * (dropped, delayed and duplicated transaction RPCs; crashed coordinators, brokers and clients;
 * crashes at named points of the consume-transform-produce loop) keep every invariant. Transaction
 * timeouts are short (1–20 s) so that a minute of virtual time lets them fire.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { FAMILIES } from './families';
import { cases, modelProperty, PROPERTY_SEED } from './modelProperty';

const family = FAMILIES.transactions;

describe(`invariants: ${family.description}`, () => {
  it('hold for every run', () => {
    fc.assert(modelProperty(family.arb, family.everyStep), { numRuns: cases(family.cases), seed: PROPERTY_SEED + 1 });
  }, 600000);
});
