/**
 * A persistent append-only sequence.
 *
 * Partition logs only ever grow, so a version of a log is (shared array, length). Appending to the
 * newest version pushes in place and returns a new version; appending to an older version (a run
 * forked from a checkpoint) copies first. Old versions therefore never change, which is what lets
 * checkpoints keep references instead of copies.
 *
 * The array lives in private fields: XState's snapshot persistence walks contexts key by key, and
 * a log of 100k records must not be walked at every checkpoint.
 */
export class AppendLog<T> {
  readonly #items: T[];
  readonly #length: number;

  private constructor(items: T[], length: number) {
    this.#items = items;
    this.#length = length;
  }

  static empty<T>(): AppendLog<T> {
    return new AppendLog<T>([], 0);
  }

  static of<T>(items: readonly T[]): AppendLog<T> {
    return new AppendLog<T>(items.slice(), items.length);
  }

  get length(): number {
    return this.#length;
  }

  at(index: number): T | undefined {
    return index >= 0 && index < this.#length ? this.#items[index] : undefined;
  }

  last(): T | undefined {
    return this.at(this.#length - 1);
  }

  append(item: T): AppendLog<T> {
    const items = this.#items.length === this.#length ? this.#items : this.#items.slice(0, this.#length);
    items.push(item);
    return new AppendLog(items, this.#length + 1);
  }

  /** The first `length` items (a truncated log; the next append to it copies, so this version never changes). */
  take(length: number): AppendLog<T> {
    return length >= this.#length ? this : new AppendLog(this.#items, Math.max(0, length));
  }

  /** A new log with the item at `index` replaced (copies; for rare in-place edits). */
  with(index: number, item: T): AppendLog<T> {
    const items = this.#items.slice(0, this.#length);
    items[index] = item;
    return new AppendLog(items, this.#length);
  }

  /** The items from `start` on, in an array of their own (the ones before can then be collected). */
  dropFirst(start: number): AppendLog<T> {
    const items = this.#items.slice(start, this.#length);
    return new AppendLog(items, items.length);
  }

  toArray(): T[] {
    return this.#items.slice(0, this.#length);
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.#length; i++) yield this.#items[i] as T;
  }

  /** Index of the first item for which `isAtOrAfter` is true (items must be ordered by it). */
  lowerBound(isAtOrAfter: (item: T) => boolean): number {
    let lo = 0;
    let hi = this.#length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (isAtOrAfter(this.#items[mid] as T)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  toJSON(): T[] {
    return this.toArray();
  }
}
