/**
 * Break it's bench lines (issue 16): schedules per second with one and two workers on
 * ctp-exactly-once-crash (Node worker_threads stand in for the page's Web Workers), and exhaustive
 * k = 1 of every preset's goal, timed, with its outcome checked against the preset's expectedVerdict.
 *
 *   npx tsx bench/search.ts            (also part of `npm run bench` unless --skip-search)
 */
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { PRESETS } from '../src/sim/presets';
import { checkPreset } from '../src/sim/search/presetCheck';
import type { SearchConfig } from '../src/sim/search/search';

type FigureFn = (id: string, label: string, value: number | string | null, unit?: string) => void;
type TargetFn = (id: string, label: string, pass: boolean | null, detail: string) => void;

// a worker_threads worker does not inherit tsx's loader: register it, then load the TypeScript worker
const BOOT = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(new URL('./searchWorker.ts', import.meta.url).href)}); })`;

/**
 * Schedules per second of one whole search — every schedule of one fault on ctp-exactly-once-crash —
 * split among `count` workers as the page splits it: from "go" (every worker loaded and ready) to
 * the last worker's end. Every worker runs the configuration alone (the root of its shard); it is
 * counted once, so both figures count the same schedules.
 */
export interface WorkerRun {
  readonly rate: number;
  readonly schedules: number;
  readonly ms: number;
  /**
   * CPU time of the whole process (every thread: the workers and V8's helper threads) over wall
   * time, during the search: how many cores it kept busy. One worker keeps more than one busy — V8
   * optimises its hot functions on a compiler thread (most of it) and collects garbage on helper
   * threads — so on two cores a second worker finds less than a core free (docs/search.md).
   */
  readonly coresBusy: number;
}

/**
 * Schedules per second of one whole search — every schedule of one fault on ctp-exactly-once-crash —
 * split among `count` workers as the page splits it: from "go" (every worker loaded and ready) to
 * the last worker's end; then the same search again in the same workers, warm (the page keeps its
 * workers from one search to the next). Every worker runs the configuration alone (the root of its
 * shard); it is counted once, so both figures count the same schedules.
 */
export async function runWorkers(count: number): Promise<{ cold: WorkerRun; warm: WorkerRun }> {
  const workers = Array.from({ length: count }, (_, index) => {
    const config: SearchConfig = { property: { id: 'no-duplicates', at: 'order-results' }, maxFaults: 1, shard: { index, count } };
    return new Worker(BOOT, { eval: true, workerData: { preset: 'ctp-exactly-once-crash', config } });
  });
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          w.once('message', () => resolve());
          w.once('error', reject);
        }),
    ),
  );
  const search = async (): Promise<WorkerRun> => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const done = workers.map(
      (w) =>
        new Promise<{ tried: number; complete: number }>((resolve, reject) => {
          w.once('message', resolve);
          w.once('error', reject);
          w.postMessage('go');
        }),
    );
    const rs = await Promise.all(done);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    if (rs.some((r) => r.complete !== 1)) throw new Error('a worker did not finish its shard');
    const schedules = 1 + rs.reduce((a, r) => a + r.tried - 1, 0);
    return { rate: schedules / (ms / 1000), schedules, ms, coresBusy: (cpu.user + cpu.system) / 1000 / ms };
  };
  const cold = await search();
  const warm = await search();
  await Promise.all(workers.map((w) => w.terminate()));
  return { cold, warm };
}

export async function benchSearch(figure: FigureFn, target: TargetFn): Promise<void> {
  const load = () => loadavg()[0]?.toFixed(1) ?? '?';
  const loadBefore = load();
  const w1 = await runWorkers(1);
  const w2 = await runWorkers(2);
  const one = w1.cold.rate;
  const two = w2.cold.rate;
  const loadNote = `load average ${loadBefore} → ${load()} on ${availableParallelism()} cores`;
  figure('search-1w', `Break it: schedules/s, 1 worker (ctp-exactly-once-crash, all ${w1.cold.schedules} of k ≤ 1)`, one, '/s');
  figure('search-2w', 'Break it: schedules/s, 2 workers (the same search, split)', two, '/s');
  // the targets stay on the first search (cold workers): the figure a user meets first
  figure(
    'search-1w-cores',
    'Break it: cores kept busy by the 1-worker search (CPU time of every thread / wall time)',
    w1.cold.coresBusy,
    '',
  );
  figure('search-2w-cores', 'Break it: cores kept busy by the 2-worker search', w2.cold.coresBusy, '');
  figure('search-1w-warm', 'Break it: the same search again in the warm worker (1 worker)', w1.warm.rate, '/s');
  figure('search-2w-warm', 'Break it: the same search again in the warm workers (2 workers)', w2.warm.rate, '/s');
  target(
    'search-rate',
    '≥ 1,000 schedules/s with two workers',
    two >= 1000,
    `${Math.round(two)}/s (fast-mode forks; the engine's step rate bounds it — docs/search.md)`,
  );
  target(
    'search-scale',
    'two workers ≥ 1.7× one',
    two / one >= 1.7,
    `${(two / one).toFixed(2)}× (one worker kept ${w1.cold.coresBusy.toFixed(2)} cores busy, two ${w2.cold.coresBusy.toFixed(2)} of ${availableParallelism()}: V8's compiler and GC threads; ${loadNote})`,
  );
  let slowest = 0;
  let failed: string[] = [];
  for (const p of PRESETS) {
    const t0 = performance.now();
    const c = checkPreset(p);
    const ms = performance.now() - t0;
    slowest = Math.max(slowest, ms);
    if (!c.pass) failed = [...failed, `${p.id}: ${c.why}`];
    figure(`search-k1-${p.id}`, `k=1 ${p.id} (${c.expected.kind}, ${c.result.tried} schedules)`, ms, 'ms');
    target(`search-k1-time-${p.id}`, `k=1 ${p.id} within 10 s`, ms <= 10000, `${(ms / 1000).toFixed(1)} s`);
  }
  target('search-k1-outcomes', 'k=1 outcome of every preset = its expectedVerdict', failed.length === 0, failed.join('; ') || 'all');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const targets: { label: string; pass: boolean | null; detail: string }[] = [];
  await benchSearch(
    (_id, label, value, unit = '') =>
      console.log(`  ${label.padEnd(70)} ${typeof value === 'number' ? Math.round(value * 10) / 10 : value} ${unit}`),
    (_id, label, pass, detail) => targets.push({ label, pass, detail }),
  );
  for (const t of targets) console.log(`  ${t.pass ? 'PASS   ' : 'FAIL   '} ${t.label.padEnd(62)} ${t.detail}`);
}
