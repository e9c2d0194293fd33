/**
 * Playback for the embed: while the store says `playing`, step forward at `speed` steps per second
 * and stop at the end of the run. Plain timers outside React, so a host page's re-renders and a
 * hidden frame cost nothing.
 */
import type { EmbedStore } from './embedStore';

export function startPlayer(store: EmbedStore): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    timer = undefined;
    const s = store.getState();
    if (!s.playing || !s.run) return;
    if (s.step >= s.steps) {
      s.setPlaying(false);
      return;
    }
    s.stepForward();
    schedule();
  };
  const schedule = () => {
    if (timer === undefined) timer = setTimeout(tick, 1000 / Math.max(0.5, store.getState().speed));
  };
  const stop = store.subscribe((s, prev) => {
    if (s.playing && !prev.playing) schedule();
    if (!s.playing && timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
  });
  if (store.getState().playing) schedule();
  return () => {
    stop();
    if (timer !== undefined) clearTimeout(timer);
  };
}
