// @vitest-environment happy-dom
/**
 * The message view's + and − (happy-dom, the controller outside React): they zoom around the "now"
 * line, or the selected envelope, when it is in view — not around the middle of the plot, where a
 * reader at step 60 of a 400-step run found, after a few presses, a stretch of steps not yet played.
 */
import { scaleLinear } from 'd3-scale';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario } from '../../src/sim/run';
import { MscController } from '../../src/ui/timeline/MscController';
import { buildMscModel, visibleEnvelopes } from '../../src/ui/timeline/mscModel';
import { PLOT_PAD } from '../../src/ui/timeline/offsetScale';
import { stubCanvas, stubResizeObserver } from '../fixtures/canvasStubs';

let reportResize: () => void = () => undefined;
beforeEach(() => {
  reportResize = stubResizeObserver();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const WIDTH = 240;

function controller() {
  const root = document.createElement('div');
  Object.defineProperty(root, 'clientWidth', { get: () => WIDTH });
  const el = {
    root,
    plot: root,
    staticCanvas: stubCanvas(),
    overlayCanvas: stubCanvas(),
    tooltip: document.createElement('div'),
    live: document.createElement('p'),
    axis: document.createElementNS('http://www.w3.org/2000/svg', 'svg'),
  };
  return new MscController(el, () => undefined);
}

describe('message view zoom buttons', () => {
  const trace = runScenario(findPreset('lost-ack-idempotent')?.scenario);
  const model = buildMscModel(trace);
  const base = scaleLinear()
    .domain([0, Math.max(1, model.endStep)])
    .range([PLOT_PAD, WIDTH - PLOT_PAD]);
  /** Where a step is drawn on screen under the controller's pan and zoom. */
  const screenX = (c: MscController, step: number) =>
    (c as unknown as { zoom: { transform: { applyX(x: number): number } } }).zoom.transform.applyX(base(step));

  it('keep "now" where it is on screen while zooming in and out', () => {
    const step = 60;
    const c = controller();
    c.setData({ model, shown: visibleEnvelopes(model, step, false), mode: 'step', step, now: trace.steps.at(step)?.t ?? 0 });
    reportResize();
    const before = screenX(c, step);
    expect(before).toBeLessThan(WIDTH / 2 - 40); // early in the run: left of the middle
    for (let i = 0; i < 3; i++) c.zoomBy(2);
    expect(Math.abs(screenX(c, step) - before)).toBeLessThan(1);
    // and it is still on screen, with the steps just before it
    expect(screenX(c, step - 2)).toBeGreaterThan(0);
    c.zoomBy(0.5);
    expect(Math.abs(screenX(c, step) - before)).toBeLessThan(1);
    c.destroy();
  });

  it('keep the selected envelope where it is when it is in view', () => {
    const step = 200;
    const c = controller();
    const shown = visibleEnvelopes(model, step, false);
    c.setData({ model, shown, mode: 'step', step, now: trace.steps.at(step)?.t ?? 0 });
    reportResize();
    const first = model.envelopes[shown[0] as number];
    if (!first) throw new Error('no envelope');
    c.setSelection({ kind: 'envelope', id: first.id });
    const sentAt = first.sentStep + 1; // the view's x of an envelope in step mode
    const before = screenX(c, sentAt);
    c.zoomBy(2);
    c.zoomBy(2);
    expect(Math.abs(screenX(c, sentAt) - before)).toBeLessThan(1);
    c.destroy();
  });
});
