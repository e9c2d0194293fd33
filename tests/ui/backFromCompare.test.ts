/**
 * Back out of a comparison (src/ui/urlViews.ts with src/share/hashSync.ts, on a window whose events
 * this test delivers): the page shows what the entry Back lands on describes — the comparison
 * closed, that entry's scenario in the store — never the comparison left over another scenario.
 * Forward opens the comparison again.
 */
import { describe, expect, it, vi } from 'vitest';
import { startHashSync } from '../../src/share/hashSync';
import { shareStore } from '../../src/share/shareState';
import { encodeAbLink, encodeLink, findPreset, type Scenario } from '../../src/sim';
import { createSimStore } from '../../src/store/simStore';
import { compareStore } from '../../src/ui/compare/compareStore';
import { followViewsInHistory } from '../../src/ui/urlViews';
import { fakeWindow, withFakeTimersAndFreshShare } from './fakeWindow';

const preset = (id: string) => findPreset(id)?.scenario as Scenario;
const linkOf = (s: Scenario) => encodeLink(s, { step: 0, selection: null, language: 'en', skipIdle: true });

describe('Back from the comparison', () => {
  withFakeTimersAndFreshShare();

  it('closes it and shows the scenario of the entry Back lands on; Forward opens it again', () => {
    const before = linkOf(preset('lost-ack-idempotent'));
    const w = fakeWindow(before);
    const store = createSimStore();
    const stopHash = startHashSync(store, w.win, { delayMs: 50, opensElsewhere: ['#ab=1.'] });
    const stopViews = followViewsInHistory(w.win);
    vi.advanceTimersByTime(100);
    expect(store.getState().scenario?.id).toBe('lost-ack-idempotent');

    // the gallery's pair, as the compare page opens it: it holds the address bar, puts scenario A
    // behind it (the header names A) and writes its own link as an entry of its own
    const a = preset('db-sink-duplicate');
    const ab = encodeAbLink({ a, b: preset('db-sink-inbox'), t: 0 });
    compareStore.getState().openPair(a, { scenario: preset('db-sink-inbox') }, 0);
    shareStore.getState().setHoldHash(true);
    store.getState().load(a);
    w.win.history.pushState(null, '', ab);
    vi.advanceTimersByTime(100);
    expect(compareStore.getState().open).toBe(true);

    // Back: the browser fires popstate, then hashchange, for the entry before
    w.navigate(before);
    w.fire('popstate');
    w.fire('hashchange');
    vi.advanceTimersByTime(100);
    expect(compareStore.getState().open).toBe(false);
    expect(store.getState().scenario?.id).toBe('lost-ack-idempotent');
    expect(w.location.hash).toBe(before);

    // Forward: the comparison again
    w.navigate(ab);
    w.fire('popstate');
    w.fire('hashchange');
    expect(compareStore.getState().open).toBe(true);
    expect(compareStore.getState().a?.scenario.id).toBe('db-sink-duplicate');
    stopViews();
    stopHash();
    compareStore.getState().close();
  });
});
