/**
 * A streaming 64-bit hash (two independent 32-bit lanes, FNV-1a and murmur-style, finalised with
 * murmur3's mixer), for traceHash.
 *
 * The kernel folds integers: a step's numbers, the hashes of the strings it names (computed once
 * per distinct string and cached), and the values of facts and payloads walked field by field
 * (`value`), never a string built for the purpose. Only integer arithmetic on 32-bit words and
 * UTF-16 code units is used, so Node and a browser give the same 16 hex digits. The layout is
 * described in docs/trace-format.md.
 */

/** Tags that keep a walked value unambiguous ({a:[1]} vs {a:1} …). */
const T_NULL = 0x4e554c4c;
const T_FALSE = 0x46414c53;
const T_TRUE = 0x54525545;
const T_NUM = 0x4e554d42;
const T_STR = 0x53545247;
const T_ARR = 0x41525259;
const T_OBJ = 0x4f424a54;
const T_UNDEF = 0x554e4446;
/** Marks a number folded as the two words of its IEEE-754 bits (not a 32-bit integer). */
const FLOAT = -2147483648;

const scratch = new DataView(new ArrayBuffer(8));

export class StreamHash {
  private a = 0x811c9dc5;
  private b = 0x01000193 ^ 0x9e3779b9;

  /** Folds a string's UTF-16 code units, then a separator (so "ab"+"c" differs from "a"+"bc"). */
  update(text: string): this {
    let a = this.a;
    let b = this.b;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    a = Math.imul(a ^ 0xff, 0x01000193);
    b = Math.imul(b ^ 0xff, 0x5bd1e995);
    this.a = a >>> 0;
    this.b = b >>> 0;
    return this;
  }

  /** Folds one 32-bit word. */
  int(x: number): this {
    let a = Math.imul(this.a ^ x, 0x01000193);
    a ^= a >>> 13;
    let b = Math.imul(this.b ^ x, 0x5bd1e995);
    b ^= b >>> 15;
    this.a = a >>> 0;
    this.b = b >>> 0;
    return this;
  }

  /** Folds a number: a 32-bit integer as itself, anything else as the two words of its bits. */
  num(x: number): this {
    if ((x | 0) === x && x !== FLOAT) return this.int(x);
    scratch.setFloat64(0, x, true);
    return this.int(FLOAT).int(scratch.getUint32(0, true)).int(scratch.getUint32(4, true));
  }

  /** Folds a string by content: its length, then its code units. */
  str(s: string): this {
    return this.int(stringHash(s));
  }

  /** Folds a JSON-like value field by field (objects in key order; undefined properties are skipped, as JSON does). */
  value(v: unknown): this {
    switch (typeof v) {
      case 'string':
        return this.int(T_STR).int(stringHash(v));
      case 'number':
        return this.int(T_NUM).num(v);
      case 'boolean':
        return this.int(v ? T_TRUE : T_FALSE);
      case 'undefined':
        return this.int(T_UNDEF);
      case 'object': {
        if (v === null) return this.int(T_NULL);
        if (Array.isArray(v)) {
          this.int(T_ARR).int(v.length);
          for (let i = 0; i < v.length; i++) this.value(v[i]);
          return this;
        }
        const o = v as { toJSON?: () => unknown } & Record<string, unknown>;
        if (typeof o.toJSON === 'function') return this.value(o.toJSON());
        this.int(T_OBJ);
        for (const key in o) {
          const x = o[key];
          if (x === undefined || typeof x === 'function') continue;
          this.int(keyHash(key));
          this.value(x);
        }
        return this.int(T_OBJ);
      }
      default:
        return this.int(T_NULL);
    }
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

/** A string's 32-bit content hash (FNV-1a over its length and UTF-16 code units). */
export function stringHash(s: string): number {
  let h = Math.imul(0x811c9dc5 ^ s.length, 0x01000193);
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h | 0;
}

/**
 * stringHash of the field names met before: every fact and payload repeats the same few dozen names
 * (kind, topic, partition, producerId …), and a Map lookup (V8 keeps a property name's hash with it)
 * costs a third of hashing its code units again. Values are hashed directly: most are met once (a
 * record's key, a note), and caching them costs more than it saves. Bounded: cleared when full (the
 * result is the same).
 */
const keyHashes = new Map<string, number>();
const KEY_HASHES_MAX = 4096;

function keyHash(s: string): number {
  let h = keyHashes.get(s);
  if (h === undefined) {
    h = stringHash(s);
    if (keyHashes.size >= KEY_HASHES_MAX) keyHashes.clear();
    keyHashes.set(s, h);
  }
  return h;
}

export function hashString(text: string): string {
  return new StreamHash().update(text).digest();
}
