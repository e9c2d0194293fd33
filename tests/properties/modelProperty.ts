/**
 * The property every random scenario must satisfy — it validates, runs, and breaks none of Kafka's
 * invariants nor the producer's per-partition rules (producerRules.ts) nor the group coordinator's
 * rules (groupRules.ts), and every Kafka Streams restore in it matches the committed changelog —
 * shared by the property tests and `npm run fuzz`.
 */
import fc from 'fast-check';
import { formatViolations, runChecked } from '../../src/sim/checks/invariants';
import type { Scenario } from '../../src/sim/scenario/schema';
import { validateScenario } from '../../src/sim/scenario/validate';
import { groupRuleProblems } from './groupRules';
import { formatRuleViolations, producerRuleViolations } from './producerRules';
import { streamsOutputProblems } from './streamsOutput';
import { streamsRestoreProblems } from './streamsRestore';

/** Fixed by default so that `npm test` is repeatable; PROPERTY_SEED=<n> explores elsewhere. */
export const PROPERTY_SEED = Number(process.env.PROPERTY_SEED ?? 8_000_001);

/** Scales every property's case count (PROPERTY_SCALE=0.1 for a quick pass, 10 for a long one). */
export function cases(n: number): number {
  return Math.max(1, Math.round(n * Number(process.env.PROPERTY_SCALE ?? 1)));
}

/** Throws with a readable reason when a scenario is invalid or its run breaks an invariant. */
export function assertSound(scenario: Scenario, everyStep = true): void {
  const v = validateScenario(scenario);
  if (!v.ok) throw new Error(`the generator produced an invalid scenario: ${v.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);
  const { trace, violations } = runChecked(scenario, { everyStep });
  if (violations.length) throw new Error(`invariants broken:\n${formatViolations(violations)}`);
  const broken = producerRuleViolations(trace);
  if (broken.length) throw new Error(`producer rules broken:\n${formatRuleViolations(broken)}`);
  if (scenario.clients.some((c) => c.type === 'streams')) {
    const problems = streamsRestoreProblems(trace);
    if (problems.length) throw new Error(`Kafka Streams restore:\n${problems.join('\n')}`);
    const twice = streamsOutputProblems(trace);
    if (twice.length) throw new Error(`Kafka Streams output:\n${twice.join('\n')}`);
  }
  const groupBroken = groupRuleProblems(trace);
  if (groupBroken.length) throw new Error(`group coordinator rules broken:\n${groupBroken.join('\n')}`);
}

/** With `everyStep` false the logs are checked at the checkpoints only (the shapes draw one every 16–256 steps). */
export function modelProperty(arb: fc.Arbitrary<Scenario>, everyStep = true): fc.IPropertyWithHooks<[Scenario]> {
  return fc.property(arb, (scenario) => {
    assertSound(scenario, everyStep);
  });
}
