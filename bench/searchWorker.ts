/**
 * One worker_threads worker of the search bench: loads the engine and the configuration, says it is
 * ready, and on each "go" runs its shard of the search to the end, reporting the schedules it ran.
 * The JIT's warm-up is inside the first search's time (a user's first search pays it too); a second
 * "go" is the same search in the warm worker, as the page's kept workers run a next search. Loading
 * TypeScript through tsx is not timed (the page's worker is a bundle).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { findPreset } from '../src/sim/presets';
import { prepareBase } from '../src/sim/search/runner';
import { type SearchConfig, searchAll } from '../src/sim/search/search';

const { preset, config } = workerData as { preset: string; config: SearchConfig };
const base = prepareBase(findPreset(preset)?.scenario);
parentPort?.on('message', () => {
  const r = searchAll(base, config);
  parentPort?.postMessage({ tried: r.tried, complete: r.completeUpTo });
});
parentPort?.postMessage('ready');
