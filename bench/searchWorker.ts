/**
 * One worker_threads worker of the search bench: runs its shard of a bounded search, reports schedules
 * run. A first, untimed pass over the same shard warms the JIT, so the figure is the steady rate a
 * long search runs at — not a cold worker compiling the engine (with two workers, V8's compiler
 * threads would compete with the other worker for the two cores, and the ratio would measure that).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { findPreset } from '../src/sim/presets';
import { prepareBase } from '../src/sim/search/runner';
import { type SearchConfig, searchAll } from '../src/sim/search/search';

const { preset, config } = workerData as { preset: string; config: SearchConfig };
const base = prepareBase(findPreset(preset)?.scenario);
searchAll(base, config);
const t0 = performance.now();
const r = searchAll(base, config);
parentPort?.postMessage({ tried: r.tried, ms: performance.now() - t0 });
