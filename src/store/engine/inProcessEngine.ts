/**
 * The engine behind the same boundary, on the calling thread: for tests (Node, happy-dom) and for a
 * browser without workers. Every message is structured-cloned both ways, as a worker's are, so what
 * works here crosses a real worker's boundary too (inProcessPort.ts).
 */
import type { PageBudgets } from '../../sim';
import { EngineClient } from './engineClient';
import { createEngineCore, type PanelsProvider } from './engineCore';
import { inProcessPort } from './inProcessPort';

export function inProcessEngine(budgets?: PageBudgets, panels?: PanelsProvider): EngineClient {
  return new EngineClient(
    inProcessPort((post) => createEngineCore(post, { ...(budgets ? { budgets } : {}), ...(panels ? { panels } : {}) })),
  );
}
