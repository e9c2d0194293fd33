/**
 * A short digest of what the views fold from a run's facts at one step — the verdict, what each
 * consumer received, each client's errors, the side effects — for comparing the accumulator-based
 * views with the implementation before them (tests/verdict/fixtures/views.json, made by
 * makeViewFixtures.ts at the commit before the accumulators).
 */
import { createHash } from 'node:crypto';
import type { Trace } from '../../src/sim/run';
import { summarize } from '../../src/sim/trace/summary';

/** The steps a fixture describes: both ends, the first steps, and `n` more spread over the run. */
export function fixtureSteps(length: number, n: number): number[] {
  const out = new Set<number>([0, 1, 2, Math.max(0, length - 1), length]);
  for (let k = 1; k < n; k++) out.add(Math.floor((k * length) / n));
  return [...out].filter((s) => s <= length).sort((a, b) => a - b);
}

export function viewDigest(trace: Trace, step: number): string {
  const s = summarize(trace, step);
  const folded = {
    verdict: s.verdict,
    received: s.consumers.map((c) => c.received),
    errors: s.clients.map((c) => c.errors),
    sideEffects: s.sideEffects,
  };
  return createHash('sha1').update(JSON.stringify(folded)).digest('hex').slice(0, 16);
}
