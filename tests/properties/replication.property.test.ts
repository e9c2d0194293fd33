/**
 * Random scenarios with replicated topics under broker crashes, restarts, pauses, controlled shutdowns and slow
 * replication keep every invariant of src/sim/checks/invariants.ts — among them the replication
 * ones (hw-within-isr, committed-not-lost, acks-all-survives).
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { FAMILIES } from './families';
import { cases, modelProperty, PROPERTY_SEED } from './modelProperty';

describe.each(['replication', 'replication-transactions'] as const)('invariants: family %s', (name) => {
  const family = FAMILIES[name];
  it(`hold for every run (${family.description})`, () => {
    fc.assert(modelProperty(family.arb, family.everyStep), { numRuns: cases(family.cases), seed: PROPERTY_SEED + 15 });
  }, 900000);
});
