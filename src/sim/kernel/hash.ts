/**
 * A streaming 64-bit string hash (two independent 32-bit FNV-1a/murmur-finalised lanes).
 *
 * Used for traceHash: the same sequence of strings gives the same 16 hex digits in Node and in the
 * browser, because it only uses integer arithmetic on UTF-16 code units.
 */
export class StreamHash {
  private a = 0x811c9dc5;
  private b = 0x01000193 ^ 0x9e3779b9;

  update(text: string): this {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    // a separator so that update("ab") + update("c") differs from update("a") + update("bc")
    a = Math.imul(a ^ 0xff, 0x01000193);
    b = Math.imul(b ^ 0xff, 0x5bd1e995);
    this.a = a >>> 0;
    this.b = b >>> 0;
    return this;
  }

  /** The current digest as 16 lowercase hex digits; the hash can keep being updated afterwards. */
  digest(): string {
    const fin = (h: number, k: number): number => {
      let x = h ^ k;
      x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
      x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
      return (x ^ (x >>> 16)) >>> 0;
    };
    const hi = fin(this.a, this.b);
    const lo = fin(this.b, hi);
    return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
  }

  /** Lane state, for checkpoints. */
  get state(): [number, number] {
    return [this.a, this.b];
  }

  static from(state: readonly [number, number]): StreamHash {
    const h = new StreamHash();
    h.a = state[0];
    h.b = state[1];
    return h;
  }
}

export function hashString(text: string): string {
  return new StreamHash().update(text).digest();
}
