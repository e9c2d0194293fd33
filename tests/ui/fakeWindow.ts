/** A window for src/share/hashSync.ts in unit tests (tests/ui/hashSync.test.ts, presetFragment.test.ts). */
import { afterEach, beforeEach, vi } from 'vitest';
import { shareStore } from '../../src/share/shareState';

/** Just what hashSync touches of a window; `navigate` changes the fragment without its event. */
export function fakeWindow(initialHash: string) {
  const listeners = new Map<string, Array<() => void>>();
  const location = { hash: initialHash };
  const writes: string[] = [];
  const history = {
    state: null,
    replaceState: (_s: unknown, _t: string, url: string) => {
      location.hash = url;
      writes.push(url);
    },
    pushState: (_s: unknown, _t: string, url: string) => {
      location.hash = url;
      writes.push(url);
    },
  };
  return {
    win: {
      location,
      history,
      addEventListener: (name: string, fn: () => void) => listeners.set(name, [...(listeners.get(name) ?? []), fn]),
      removeEventListener: (name: string, fn: () => void) =>
        listeners.set(
          name,
          (listeners.get(name) ?? []).filter((f) => f !== fn),
        ),
    } as unknown as Window,
    location,
    writes,
    navigate: (hash: string) => {
      location.hash = hash;
    },
    fire: (name: string) => {
      for (const fn of listeners.get(name) ?? []) fn();
    },
  };
}

/** In the current describe: fake timers (hashSync's debounced writes), and no link error or held address bar left from a test before. */
export function withFakeTimersAndFreshShare(): void {
  beforeEach(() => {
    vi.useFakeTimers();
    shareStore.getState().setHoldHash(false);
    shareStore.getState().setLinkError(null);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
