/**
 * The kernel's event queue: a binary min-heap ordered by (time, seq).
 *
 * `seq` is the insertion sequence number, so two events at the same virtual time always come out in
 * the order they were scheduled. That tie-break is what makes a run deterministic.
 */
export interface Queued<T> {
  readonly time: number;
  readonly seq: number;
  readonly item: T;
}

function before<T>(a: Queued<T>, b: Queued<T>): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}

export class EventQueue<T> {
  private heap: Queued<T>[];

  constructor(entries: readonly Queued<T>[] = []) {
    this.heap = [];
    for (const e of entries) this.push(e);
  }

  get size(): number {
    return this.heap.length;
  }

  push(entry: Queued<T>): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent] as Queued<T>;
      if (!before(entry, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = entry;
  }

  peek(): Queued<T> | undefined {
    return this.heap[0];
  }

  pop(): Queued<T> | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    let i = 0;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let child = l;
      if (r < n && before(heap[r] as Queued<T>, heap[l] as Queued<T>)) child = r;
      const c = heap[child] as Queued<T>;
      if (!before(c, last)) break;
      heap[i] = c;
      i = child;
    }
    heap[i] = last;
    return top;
  }

  /** A copy of the entries in (time, seq) order; used for checkpoints and for drawing in-flight envelopes. */
  sorted(): Queued<T>[] {
    return [...this.heap].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  }

  /** The raw heap array, copied; restoring from it keeps the heap property without re-sorting. */
  toArray(): Queued<T>[] {
    return this.heap.slice();
  }

  static fromHeapArray<T>(heap: readonly Queued<T>[]): EventQueue<T> {
    const q = new EventQueue<T>();
    q.heap = heap.slice();
    return q;
  }
}
