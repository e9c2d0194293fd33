/** Messages between the page and a Break it worker (search.worker.ts). */
import type { Counterexample, OrderKey, SearchConfig, SearchProgress, SearchResult } from '../../sim';

export type ToWorker =
  /** keepFaults: the scenario's scripted faults stay in the configuration searched (prepareBase). */
  | { readonly type: 'start'; readonly scenario: unknown; readonly config: SearchConfig; readonly keepFaults: boolean }
  /** Another worker found this counterexample: schedules ordered after it need not be tried. */
  | { readonly type: 'best'; readonly order: OrderKey };

export type FromWorker =
  | { readonly type: 'progress'; readonly progress: SearchProgress }
  | { readonly type: 'found'; readonly counterexample: Counterexample; readonly link: string; readonly progress: SearchProgress }
  | { readonly type: 'done'; readonly result: SearchResult }
  | { readonly type: 'error'; readonly message: string };
