import { useEffect, useRef, useState } from 'react';

/**
 * The value, but while `active` at most one update every `ms` (the last one always lands). Keeps
 * heavy derived views (the verdict) from recomputing on every animation frame of a long run.
 */
export function useThrottled<T>(value: T, ms: number, active: boolean): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    if (!active) {
      setShown(value);
      return;
    }
    const wait = Math.max(0, last.current + ms - performance.now());
    const timer = setTimeout(() => {
      last.current = performance.now();
      setShown(value);
    }, wait);
    return () => clearTimeout(timer);
  }, [value, ms, active]);
  return active ? shown : value;
}
