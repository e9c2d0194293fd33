/**
 * Replication's cost (issue 15): the exactly-once pipeline with its topics on three replicas
 * (min.insync.replicas=2, acks=all) beside the same pipeline on one, in one run, so that the ratio
 * is measured under the same machine load. Targets: time per record RF=3 / RF=1 ≤ 2.5× at the
 * largest size, and the RF=3 run time grows ≤ 11× per 10× records (the [recorder] target, measured
 * as bench/growth.ts measures the engine's).
 */
import { runScenario } from '../src/sim/run';
import { measureGrowth } from './growth';
import { exactlyOncePipeline } from './pipeline';

type FigureFn = (id: string, label: string, value: number | string | null, unit?: string) => void;
type TargetFn = (id: string, label: string, pass: boolean | null, detail: string) => void;

const round = (x: number) => (Math.abs(x) >= 100 ? Math.round(x) : Math.round(x * 100) / 100);

/** The best of `times` runs (a shared machine's noise only ever adds time), in ms, and the steps. */
function best(records: number, rf: 1 | 3, times: number): { ms: number; steps: number } {
  let ms = Number.POSITIVE_INFINITY;
  let steps = 0;
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    const trace = runScenario(exactlyOncePipeline(records, 1, false, rf));
    ms = Math.min(ms, performance.now() - t0);
    steps = trace.steps.length;
  }
  return { ms, steps };
}

export function benchReplication(quick: boolean, figure: FigureFn, target: TargetFn): void {
  console.log('\nReplication: the exactly-once pipeline with RF=3 (min.insync.replicas=2) beside RF=1');
  for (let i = 0; i < 2; i++) for (const rf of [1, 3] as const) runScenario(exactlyOncePipeline(1000, 1, false, rf));
  const sizes = quick ? [1000, 10000] : [1000, 10000, 100000];
  let ratio = 0;
  for (const n of sizes) {
    // best of two at every size, RF=1 and RF=3 alternately, for the ratio
    const times = 2;
    const one = best(n, 1, times);
    const three = best(n, 3, times);
    figure(`rf1-run-ms-${n}`, `RF=1 run time, ${n} records (${one.steps} steps)`, one.ms, 'ms');
    figure(`rf3-run-ms-${n}`, `RF=3 run time, ${n} records (${three.steps} steps)`, three.ms, 'ms');
    ratio = three.ms / one.ms;
    figure(`rf3-ratio-${n}`, `time per record RF=3 / RF=1, ${n} records`, ratio, '×');
  }
  const largest = sizes[sizes.length - 1] as number;
  target('rf3-ratio', `time per record RF=3 / RF=1 ≤ 2.5× (${largest} records)`, ratio <= 2.5, `×${round(ratio)}`);
  // growth as the engine's is measured: one run of 10·n records against ten of n (bench/growth.ts)
  const measured = measureGrowth((n) => exactlyOncePipeline(n, 1, false, 3), sizes);
  const growth: string[] = [];
  let linear = true;
  for (const g of measured.growth) {
    figure(`rf3-growth-${g.to}`, `RF=3 growth ${g.from} → ${g.to} records (one run against ${g.to / g.from})`, g.growth, '×');
    growth.push(`×${round(g.growth)}`);
    if (g.growth > 11) linear = false;
  }
  target('rf3-linear-growth', 'RF=3 run time grows linearly (≤ 11× per 10× records, each step)', linear, growth.join(', '));
}
