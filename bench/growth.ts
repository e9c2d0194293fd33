/**
 * Growth of run time with the number of records, measured so that both sides of a ratio see the
 * same machine: one run of 10·n records against ten runs of n records back to back. Both take about
 * the same wall time, so a shared VM's slow moments (a 10k run measured 0.44–0.90 s in one process,
 * minutes apart) fall on both sides alike; a best-of-two short run against one long run let a
 * lucky quiet half-second decide the figure. Growth per ×10 records is then
 * `time(10·n) / (time(ten runs of n) / 10)`, 10 for a perfectly linear engine.
 *
 * The JIT is warmed first (a few runs at the middle size), so the figure is the engine's, not the
 * compiler's: it takes ~400k steps of this pipeline before V8's steady state.
 */
import { runScenario } from '../src/sim/run';
import type { Scenario } from '../src/sim/scenario/schema';

export interface SizeFigure {
  readonly records: number;
  /** The best time of one run of this size. */
  readonly ms: number;
  readonly steps: number;
}

export interface GrowthFigure {
  readonly from: number;
  readonly to: number;
  /** time(to) / (time of ten runs of `from`, back to back) × 10; best round of each side. */
  readonly growth: number;
}

const timeRun = (scenario: Scenario): { ms: number; steps: number } => {
  const t0 = performance.now();
  const trace = runScenario(scenario);
  return { ms: performance.now() - t0, steps: trace.steps.length };
};

/**
 * Runs `scenarioOf(n)` at each size (each size ten times the one before), `rounds` times
 * alternating the sides of each ratio, and returns each size's best single run and each ×10 growth.
 * Three rounds: with two, one slow moment of the VM on either side moved a line by ±1.5 (×8.9 and
 * ×11.3 in one run, for an engine that measures ×10–10.6 alone).
 */
export function measureGrowth(
  scenarioOf: (records: number) => Scenario,
  sizes: readonly number[],
  rounds = 3,
): { sizes: SizeFigure[]; growth: GrowthFigure[] } {
  const warm = sizes[Math.min(1, sizes.length - 1)] as number;
  for (let i = 0; i < 3; i++) runScenario(scenarioOf(Math.min(warm, 10000)));
  const best = new Map<number, { ms: number; steps: number }>();
  const note = (n: number, r: { ms: number; steps: number }) => {
    const b = best.get(n);
    if (!b || r.ms < b.ms) best.set(n, r);
  };
  const growth: GrowthFigure[] = [];
  for (let i = 1; i < sizes.length; i++) {
    const small = sizes[i - 1] as number;
    const big = sizes[i] as number;
    const times = Math.round(big / small);
    let tenSmall = Number.POSITIVE_INFINITY;
    let oneBig = Number.POSITIVE_INFINITY;
    for (let round = 0; round < rounds; round++) {
      let sum = 0;
      for (let k = 0; k < times; k++) {
        const r = timeRun(scenarioOf(small));
        note(small, r);
        sum += r.ms;
      }
      tenSmall = Math.min(tenSmall, sum);
      const r = timeRun(scenarioOf(big));
      note(big, r);
      oneBig = Math.min(oneBig, r.ms);
    }
    growth.push({ from: small, to: big, growth: (oneBig / tenSmall) * times });
  }
  return {
    sizes: sizes.map((records) => ({ records, ...(best.get(records) as { ms: number; steps: number }) })),
    growth,
  };
}
