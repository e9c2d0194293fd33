/**
 * Liveness of consumer applications without faults (see liveness.ts): in modes at-most-once,
 * at-least-once and exactly-once, whatever the workload, batch sizes and processing time, every
 * input is processed once, the group's committed offsets reach the end of every input partition,
 * and in exactly-once the committed output holds every input once.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { consumersCaseArb, livenessProperty } from './liveness';
import { cases, PROPERTY_SEED } from './modelProperty';

describe('consumer application liveness without faults', () => {
  it('processes every input once and commits to the end of every input partition', () => {
    fc.assert(livenessProperty(consumersCaseArb), { numRuns: cases(150), seed: PROPERTY_SEED + 6 });
  }, 600000);
});
