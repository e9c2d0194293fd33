/**
 * The engine behind the same boundary, on the calling thread: for tests (Node, happy-dom) and for a
 * browser without module workers. Every message is structured-cloned both ways, as a worker's are,
 * so what works here crosses a real worker's boundary too.
 */
import type { PageBudgets } from '../../sim';
import { EngineClient, type EnginePort } from './engineClient';
import { createEngineCore } from './engineCore';
import type { FromEngine, ToEngine } from './protocol';

export function inProcessEngine(budgets?: PageBudgets): EngineClient {
  let alive = true;
  const port: EnginePort = {
    onmessage: null,
    postMessage(m: ToEngine) {
      const copy = structuredClone(m);
      setTimeout(() => alive && handle(copy), 0);
    },
    terminate() {
      alive = false;
    },
  };
  const handle = createEngineCore(
    (m: FromEngine) => {
      const copy = structuredClone(m);
      setTimeout(() => alive && port.onmessage?.({ data: copy }), 0);
    },
    budgets ? { budgets } : {},
  );
  return new EngineClient(port);
}
