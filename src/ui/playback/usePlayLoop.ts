import { useEffect } from 'react';
import { simStore } from '../../store/simStore';
import { useSim } from '../../store/useSim';

/**
 * The play loop: while playing, advance `speed` steps per second on animation frames (several steps
 * per frame when fast); background steps (heartbeats, idle fetches) are passed over unless the
 * person turned that off. Seeking is instant (checkpoints), so a frame never waits on the engine for
 * long. Stops at the end of the run.
 */
export function usePlayLoop(): void {
  const playing = useSim((s) => s.playing);
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    let last = performance.now();
    let carry = 0;
    const tick = (now: number) => {
      const s = simStore.getState();
      const total = s.trace?.steps.length ?? 0;
      if (!s.playing) return;
      if (s.step >= total) {
        s.setPlaying(false);
        return;
      }
      carry += ((now - last) / 1000) * s.speed;
      last = now;
      const n = Math.floor(carry);
      if (n > 0) {
        carry -= n;
        // with background steps skipped (the default), n story steps, however many idle ones lie between
        s.seek(s.advance(n));
      }
      if (simStore.getState().step >= total) simStore.getState().setPlaying(false);
      else frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing]);
}
