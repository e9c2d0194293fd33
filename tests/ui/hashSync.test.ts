/**
 * The address bar and the store (src/share/hashSync.ts), on a window whose events this test
 * delivers itself: a browser changes `location.hash` at once on a navigation but fires `hashchange`
 * in a later task, so the page's own debounced write can fall between the two.
 */
import { describe, expect, it, vi } from 'vitest';
import { linkOf, startHashSync } from '../../src/share/hashSync';
import { shareStore } from '../../src/share/shareState';
import { encodeLink, findPreset } from '../../src/sim';
import { createSimStore } from '../../src/store/simStore';
import { fakeWindow, withFakeTimersAndFreshShare } from './fakeWindow';

const presetLink = (id: string) => {
  const preset = findPreset(id);
  if (!preset) throw new Error(`no preset ${id}`);
  return encodeLink(preset.scenario, { step: 0, selection: null, language: 'en', skipIdle: true });
};

describe('hashSync', () => {
  withFakeTimersAndFreshShare();

  it('a fragment that names nothing the page knows is a link that cannot be opened: said so, the address kept, no scenario in its place', () => {
    for (const hash of ['#garbage', '#top', '#preset']) {
      shareStore.getState().setLinkError(null);
      const w = fakeWindow(hash);
      const store = createSimStore();
      const stop = startHashSync(store, w.win, { delayMs: 50 });
      vi.advanceTimersByTime(100);
      expect(shareStore.getState().linkError?.message, hash).toContain(`"${hash}" is neither`);
      expect(store.getState().scenario, hash).toBeNull();
      expect(w.location.hash).toBe(hash);
      stop();
    }
    // no fragment at all, or one another view opens over the default scenario (a dump, an A/B link)
    for (const hash of ['', '#dump=1.abc']) {
      shareStore.getState().setLinkError(null);
      const w = fakeWindow(hash);
      const store = createSimStore();
      const stop = startHashSync(store, w.win, { delayMs: 50, opensElsewhere: ['#dump=1.'] });
      expect(store.getState().scenario, hash).not.toBeNull();
      expect(shareStore.getState().linkError, hash).toBeNull();
      stop();
    }
  });

  it("a navigation between the page's scheduled write and its hashchange is not written over", () => {
    const first = presetLink('lost-ack-idempotent');
    const second = presetLink('zombie-fencing');
    const w = fakeWindow(first);
    const store = createSimStore();
    const stop = startHashSync(store, w.win, { delayMs: 50 });
    expect(store.getState().scenario?.id).toBe('lost-ack-idempotent');
    vi.advanceTimersByTime(100);

    // the person moves through the run (a write is now due in 50 ms), then pastes another link
    store.getState().seek(3);
    w.navigate(second);
    vi.advanceTimersByTime(100);
    expect(w.location.hash).toBe(second);

    // the browser's hashchange arrives: the pasted link opens, and the bar follows it from then on
    w.fire('hashchange');
    expect(store.getState().scenario?.id).toBe('zombie-fencing');
    vi.advanceTimersByTime(100);
    expect(w.location.hash).toBe(linkOf(store.getState()));
    store.getState().seek(2);
    vi.advanceTimersByTime(100);
    expect(w.location.hash).toBe(linkOf(store.getState()));
    expect(store.getState().step).toBe(2);
    stop();
  });

  it('after a view that held the address bar lets it go, the run’s own link is written again', () => {
    const first = presetLink('lost-ack-idempotent');
    const w = fakeWindow(first);
    const store = createSimStore();
    const stop = startHashSync(store, w.win, { delayMs: 50 });
    vi.advanceTimersByTime(100);

    // a view (the compare page) holds the bar and writes its own link; the run moves meanwhile
    shareStore.getState().setHoldHash(true);
    store.getState().seek(4);
    w.win.history.replaceState(null, '', '#ab=held');
    vi.advanceTimersByTime(100);
    expect(w.location.hash).toBe('#ab=held');

    shareStore.getState().setHoldHash(false);
    vi.advanceTimersByTime(100);
    expect(w.location.hash).toBe(linkOf(store.getState()));
    expect(store.getState().step).toBe(4);
    stop();
  });

  it('Forward onto a view’s entry (#ab=…): the view holds the address; the hashchange after popstate does not let it go', () => {
    const first = presetLink('lost-ack-idempotent');
    const w = fakeWindow(first);
    const store = createSimStore();
    const stop = startHashSync(store, w.win, { delayMs: 50, opensElsewhere: ['#ab=1.'] });
    vi.advanceTimersByTime(100);

    // Forward: the browser fires popstate, the comparison opens and holds the address bar (ComparePage),
    // then the same navigation's hashchange arrives in a later task
    w.navigate('#ab=1.pair');
    w.fire('popstate');
    shareStore.getState().setHoldHash(true);
    w.fire('hashchange');
    vi.advanceTimersByTime(400);
    // it used to release the hold: 250 ms later the run's link replaced the comparison's entry
    expect(shareStore.getState().holdHash).toBe(true);
    expect(w.location.hash).toBe('#ab=1.pair');
    expect(w.writes).toEqual([]);

    // from one comparison's entry to another's: the comparison stays open and keeps holding
    w.navigate('#ab=1.other');
    w.fire('popstate');
    w.fire('hashchange');
    vi.advanceTimersByTime(400);
    expect(shareStore.getState().holdHash).toBe(true);
    expect(w.location.hash).toBe('#ab=1.other');
    stop();
  });
});
