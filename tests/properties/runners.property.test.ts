/**
 * The compiled runner (src/sim/kernel/compiledMachine.ts) and XState's interpreter run every actor
 * to the same steps: every preset and random scenarios give one traceHash with either. A machine the
 * compiled runner cannot run (compound or parallel states, delays …) runs with XState instead, so
 * the property holds for it too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { startActor } from '../../src/sim/kernel/actorDriver';
import { CompiledActor, compile } from '../../src/sim/kernel/compiledMachine';
import { Simulation } from '../../src/sim/kernel/simulation';
import { PRESETS } from '../../src/sim/presets';
import { buildScenario } from '../../src/sim/scenario/build';
import type { Scenario } from '../../src/sim/scenario/schema';
import { validateScenario } from '../../src/sim/scenario/validate';
import { scenarioArb } from './arbitraries';
import { cases, PROPERTY_SEED } from './modelProperty';

function hashWith(scenario: Scenario, runner: 'xstate' | 'compiled'): string {
  const v = validateScenario(scenario);
  if (!v.ok) throw new Error('invalid scenario');
  const built = buildScenario(v.resolved);
  const sim = Simulation.create(built.specs, { ...built.options, runner, record: false });
  sim.run();
  return `${sim.traceHash} ${sim.stepIndex} ${sim.stopReason}`;
}

describe('compiled runner and XState', () => {
  it.each(PRESETS.map((p) => [p.id, p.scenario] as const))('preset %s: one traceHash with either runner', (_id, scenario) => {
    expect(hashWith(scenario, 'compiled')).toBe(hashWith(scenario, 'xstate'));
  });

  it('random scenarios: one traceHash with either runner', () => {
    fc.assert(
      fc.property(scenarioArb, (scenario) => hashWith(scenario, 'compiled') === hashWith(scenario, 'xstate')),
      { numRuns: cases(30), seed: PROPERTY_SEED + 13 },
    );
  }, 600000);

  it('a machine with compound or parallel states is not compiled: it runs with XState', () => {
    const nested = createMachine({ initial: 'a', states: { a: { initial: 'x', states: { x: {} } } } });
    const parallel = createMachine({ type: 'parallel', states: { a: {}, b: {} } });
    const flat = createMachine({ initial: 'a', states: { a: { on: { go: 'b' } }, b: {} } });
    expect(compile(nested)).toBeNull();
    expect(compile(parallel)).toBeNull();
    expect(compile(flat)).not.toBeNull();
    const spec = { id: 'x.app', kind: 'test', logic: nested, input: {} };
    expect(startActor(spec, undefined, 'compiled', () => {})).not.toBeInstanceOf(CompiledActor);
    expect(startActor({ ...spec, logic: flat }, undefined, 'compiled', () => {})).toBeInstanceOf(CompiledActor);
  });
});
