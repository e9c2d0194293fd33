/** One worker_threads worker of the search bench: runs its shard of a bounded search, reports schedules run. */
import { parentPort, workerData } from 'node:worker_threads';
import { findPreset } from '../src/sim/presets';
import { prepareBase } from '../src/sim/search/runner';
import { type SearchConfig, searchAll } from '../src/sim/search/search';

const { preset, config } = workerData as { preset: string; config: SearchConfig };
const base = prepareBase(findPreset(preset)?.scenario);
const t0 = performance.now();
const r = searchAll(base, config);
parentPort?.postMessage({ tried: r.tried, ms: performance.now() - t0 });
