/**
 * A function of a whole run, computed once per trace: the panel that reads it and the page's landing
 * (src/ui/landing.ts, which prepares it before the run is shown) share the one result.
 */
import type { Trace } from '../sim/views';

export function perTrace<T>(f: (trace: Trace) => T): (trace: Trace) => T {
  const cache = new WeakMap<Trace, T>();
  return (trace) => {
    if (cache.has(trace)) return cache.get(trace) as T;
    const v = f(trace);
    cache.set(trace, v);
    return v;
  };
}
