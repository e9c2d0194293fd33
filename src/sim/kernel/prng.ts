/**
 * Seeded PRNG (sfc32) whose whole state is four uint32 words.
 *
 * The state is a plain tuple so that it is part of the simulation state: a checkpoint copies it and
 * a restored run continues the same sequence. Nothing in src/sim may use an unseeded random source.
 */
export type PrngState = readonly [number, number, number, number];

/** Derives a full PRNG state from a 32-bit seed with splitmix32, then warms sfc32 up. */
export function seedPrng(seed: number): PrngState {
  let s = seed >>> 0;
  const next = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let state: PrngState = [next(), next(), next(), next()];
  for (let i = 0; i < 12; i++) state = nextUint32(state)[1];
  return state;
}

/** Returns the next uint32 and the following state; pure. */
export function nextUint32(state: PrngState): [number, PrngState] {
  let [a, b, c, d] = state;
  const t = (((a + b) >>> 0) + d) >>> 0;
  d = (d + 1) >>> 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) >>> 0;
  c = (c << 21) | (c >>> 11);
  c = (c + t) >>> 0;
  return [t, [a >>> 0, b >>> 0, c >>> 0, d]];
}

/** A mutable cursor over a PrngState, for code that draws several numbers in one step. */
export class Prng {
  constructor(private state: PrngState) {}

  get snapshot(): PrngState {
    return this.state;
  }

  uint32(): number {
    const [value, next] = nextUint32(this.state);
    this.state = next;
    return value;
  }

  /** Integer in [min, max], inclusive; unbiased enough for a simulator (max - min < 2^32). */
  int(min: number, max: number): number {
    if (max <= min) return min;
    const span = max - min + 1;
    return min + (this.uint32() % span);
  }

  /** True with probability p (p in [0, 1]). */
  chance(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.uint32() / 4294967296 < p;
  }
}
