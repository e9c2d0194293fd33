/**
 * Transactional producers and exactly-once applications under two to six faults at once
 * (dropped, delayed and duplicated transaction RPCs; crashed coordinators, brokers and clients;
 * crashes at named points of the consume-transform-produce loop) keep every invariant. Transaction
 * timeouts are short (1–20 s) so that a minute of virtual time lets them fire.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { scenarioArbWith } from './arbitraries';
import { cases, modelProperty, PROPERTY_SEED } from './modelProperty';

const arb = scenarioArbWith({
  transactional: true,
  consumers: { min: 1, max: 2 },
  faults: { min: 2, max: 6 },
  shortTimeouts: true,
  maxTimeMs: 60000,
});

describe('invariants with transactions under many faults', () => {
  it('hold for every run', () => {
    // logs checked at the checkpoints (every 16–256 steps): these runs are the longest
    fc.assert(modelProperty(arb, false), { numRuns: cases(400), seed: PROPERTY_SEED + 1 });
  }, 600000);
});
