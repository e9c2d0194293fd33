/**
 * One engine run in a process of its own (bench/run.ts starts it with --expose-gc): a recorded run
 * of the exactly-once pipeline with `records` records, then what it retains, the process's peak
 * RSS, and — with --views — the time of every view change at the first and at the last step.
 * Prints one JSON line.
 *
 *   node --expose-gc --import tsx bench/engineChild.ts <records> [--views]
 */
import { runScenario, stateAt } from '../src/sim/run';
import { eventlessTopicsOf, verdictViewAt } from '../src/sim/trace/summary';
import { summaryViewAt } from '../src/sim/trace/summaryView';
import { counterStepsAt } from '../src/ui/verdict/counterSteps';
import { exactlyOncePipeline } from './pipeline';

const records = Number(process.argv[2] ?? 1000);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const used = () => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

// warm the JIT as the parent does, so that the figure is the run, not compilation
for (let i = 0; i < 3; i++) runScenario(exactlyOncePipeline(1000));
const before = used();
const t0 = performance.now();
const trace = runScenario(exactlyOncePipeline(records));
const ms = performance.now() - t0;
const retained = used() - before;
const peakRssMb = process.resourceUsage().maxRSS / 1024;
const out: Record<string, number> = { records, steps: trace.steps.length, ms, retainedBytes: retained, peakRssMb };

if (process.argv.includes('--views')) {
  const last = trace.steps.length;
  const ignored = eventlessTopicsOf(trace);
  const time = (f: () => unknown): number => {
    const xs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const a = performance.now();
      f();
      xs.push(performance.now() - a);
    }
    return Math.min(...xs);
  };
  for (const [name, at] of [
    ['first', 1],
    ['last', last],
  ] as const) {
    const view = stateAt(trace, at);
    out[`state-${name}`] = time(() => stateAt(trace, at));
    out[`counters-${name}`] = time(() => counterStepsAt(trace, at, ignored));
    // what a summary view shows: counts and one page of each list (summarize is the whole document)
    out[`summary-${name}`] = time(() => summaryViewAt(trace, view));
    // what the verdict panel computes on a view change (not the whole summary)
    out[`verdict-${name}`] = time(() => verdictViewAt(trace, view));
  }
}
process.stdout.write(`${JSON.stringify(out)}\n`);
