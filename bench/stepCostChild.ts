/**
 * One engine step against one bare XState actor.send, and fast mode against trace mode, in a process
 * of its own (bench/run.ts starts it): the figures then do not depend on what the bench ran before
 * (a 100k-record run, the replication runs, the heap they left behind), so the quick and the full
 * bench measure the same thing. A first round warms the JIT and grows the heap, as the bench's
 * earlier runs did when it measured this in its own process; then five rounds, the three figures
 * interleaved so that a busy moment of the shared machine hits all three alike, best of each.
 * Prints one JSON line.
 *
 *   node --import tsx bench/stepCostChild.ts <records> [rounds]
 */
import { assign, createActor, createMachine } from 'xstate';
import { runScenario } from '../src/sim/run';
import { runFast } from '../src/sim/trace/fastRun';
import { exactlyOncePipeline } from './pipeline';

const records = Number(process.argv[2] ?? 10000);
const rounds = Number(process.argv[3] ?? 5);

function bareSendUs(): number {
  const m = createMachine({ context: { n: 0 }, on: { ping: { actions: assign({ n: ({ context }) => context.n + 1 }) } } });
  const a = createActor(m).start();
  for (let i = 0; i < 50000; i++) a.send({ type: 'ping' });
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 3; r++) {
    const t0 = performance.now();
    for (let i = 0; i < 200000; i++) a.send({ type: 'ping' });
    best = Math.min(best, ((performance.now() - t0) * 1000) / 200000);
  }
  return best;
}

/** µs per step of one run. */
function perStep(run: () => number): number {
  const t0 = performance.now();
  const steps = run();
  return ((performance.now() - t0) * 1000) / steps;
}

const scenario = exactlyOncePipeline(records);
// the warm-up round, not counted
bareSendUs();
perStep(() => runScenario(scenario).steps.length);
perStep(() => runFast(scenario).steps);
let bare = Number.POSITIVE_INFINITY;
let traceUs = Number.POSITIVE_INFINITY;
let fastUs = Number.POSITIVE_INFINITY;
for (let r = 0; r < rounds; r++) {
  bare = Math.min(bare, bareSendUs());
  traceUs = Math.min(
    traceUs,
    perStep(() => runScenario(scenario).steps.length),
  );
  fastUs = Math.min(
    fastUs,
    perStep(() => runFast(scenario).steps),
  );
}
process.stdout.write(`${JSON.stringify({ records, bare, traceUs, fastUs })}\n`);
