/**
 * A recorder column of running ends (where a step's envelopes or extras end): a non-decreasing
 * sequence of integers kept as a 32-bit base per block of 64 rows plus a 16-bit offset per row
 * from it — 2 bytes a row instead of 4. A block whose rows run more than 65,535 past its base
 * turns the offsets into 32 bits for good.
 */
const BLOCK = 64;
const SHIFT = 6;

export class EndColumn {
  private base: Uint32Array;
  private rel: Uint16Array | Uint32Array;

  constructor(capacity = 1024) {
    this.rel = new Uint16Array(capacity);
    this.base = new Uint32Array(Math.ceil(capacity / BLOCK));
  }

  get capacity(): number {
    return this.rel.length;
  }

  get(i: number): number {
    return (this.base[i >> SHIFT] as number) + (this.rel[i] as number);
  }

  /** Writes row `i`; rows are written in order, so the first row of a block sets its base. */
  set(i: number, value: number): void {
    if ((i & (BLOCK - 1)) === 0) {
      this.base[i >> SHIFT] = value;
      this.rel[i] = 0;
      return;
    }
    const d = value - (this.base[i >> SHIFT] as number);
    if (d > 0xffff && this.rel instanceof Uint16Array) this.rel = Uint32Array.from(this.rel);
    this.rel[i] = d;
  }

  /** A column holding the first `rows` rows with room for `capacity`. */
  resized(rows: number, capacity: number): EndColumn {
    const c = new EndColumn(0);
    c.rel = new (this.rel.constructor as { new (n: number): Uint16Array | Uint32Array })(capacity);
    c.rel.set(this.rel.subarray(0, Math.min(rows, capacity)));
    c.base = new Uint32Array(Math.ceil(capacity / BLOCK));
    c.base.set(this.base.subarray(0, Math.min(Math.ceil(rows / BLOCK), c.base.length)));
    return c;
  }

  get byteLength(): number {
    return this.rel.byteLength + this.base.byteLength;
  }
}
