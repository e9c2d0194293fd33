/**
 * A dedicated worker running its shard of a Break it search (src/sim/search). It runs schedules for
 * a slice of ~30 ms, then yields to its own event loop so a `best` message from another worker is
 * read; the page stops a search by terminating the worker. Progress is posted at most every 200 ms.
 * A worker that finished its search waits for the next `start` (the page keeps idle workers): each
 * search has a control of its own, so one search's best counterexample never bounds the next.
 */
import { counterexampleLink } from '../../sim/search/report';
import { prepareBase } from '../../sim/search/runner';
import { type SearchControl, search } from '../../sim/search/search';
import type { FromWorker, ToWorker } from './protocol';

let control: SearchControl = {};
const post = (m: FromWorker) => (self as unknown as Worker).postMessage(m);

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.type === 'best') control.best = m.order;
  else if (m.type === 'start') {
    control = {};
    void start(m.scenario, m.config, m.keepFaults, control);
  }
};

async function start(
  scenario: unknown,
  config: Extract<ToWorker, { type: 'start' }>['config'],
  keepFaults: boolean,
  control: SearchControl,
): Promise<void> {
  try {
    const base = prepareBase(scenario, { keepFaults });
    const it = search(base, config, control);
    let lastPost = 0;
    for (;;) {
      const sliceEnd = performance.now() + 30;
      while (performance.now() < sliceEnd) {
        const n = it.next();
        if (n.done) {
          post({ type: 'done', result: n.value });
          return;
        }
        const ev = n.value;
        if (ev.type === 'found')
          post({
            type: 'found',
            counterexample: ev.counterexample,
            link: counterexampleLink(base, ev.counterexample, config.property),
            progress: ev.progress,
          });
        else if (ev.type === 'progress' && performance.now() - lastPost > 200) {
          lastPost = performance.now();
          post({ type: 'progress', progress: ev.progress });
        }
      }
      await new Promise((r) => setTimeout(r, 0));
    }
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
}
