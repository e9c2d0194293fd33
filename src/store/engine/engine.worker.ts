/**
 * The engine's dedicated Web Worker: the scenario is built, run and recorded here, off the page's
 * main thread, and the page asks for what it shows (protocol.ts). Bundled on its own by Vite
 * (`new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module' })`), so the engine's
 * code is this chunk's, loaded when the first run starts.
 */
import { createEngineCore } from './engineCore';
import type { FromEngine, ToEngine } from './protocol';

const handle = createEngineCore((m: FromEngine) => (self as unknown as Worker).postMessage(m));
self.onmessage = (e: MessageEvent<ToEngine>) => handle(e.data);
