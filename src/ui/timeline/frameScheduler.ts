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

export function createFrameScheduler(draw: () => boolean | undefined, onFrame?: (ms: number) => void): FrameScheduler {
  let handle = 0;
  let pending = false;
  const run = () => {
    handle = 0;
    pending = false;
    const t0 = performance.now();
    const again = draw();
    onFrame?.(performance.now() - t0);
    if (again) request();
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
      run();
    },
    cancel() {
      if (handle) cancelAnimationFrame(handle);
      handle = 0;
      pending = false;
    },
  };
}
