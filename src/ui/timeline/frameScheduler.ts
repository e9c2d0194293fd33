/**
 * Coalesces redraw requests into one requestAnimationFrame, so zoom, hover and data changes never
 * draw more than once a frame and never go through React. `onFrame` receives the time each draw
 * took (used by the benchmark).
 */
export interface FrameScheduler {
  request(): void;
  /** Draws now if a draw is pending (or `force`). */
  flush(force?: boolean): void;
  cancel(): void;
}

/**
 * What the draws of one frame may take before the others wait for the next frame: a run landing
 * draws the lanes and the message diagram at once, and together they were one long task on a slow
 * machine. A draw that waited once goes first in the next frame, so no canvas starves. 8 ms: a
 * canvas's first draw (its palette read, its text measured, its backing store made) takes 8–15 ms
 * here, and with the frame's commit of both canvases that frame was one of a boot's longest tasks
 * at 20 ms (2026-12-05); a frame of playback draws each canvas in 2–3 ms, both within it.
 */
export const FRAME_BUDGET_MS = 8;

// the frame the draws so far belong to (all of one frame's callbacks get its timestamp) and their time
let frameStamp = -1;
let frameSpent = 0;

export function createFrameScheduler(draw: () => boolean | undefined, onFrame?: (ms: number) => void): FrameScheduler {
  let handle = 0;
  let pending = false;
  let waited = false;
  const drawNow = () => {
    pending = false;
    waited = false;
    const t0 = performance.now();
    const again = draw();
    const ms = performance.now() - t0;
    frameSpent += ms;
    onFrame?.(ms);
    if (again) request();
  };
  const run = (stamp: number) => {
    handle = 0;
    if (stamp !== frameStamp) {
      frameStamp = stamp;
      frameSpent = 0;
    } else if (frameSpent >= FRAME_BUDGET_MS && !waited) {
      waited = true;
      handle = requestAnimationFrame(run);
      return;
    }
    drawNow();
  };
  const request = () => {
    pending = true;
    if (!handle) handle = requestAnimationFrame(run);
  };
  return {
    request,
    flush(force = false) {
      if (!pending && !force) return;
      if (handle) cancelAnimationFrame(handle);
      handle = 0;
      drawNow();
    },
    cancel() {
      if (handle) cancelAnimationFrame(handle);
      handle = 0;
      pending = false;
      waited = false;
    },
  };
}
