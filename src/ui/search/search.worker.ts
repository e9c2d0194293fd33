/**
 * A dedicated worker running its shard of a Break it search (src/sim/search). It runs schedules for
 * a slice of ~30 ms, then yields to its own event loop so a `best` message from another worker is
 * read; the page stops a search by terminating the worker. Progress is posted at most every 200 ms.
 */
import { counterexampleLink } from '../../sim/search/report';
import { prepareBase } from '../../sim/search/runner';
import { type SearchControl, search } from '../../sim/search/search';
import type { FromWorker, ToWorker } from './protocol';

const control: SearchControl = {};
const post = (m: FromWorker) => (self as unknown as Worker).postMessage(m);

self.onmessage = (e: MessageEvent<ToWorker>) => {
  const m = e.data;
  if (m.type === 'best') control.best = m.order;
  else if (m.type === 'start') void start(m.scenario, m.config, m.keepFaults);
};

async function start(scenario: unknown, config: Extract<ToWorker, { type: 'start' }>['config'], keepFaults: boolean): Promise<void> {
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
