// @vitest-environment happy-dom
/**
 * The embed's `resize` messages (happy-dom): the frame reports no height while it loads — neither its
 * skeleton (embed.html) nor the page before the run's panels arrive from the worker — so a host that
 * sizes its iframe from them keeps its own height until the run is on screen, instead of shrinking the
 * frame to a header and jumping back. EmbedApp marks its page busy exactly while it loads.
 */
import { readFileSync } from 'node:fs';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startBridge } from '../../src/embed/bridge';
import { EmbedApp } from '../../src/embed/EmbedApp';
import { createEmbedStore, embedStore } from '../../src/embed/embedStore';
import { shareStore } from '../../src/share/shareState';
import { recordingFrame } from './recordingFrame';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** ResizeObservers the bridge starts; `fire` calls them as a layout change would. */
const observers: (() => void)[] = [];
class FakeResizeObserver {
  constructor(private readonly callback: () => void) {}
  observe() {
    observers.push(this.callback);
  }
  disconnect() {}
}
const fire = () => {
  for (const o of observers) o();
};

let height = 0;
let root: HTMLElement;
beforeEach(() => {
  observers.length = 0;
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
  // the page as embed.html paints it before any script runs: the skeleton in #root
  const html = readFileSync('embed.html', 'utf8');
  document.body.innerHTML = html.slice(html.indexOf('<div id="root">'), html.indexOf('<noscript>'));
  root = document.getElementById('root') as HTMLElement;
  height = 0; // the skeleton is position: fixed, so #root has no height of its own
  root.getBoundingClientRect = () => ({ height }) as DOMRect;
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

/** The bridge in a frame whose parent records what it is sent. */
function bridge(): { heights: () => number[]; stop: () => void; store: ReturnType<typeof createEmbedStore> } {
  const { win, resizeHeights } = recordingFrame();
  const store = createEmbedStore(() => {
    throw new Error('no engine in this test');
  });
  const stop = startBridge(store, { load: async () => null, title: () => '' }, win);
  return { heights: resizeHeights, stop, store };
}

const microtasks = () => new Promise((ok) => setTimeout(ok, 0));

describe("the embed's resize messages", () => {
  it('say nothing while the frame loads, then its height once the run is on screen', async () => {
    expect(root.querySelector('[aria-busy="true"]')).not.toBeNull();
    const { heights, stop } = bridge();
    expect(heights()).toEqual([]);
    // the page replaces the skeleton with its header while the worker runs the scenario
    root.innerHTML = '<main aria-busy="true"><h1>EOS Lab</h1><progress></progress></main>';
    height = 62;
    fire();
    await microtasks();
    expect(heights()).toEqual([]);
    // the run lands with its panels: the page is no longer busy, and the host learns its height
    height = 734;
    root.querySelector('main')?.setAttribute('aria-busy', 'false');
    await microtasks();
    expect(heights()).toEqual([734]);
    fire();
    expect(heights()).toEqual([734]);
    // later changes of size are reported as before
    height = 760;
    fire();
    expect(heights()).toEqual([734, 760]);
    stop();
  });

  it('never go down while one run is shown at one width; a new run or a new width starts again', async () => {
    const { heights, stop, store } = bridge();
    let width = 390;
    root.getBoundingClientRect = () => ({ height, width }) as DOMRect;
    root.innerHTML = '<main aria-busy="false"><p>a run</p></main>';
    height = 734;
    fire();
    expect(heights()).toEqual([734]);
    // a step whose narration is shorter: the frame keeps its height, the host's page does not move
    height = 700;
    fire();
    expect(heights()).toEqual([734]);
    // a step that needs more room than any before: the frame grows
    height = 760;
    fire();
    height = 720;
    fire();
    expect(heights()).toEqual([734, 760]);
    // the host's column is wider: the lines wrap anew, and the content's own height counts again
    width = 700;
    height = 610;
    fire();
    expect(heights()).toEqual([734, 760, 610]);
    height = 640;
    fire();
    height = 620;
    fire();
    expect(heights()).toEqual([734, 760, 610, 640]);
    // another run lands (a load command): its own height again
    act(() => store.setState({ run: { ...({} as NonNullable<ReturnType<typeof store.getState>['run']>) } }));
    height = 500;
    fire();
    expect(heights()).toEqual([734, 760, 610, 640, 500]);
    stop();
  });

  it('report the height when the page settles without its size changing', async () => {
    const { heights, stop } = bridge();
    root.innerHTML = '<main aria-busy="true"><p>a run</p></main>';
    height = 500;
    fire();
    expect(heights()).toEqual([]);
    root.querySelector('main')?.setAttribute('aria-busy', 'false');
    await microtasks();
    expect(heights()).toEqual([500]);
    stop();
  });
});

describe('EmbedApp', () => {
  it('is busy until a run lands or the frame says why it cannot run one', () => {
    const host = document.createElement('div');
    document.body.append(host);
    const app = createRoot(host);
    const busy = () => host.querySelector('main')?.getAttribute('aria-busy');
    act(() => app.render(createElement(EmbedApp)));
    expect(embedStore.getState().status).toBe('idle');
    expect(busy()).toBe('true');
    act(() => embedStore.setState({ status: 'running' }));
    expect(busy()).toBe('true');
    act(() => embedStore.setState({ status: 'ready' }));
    expect(busy()).toBe('false');
    // a refused run (its budget notice) or a link that cannot be read is what the frame shows
    act(() => embedStore.setState({ status: 'error' }));
    expect(busy()).toBe('false');
    act(() => embedStore.setState({ status: 'idle' }));
    act(() => shareStore.getState().setLinkError({ kind: 'corrupt', message: 'not an EOS Lab link' }));
    expect(busy()).toBe('false');
    act(() => shareStore.getState().setLinkError(null));
    act(() => app.unmount());
  });
});
