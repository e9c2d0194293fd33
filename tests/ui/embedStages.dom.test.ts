// @vitest-environment happy-dom
/**
 * The embed's run in stages (src/embed/EmbedApp.tsx's RunPanels; staging turned on by
 * src/embed/main.tsx): a run lands with its playback, narration, verdict and logs, the timeline a
 * stage later, its box aria-busy meanwhile — so the bridge posts the frame's height once, with the
 * timeline in it. With staging off (as in the other tests) everything comes at once.
 */
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startBridge } from '../../src/embed/bridge';
import { EmbedApp } from '../../src/embed/EmbedApp';
import { embedPanels } from '../../src/embed/embedPanels';
import { createEmbedStore, embedStore } from '../../src/embed/embedStore';
import { findPreset } from '../../src/sim/presets';
import { inProcessEngine } from '../../src/store/engine/inProcessEngine';
import { workspaceStaging } from '../../src/ui/layout/stages';
import { stubResizeObserver } from '../fixtures/canvasStubs';
import { recordingFrame } from './recordingFrame';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A run as the worker answers it: loaded by a store of its own over the in-process engine. */
let landed: Partial<ReturnType<typeof embedStore.getState>> = {};
beforeAll(async () => {
  const store = createEmbedStore(() => inProcessEngine(undefined, embedPanels()));
  expect(await store.getState().load(findPreset('opening-story')?.scenario)).toEqual({ kind: 'done' });
  const { scenario, run, steps, step, panels, status, progress } = store.getState();
  landed = { scenario, run, steps, step, panels, status, progress };
});

let host: HTMLElement;
let app: Root;
let reportResize: () => void = () => undefined;
beforeEach(() => {
  reportResize = stubResizeObserver();
  host = document.createElement('div');
  host.id = 'root';
  // the bridge measures #root: happy-dom lays nothing out
  host.getBoundingClientRect = () => ({ height: 500 }) as DOMRect;
  document.body.append(host);
  app = createRoot(host);
});
afterEach(() => {
  act(() => app.unmount());
  host.remove();
  workspaceStaging.enabled = false;
  embedStore.setState({ scenario: null, run: null, panels: null, status: 'idle', steps: 0, step: 0 });
});

const has = (selector: string) => host.querySelector(selector) !== null;

/** The bridge in a frame whose parent records the heights it is sent. */
function heights(): () => number[] {
  const { win, resizeHeights } = recordingFrame();
  startBridge(embedStore, { load: async () => null, title: () => '' }, win);
  return resizeHeights;
}

/** Lets the stages go on until `done` holds (each waits for a frame, or at most STAGE_WAIT_MS). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !done(); i++) await act(() => new Promise((ok) => setTimeout(ok, 10)));
}

describe("the embed's run", () => {
  it('lands with its panels, the timeline a stage later; no height is posted before the timeline is there', async () => {
    workspaceStaging.enabled = true;
    // the page while the worker runs the scenario (busy), the bridge started as main.tsx starts it
    act(() => app.render(createElement(EmbedApp)));
    const posted = heights();
    act(() => embedStore.setState(landed));
    expect(has('[data-testid="embed-play"]')).toBe(true);
    expect(has('[data-testid="embed-verdict"]')).toBe(true);
    expect(has('[data-testid="embed-logs"]')).toBe(true);
    expect(has('[data-testid="timeline"]')).toBe(false);
    // the run is on screen but its timeline's box is busy: the host keeps its frame's height
    expect(host.querySelector('main')?.getAttribute('aria-busy')).toBe('false');
    expect(host.querySelector('.eos-embed-timeline')?.getAttribute('aria-busy')).toBe('true');
    reportResize();
    expect(posted()).toEqual([]);
    await until(() => has('[data-testid="timeline"]'));
    expect(has('[data-testid="timeline"]')).toBe(true);
    expect(host.querySelector('[aria-busy="true"]')).toBeNull();
    await act(() => new Promise((ok) => setTimeout(ok, 0)));
    expect(posted()).toEqual([500]);
  });

  it('renders the timeline with the other panels when staging is off', () => {
    act(() => app.render(createElement(EmbedApp)));
    act(() => embedStore.setState(landed));
    expect(has('[data-testid="embed-play"]')).toBe(true);
    expect(has('[data-testid="timeline"]')).toBe(true);
    expect(host.querySelector('[aria-busy="true"]')).toBeNull();
  });
});
