/**
 * Liveness of the Kafka Streams task without faults (see liveness.ts): whatever the workload,
 * partitioning, groupBy and processing guarantee, every input is counted once (records with a null
 * key or value not at all), every input offset gets committed, no transaction is left open or
 * aborted, and every restore rebuilds the committed changelog (streamsRestore.ts). It found two
 * stalls: a batch of only re-keyed records was never committed, and a commit started by
 * commit.interval.ms while poll() waited took in the next batch's writes.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { livenessProperty, streamsCaseArb } from './liveness';
import { cases, PROPERTY_SEED } from './modelProperty';

describe('Streams task liveness without faults', () => {
  it('counts every input once and commits every input offset', () => {
    fc.assert(livenessProperty(streamsCaseArb), { numRuns: cases(200), seed: PROPERTY_SEED + 5 });
  }, 600000);
});
