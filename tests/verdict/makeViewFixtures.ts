/**
 * Writes tests/verdict/fixtures/views.json: the view digest (./viewDigest) of every preset and of
 * twelve random scenarios (stored whole) at steps spread over each run. Made once with the views as
 * they were before the accumulators (commit c544319), so that accumulators.test.ts compares the new
 * views with the old ones:  npx tsx tests/verdict/makeViewFixtures.ts
 *
 * When the views change on purpose (a new counter, 2026-12-07: producersFatal), run it again: the
 * stored random scenarios are kept (the arbitraries have grown since, so the seed would draw others)
 * and every digest is made again at the same steps.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { PRESETS } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import type { Scenario } from '../../src/sim/scenario/schema';
import { scenarioArb } from '../properties/arbitraries';
import { fixtureSteps, viewDigest } from './viewDigest';

const describe = (scenario: Scenario, n: number) => {
  const trace = runScenario(scenario);
  return { steps: trace.steps.length, digests: fixtureSteps(trace.steps.length, n).map((s) => [s, viewDigest(trace, s)]) };
};
const presets = PRESETS.map((p) => ({ id: p.id, ...describe(p.scenario, 30) }));
const stored = new URL('./fixtures/views.json', import.meta.url);
const scenarios: Scenario[] = existsSync(stored)
  ? (JSON.parse(readFileSync(stored, 'utf8')) as { random: { scenario: Scenario }[] }).random.map((r) => r.scenario)
  : fc.sample(scenarioArb, { seed: 1313, numRuns: 12 });
const random = scenarios.map((scenario) => ({ scenario, ...describe(scenario, 16) }));
writeFileSync(stored, `${JSON.stringify({ presets, random })}\n`);
console.log(`${presets.length} presets, ${random.length} random scenarios`);
