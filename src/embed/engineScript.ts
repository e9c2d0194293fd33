/**
 * The embed's engine script: the engine core with the embed's panels (embedPanels.ts). Built as one
 * classic script (assets/embed-engine.js, vite.config.ts), because the embed runs in sandboxed frames
 * with an opaque origin where a module worker's script cannot load: embedEngine.ts starts it in a
 * worker made from a Blob that calls importScripts, a no-cors load any host allows. Where no worker
 * can start, the same script runs on the page, which then finds the core's factory on `EosLabEngine`.
 */
import { createEngineCore } from '../store/engine/engineCore';
import type { CoreFactory } from '../store/engine/inProcessPort';
import type { FromEngine, ToEngine } from '../store/engine/protocol';
import { embedPanels } from './embedPanels';

const createCore: CoreFactory = (post) => createEngineCore(post, { panels: embedPanels() });

const scope = globalThis as unknown as {
  importScripts?: unknown;
  document?: unknown;
  postMessage(m: FromEngine): void;
  onmessage: ((e: MessageEvent<ToEngine>) => void) | null;
  EosLabEngine?: { createCore: CoreFactory };
};

if (typeof scope.importScripts === 'function' && scope.document === undefined) {
  const handle = createCore((m) => scope.postMessage(m));
  scope.onmessage = (e) => handle(e.data);
} else scope.EosLabEngine = { createCore };
