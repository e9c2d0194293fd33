/**
 * A Kafka Streams task under faults (see streamsFaults.ts) keeps every invariant, and each of its
 * restores rebuilds exactly the committed changelog (see streamsRestore.ts) — after a crash at any
 * point, after a pause past transaction.timeout.ms (TaskMigratedException, a dirty close, a new
 * producer, a rejoin), with replies lost or late — with virtual time finite throughout.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { FAMILIES } from './families';
import { cases, modelProperty, PROPERTY_SEED } from './modelProperty';

const family = FAMILIES['streams-faults'];

describe(`Streams under faults: ${family.description}`, () => {
  it('keep every invariant and restore the committed changelog', () => {
    fc.assert(modelProperty(family.arb, family.everyStep), { numRuns: cases(family.cases), seed: PROPERTY_SEED + 6 });
  }, 600000);
});
