/**
 * Break it's bench lines (issue 16): schedules per second with one and two workers on
 * ctp-exactly-once-crash (Node worker_threads stand in for the page's Web Workers), and exhaustive
 * k = 1 of every preset's goal, timed, with its outcome checked against the preset's expectedVerdict.
 *
 *   npx tsx bench/search.ts            (also part of `npm run bench` unless --skip-search)
 */
import { Worker } from 'node:worker_threads';
import { PRESETS } from '../src/sim/presets';
import { checkPreset } from '../src/sim/search/presetCheck';
import type { SearchConfig } from '../src/sim/search/search';

type FigureFn = (id: string, label: string, value: number | string | null, unit?: string) => void;
type TargetFn = (id: string, label: string, pass: boolean | null, detail: string) => void;

const PER_WORKER = 30;
// a worker_threads worker does not inherit tsx's loader: register it, then load the TypeScript worker
const BOOT = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(new URL('./searchWorker.ts', import.meta.url).href)}); })`;

/** Schedules per second over the slowest worker's search time (start-up, tsx compiling and a warm-up pass left out). */
function runWorkers(count: number): Promise<number> {
  const jobs = Array.from(
    { length: count },
    (_, index) =>
      new Promise<{ tried: number; ms: number }>((resolve, reject) => {
        const config: SearchConfig = {
          property: { id: 'no-duplicates', at: 'order-results' },
          maxFaults: 1,
          maxSchedules: PER_WORKER,
          shard: { index, count },
        };
        const w = new Worker(BOOT, {
          eval: true,
          workerData: { preset: 'ctp-exactly-once-crash', config },
        });
        w.once('message', (m: { tried: number; ms: number }) => resolve(m));
        w.once('error', reject);
      }),
  );
  return Promise.all(jobs).then((rs) => rs.reduce((a, r) => a + r.tried, 0) / (Math.max(...rs.map((r) => r.ms)) / 1000));
}

export async function benchSearch(figure: FigureFn, target: TargetFn): Promise<void> {
  const one = await runWorkers(1);
  const two = await runWorkers(2);
  figure('search-1w', 'Break it: schedules/s, 1 worker (ctp-exactly-once-crash)', one, '/s');
  figure('search-2w', 'Break it: schedules/s, 2 workers', two, '/s');
  target(
    'search-rate',
    '≥ 1,000 schedules/s with two workers',
    two >= 1000,
    `${Math.round(two)}/s (schedules fork from their parent; the engine's step rate bounds it)`,
  );
  target('search-scale', 'two workers ≥ 1.7× one', two / one >= 1.7, `${(two / one).toFixed(2)}×`);
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
