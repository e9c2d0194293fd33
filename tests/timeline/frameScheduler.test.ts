/**
 * The canvases' frame scheduler: redraw requests coalesce into one draw per frame, and the draws of
 * one frame share a budget (FRAME_BUDGET_MS) — a canvas whose turn comes after the budget is spent
 * draws first in the next frame, so a run landing does not draw every canvas in one long task, and no
 * canvas starves while another draws long every frame. requestAnimationFrame and the clock are
 * stubbed: frames are run by hand, and a draw advances the clock by what it "takes".
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFrameScheduler, FRAME_BUDGET_MS } from '../../src/ui/timeline/frameScheduler';

let now = 0;
let callbacks = new Map<number, FrameRequestCallback>();
let nextHandle = 1;
let stamp = 1000;

/** Runs one animation frame: every callback requested before it, with the frame's one timestamp. */
function frame(): void {
  const due = callbacks;
  callbacks = new Map();
  stamp += 16.7;
  for (const cb of due.values()) cb(stamp);
}

beforeEach(() => {
  now = 0;
  callbacks = new Map();
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => {
    const h = nextHandle++;
    callbacks.set(h, cb);
    return h;
  });
  vi.stubGlobal('cancelAnimationFrame', (h: number) => callbacks.delete(h));
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A canvas whose draw takes `ms` and notes its name in `log`. */
function canvas(name: string, ms: number, log: string[]) {
  return createFrameScheduler(() => {
    now += ms;
    log.push(name);
    return undefined;
  });
}

describe('frame scheduler', () => {
  it('coalesces requests into one draw a frame', () => {
    const log: string[] = [];
    const lanes = canvas('lanes', 2, log);
    lanes.request();
    lanes.request();
    lanes.request();
    frame();
    frame();
    expect(log).toEqual(['lanes']);
  });

  it('draws every canvas in the same frame while the frame is within its budget', () => {
    const log: string[] = [];
    const lanes = canvas('lanes', FRAME_BUDGET_MS / 4, log);
    const msc = canvas('msc', FRAME_BUDGET_MS / 4, log);
    lanes.request();
    msc.request();
    frame();
    expect(log).toEqual(['lanes', 'msc']);
  });

  it('a canvas whose turn comes after the budget is spent draws in the next frame, and draws first there', () => {
    const log: string[] = [];
    const lanes = canvas('lanes', FRAME_BUDGET_MS + 10, log);
    const msc = canvas('msc', 5, log);
    lanes.request();
    msc.request();
    frame();
    expect(log).toEqual(['lanes']);
    // the lanes ask again (as while playing): the waiting canvas draws anyway, before them
    lanes.request();
    frame();
    expect(log).toEqual(['lanes', 'msc', 'lanes']);
  });

  it('no canvas starves while another spends the whole budget every frame', () => {
    const log: string[] = [];
    const lanes = canvas('lanes', FRAME_BUDGET_MS * 2, log);
    const msc = canvas('msc', 5, log);
    for (let i = 0; i < 6; i++) {
      lanes.request();
      msc.request();
      frame();
    }
    expect(log.filter((n) => n === 'msc').length).toBeGreaterThanOrEqual(3);
    expect(log.filter((n) => n === 'lanes').length).toBeGreaterThanOrEqual(3);
  });

  it('flush draws at once, outside any frame; cancel drops a pending draw', () => {
    const log: string[] = [];
    const lanes = canvas('lanes', 1, log);
    lanes.request();
    lanes.flush();
    expect(log).toEqual(['lanes']);
    frame();
    expect(log).toEqual(['lanes']);
    lanes.request();
    lanes.cancel();
    frame();
    expect(log).toEqual(['lanes']);
    lanes.flush(true);
    expect(log).toEqual(['lanes', 'lanes']);
  });
});
