/**
 * Consumer groups under one fault (groupFaults.ts): lost replies, delays, pauses, restarts of
 * consumers, coordinators, the broker and sinks, crash points and a member leaving, in every
 * processing mode and with every sink, under both transaction protocols — the group ends Stable,
 * nothing hangs, every input is processed, and the group coordinator's rules hold.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { groupFaultsCaseArb } from './groupFaults';
import { livenessProperty } from './liveness';
import { cases, PROPERTY_SEED } from './modelProperty';

describe('consumer groups under one fault', () => {
  it('end Stable, process every input and keep the group coordinator rules', () => {
    fc.assert(livenessProperty(groupFaultsCaseArb), { numRuns: cases(150), seed: PROPERTY_SEED + 7 });
  }, 600000);
});
