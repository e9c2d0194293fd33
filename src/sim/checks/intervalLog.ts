/**
 * Items alive over a span of steps, folded in step order (docs/architecture.md, "Views as
 * accumulators"): an item opens at a step and may close at a later one. Alive as of a view at step
 * `s` (which has taken the facts of the steps before `s`) means opened before `s` and not closed
 * before `s`. The items alive at every `every`-th step are saved as the fold passes it, so the items
 * alive at any step are found from the nearest saved set and the items opened since — a cost bounded
 * by what is alive plus what one span opens, never by the run so far.
 */
export class IntervalLog<T> {
  private readonly opens: number[] = [];
  private readonly closes: number[] = [];
  private readonly items: T[] = [];
  /** saved[k]: the items alive at step k·every. */
  private readonly saved: number[][] = [[]];

  constructor(private readonly every: number) {}

  /** Opens an item at `step` (not before any opened so far); its id closes it. */
  open(step: number, item: T): number {
    this.opens.push(step);
    this.closes.push(Number.POSITIVE_INFINITY);
    this.items.push(item);
    return this.items.length - 1;
  }

  close(id: number, step: number): void {
    if (this.closes[id] === Number.POSITIVE_INFINITY) this.closes[id] = step;
  }

  isOpen(id: number): boolean {
    return this.closes[id] === Number.POSITIVE_INFINITY;
  }

  /** Saves the sets alive up to `step`; every step before it must have been folded. */
  private saveTo(step: number): void {
    while (this.saved.length * this.every <= step) {
      const at = this.saved.length * this.every;
      const prev = this.saved[this.saved.length - 1] as number[];
      const next: number[] = [];
      for (const id of prev) if (this.alive(id, at)) next.push(id);
      for (
        let id = this.firstOpenedFrom((this.saved.length - 1) * this.every);
        id < this.opens.length && (this.opens[id] as number) < at;
        id++
      )
        if (this.alive(id, at)) next.push(id);
      this.saved.push(next);
    }
  }

  private alive(id: number, step: number): boolean {
    return (this.opens[id] as number) < step && !((this.closes[id] as number) < step);
  }

  private firstOpenedFrom(step: number): number {
    let lo = 0;
    let hi = this.opens.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.opens[mid] as number) < step) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The items alive at `step`, in the order they opened. Every step before it must have been folded. */
  aliveAt(step: number): T[] {
    this.saveTo(step);
    const k = Math.floor(step / this.every);
    const ids: number[] = [];
    for (const id of this.saved[k] as number[]) if (this.alive(id, step)) ids.push(id);
    for (let id = this.firstOpenedFrom(k * this.every); id < this.opens.length && (this.opens[id] as number) < step; id++)
      if (this.alive(id, step)) ids.push(id);
    return ids.map((id) => this.items[id] as T);
  }
}
