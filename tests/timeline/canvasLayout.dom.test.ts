// @vitest-environment happy-dom
/**
 * The timeline's canvases never force a layout in the middle of a task (issue 13 item 6): a new
 * controller and every data change (each frame while playing) keep the width they know; the plot's
 * width is read only when the ResizeObserver reports (after the browser's layout), and the palette
 * (computed styles) at the first draw.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LanesController } from '../../src/ui/timeline/LanesController';
import { stubCanvas, stubResizeObserver } from '../fixtures/canvasStubs';

let reportResize: () => void = () => undefined;
beforeEach(() => {
  reportResize = stubResizeObserver();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('timeline canvases and layout', () => {
  it('read the plot width only when the ResizeObserver reports, and styles only to draw', () => {
    const root = document.createElement('div');
    let widthReads = 0;
    Object.defineProperty(root, 'clientWidth', {
      get: () => {
        widthReads++;
        return 640;
      },
    });
    const styles = vi.spyOn(window, 'getComputedStyle');
    const el = {
      root,
      plot: root,
      staticCanvas: stubCanvas(),
      overlayCanvas: stubCanvas(),
      tooltip: document.createElement('div'),
      live: document.createElement('p'),
    };
    const c = new LanesController(el, { onSelect: () => undefined });
    const layout = { boxes: [], group: null, height: 40 };
    c.setData([], layout, new Map());
    expect(widthReads).toBe(0); // made and given data: no layout read
    expect(styles).not.toHaveBeenCalled();

    reportResize(); // the observer's first report, after layout
    expect(widthReads).toBe(1);
    expect(el.staticCanvas.style.width).toBe('640px');
    expect(el.staticCanvas.style.height).toBe('40px');

    c.setData([], { ...layout, height: 80 }, new Map()); // a data change (each frame while playing)
    expect(widthReads).toBe(1);
    expect(el.staticCanvas.style.height).toBe('80px'); // sized for the new height at the known width

    c.renderNow(); // drawing reads the palette
    expect(styles).toHaveBeenCalled();
    c.destroy();
  });
});
