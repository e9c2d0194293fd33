/**
 * Short eased transitions for values that move when the step changes (the LEO / HW / LSO lines and
 * the pointers), skipped entirely under prefers-reduced-motion.
 */
export const TWEEN_MS = 180;

interface Tween {
  from: number;
  to: number;
  start: number;
}

const ease = (t: number) => 1 - (1 - t) ** 3;

export class Tweens {
  private readonly map = new Map<string, Tween>();

  constructor(private readonly duration = TWEEN_MS) {}

  /** Moves `key` towards `target`, from where it is now; without animation it jumps. */
  set(key: string, target: number, now: number, animate: boolean): void {
    const current = this.value(key, now);
    if (current === undefined || !animate || current === target) this.map.set(key, { from: target, to: target, start: 0 });
    else this.map.set(key, { from: current, to: target, start: now });
  }

  value(key: string, now: number): number | undefined {
    const t = this.map.get(key);
    if (!t) return undefined;
    if (t.from === t.to) return t.to;
    const p = Math.min(1, (now - t.start) / this.duration);
    return p >= 1 ? t.to : t.from + (t.to - t.from) * ease(p);
  }

  /** True while some value is still moving. */
  active(now: number): boolean {
    for (const t of this.map.values()) if (t.from !== t.to && now - t.start < this.duration) return true;
    return false;
  }

  /** Forgets keys not in `keep`. */
  retain(keep: ReadonlySet<string>): void {
    for (const k of this.map.keys()) if (!keep.has(k)) this.map.delete(k);
  }
}
