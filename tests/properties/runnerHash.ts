/** A scenario's traceHash, step count and end under one runner: the compiled one or XState's interpreter. */
import { Simulation } from '../../src/sim/kernel/simulation';
import { buildScenario } from '../../src/sim/scenario/build';
import type { Scenario } from '../../src/sim/scenario/schema';
import { validateScenario } from '../../src/sim/scenario/validate';

export function hashWith(scenario: Scenario, runner: 'xstate' | 'compiled'): string {
  const v = validateScenario(scenario);
  if (!v.ok) throw new Error('invalid scenario');
  const built = buildScenario(v.resolved);
  const sim = Simulation.create(built.specs, { ...built.options, runner, record: false });
  sim.run();
  return `${sim.traceHash} ${sim.stepIndex} ${sim.stopReason}`;
}
