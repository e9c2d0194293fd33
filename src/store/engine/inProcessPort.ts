/**
 * An engine core on the calling thread behind a worker's port: every message is structured-cloned
 * both ways and delivered on a later task, as a worker's are, so what works here crosses a real
 * worker's boundary too. Takes the core's factory, so a page can build it from an engine script it
 * loaded itself (the embed's fallback where workers are unavailable) without importing the engine.
 */
import type { EnginePort } from './engineClient';
import type { FromEngine, ToEngine } from './protocol';

export type CoreFactory = (post: (m: FromEngine) => void) => (m: ToEngine) => void;

export function inProcessPort(createCore: CoreFactory): EnginePort {
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
  const handle = createCore((m: FromEngine) => {
    const copy = structuredClone(m);
    setTimeout(() => alive && port.onmessage?.({ data: copy }), 0);
  });
  return port;
}
